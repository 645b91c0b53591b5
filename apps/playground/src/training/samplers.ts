import { dqaSampler } from '@boltzmann/dqa-sim';
import {
  createSamplerRegistry,
  exactSampler,
  gibbsSampler,
  tapSampler,
  transferMatrixSampler,
} from '@boltzmann/ising-core';
import type { Sampler } from '@boltzmann/ising-core';
import type { CouplingForm } from '@boltzmann/attention';
import { PLAYGROUND_BANDWIDTH } from './trainConfig.js';
import type { SamplerName } from './trainConfig.js';

/** The playground's registry: the five samplers the UI offers, nothing else. */
const registry = createSamplerRegistry()
  .register(exactSampler)
  .register(transferMatrixSampler)
  .register(tapSampler)
  .register(gibbsSampler)
  .register(dqaSampler)
  .freeze();

/** A sampler instance for the boltzmann model, and the J parameterization it needs. */
export interface SamplerChoice {
  readonly sampler: Sampler;
  /** The options it was created with (recorded in the model config). */
  readonly options: Record<string, unknown>;
  readonly couplingForm: CouplingForm;
  /** One line for the UI. */
  readonly description: string;
}

/**
 * Creates the sampler the boltzmann model trains with. Exact, transfer-matrix and tap take
 * `threads` (their share beyond the training worker runs on ising-core's Web Workers, see
 * samplerThreads.ts); Gibbs and DQA run on the training worker, with settings small enough for a
 * few training steps per second.
 */
export function createPlaygroundSampler(
  name: SamplerName,
  seed: number,
  threads: 1 | 2 = 1,
): SamplerChoice {
  switch (name) {
    case 'exact': {
      const options = { threads };
      return {
        sampler: registry.require('exact').create(options),
        options,
        couplingForm: 'full',
        description: 'exact enumeration of all 2ⁿ spin states',
      };
    }
    case 'transfer-matrix': {
      const options = { threads, bandwidth: PLAYGROUND_BANDWIDTH };
      return {
        sampler: registry.require('transfer-matrix').create(options),
        options,
        couplingForm: `banded:${PLAYGROUND_BANDWIDTH}`,
        description: `exact transfer matrix; J is banded (|j − k| ≤ ${PLAYGROUND_BANDWIDTH})`,
      };
    }
    case 'tap': {
      const options = { threads };
      return {
        sampler: registry.require('tap').create(options),
        options,
        couplingForm: 'full',
        description: 'TAP mean field with the Onsager term (approximate)',
      };
    }
    case 'gibbs': {
      const options = { seed, chains: 4, burnIn: 20, samples: 100, thin: 1 };
      return {
        sampler: registry.require('gibbs').create(options),
        options,
        couplingForm: 'full',
        description: 'Gibbs MCMC, 4 chains × 100 samples (noisy)',
      };
    }
    case 'dqa': {
      const options = { tau: 8, steps: 16, shots: 0 };
      return {
        sampler: registry.require('dqa').create(options),
        options,
        couplingForm: 'full',
        description: 'simulated diabatic quantum anneal, τ = 8, 16 Trotter steps, exact |ψ|²',
      };
    }
  }
}
