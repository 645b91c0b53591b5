import { assertPluginOptions, createRng, optionSpecs } from '@boltzmann/ising-core';
import { echo } from '@boltzmann/ising-core/internal';
import type {
  IsingBatch,
  SampleResult,
  SampleSet,
  Sampler,
  SamplerCapabilities,
  SamplerPlugin,
} from '@boltzmann/ising-core';
import { DqaError } from './errors.js';
import { createPlan, DEFAULTS } from './internal/plan.js';
import type { Calibration } from './internal/plan.js';
import { assertQubits, ensureWorkspace, probabilities, runAnneal } from './internal/runAnneal.js';
import type { Workspace } from './internal/runAnneal.js';
import { assertShots, sampleShots } from './sampleShots.js';
import type { CompiledSchedule, ScheduleSpec } from './schedule.js';

/**
 * Options of the `'dqa'` sampler.
 *
 * @category Samplers
 */
export interface DqaSamplerOptions {
  /** Total anneal time τ (default 16). */
  readonly tau?: number;
  /** Trotter steps K (default 64, at most `DQA_MAX_STEPS` = 2^20). */
  readonly steps?: number;
  /** Trotter order (default 2). */
  readonly order?: 1 | 2;
  /** `'linear'` (default), `'dwave'` or `{ A, B }`. */
  readonly schedule?: ScheduleSpec | CompiledSchedule;
  /** Measurements per problem, at most `DQA_MAX_SHOTS` = 2^24; 0 (default) returns the exact output distribution `|ψ|²`. */
  readonly shots?: number;
  /** Rescale `βh`, `βJ` so the output matches Boltzmann at first order (default `'linear-response'`). */
  readonly calibrate?: Calibration;
  /** Seed of the shot sampler (default 0); successive calls continue one stream. */
  readonly seed?: number;
  /** Largest problem accepted (default 26). */
  readonly maxQubits?: number;
}

const capabilities: SamplerCapabilities = {
  exact: false,
  maxSpins: DEFAULTS.maxQubits,
  async: false,
  deterministic: true,
};

const OPTIONS = optionSpecs<DqaSamplerOptions>({
  tau: { type: 'number', default: '16', doc: 'Total anneal time τ.' },
  steps: { type: 'integer', default: '64', doc: 'Trotter steps K, at most DQA_MAX_STEPS = 2^20.' },
  order: { type: '1 | 2', default: '2', doc: 'Trotter order.' },
  schedule: {
    type: "'linear' | 'dwave' | { A, B }",
    default: "'linear'",
    doc: 'The anneal schedule A(u), B(u): a preset, or two expressions in u.',
  },
  shots: {
    type: 'integer',
    default: '0',
    doc: 'Measurements per problem, at most 2^24; 0 returns the exact output distribution |ψ|².',
  },
  calibrate: {
    type: "boolean | 'effective-temperature' | 'linear-response'",
    default: "'linear-response'",
    doc: 'Rescale βh, βJ so the output matches Boltzmann at first order.',
  },
  seed: {
    type: 'number',
    default: '0',
    doc: 'Seed of the shot sampler; successive calls continue one stream.',
  },
  maxQubits: { type: 'integer', default: '26', doc: 'Largest problem accepted.' },
});

/** Copies problem q's fields and couplings out of the batch, scaled by the plan and β. */
function extract(
  batch: IsingBatch,
  q: number,
  fieldScale: number,
  couplingScale: number,
): { n: number; h: Float64Array; J: Float64Array } {
  const n = batch.spins[q]!;
  const { stride } = batch;
  const h = new Float64Array(n);
  const J = new Float64Array(n * n);
  for (let j = 0; j < n; j++) {
    h[j] = batch.fields[q * stride + j]! * fieldScale;
    for (let k = j + 1; k < n; k++) J[j * n + k] = batch.couplings[j * stride + k]! * couplingScale;
  }
  for (let j = 0; j < n; j++) {
    if (!Number.isFinite(h[j]!))
      throw new DqaError(
        'DQA_NOT_FINITE',
        `problem ${q}: field ${j} is ${echo(batch.fields[q * stride + j])}`,
      );
  }
  for (let i = 0; i < J.length; i++) {
    if (!Number.isFinite(J[i]!))
      throw new DqaError(
        'DQA_NOT_FINITE',
        `coupling J_${Math.floor(i / n)},${i % n} is not finite`,
      );
  }
  return { n, h, J };
}

/**
 * The `'dqa'` sampler plugin: every problem of an attention batch is annealed on the
 * statevector simulator (fields and couplings multiplied by `batch.beta`, then calibrated),
 * and `sample(batch)` returns the exact output distributions (`shots: 0`, kind `'dense'`) or
 * seeded finite-shot sample sets (kind `'samples'`). Moments and the VJP come from
 * ising-core's shared code: the Boltzmann covariance estimator applied to the DQA output.
 *
 * The defaults (τ = 16, K = 64, order 2, linear schedule, linear-response calibration) keep the
 * output close to, not equal to, the Boltzmann distribution: see the README for measured errors.
 *
 * @summary The `'dqa'` sampler plugin.
 * @throws {DqaError} from `create`: DQA_INVALID_ARGUMENT for a bad value or an unknown option key,
 * DQA_BAD_SCHEDULE for a bad schedule.
 * @example
 * import { causalBatch, createSamplerRegistry, estimateBatch } from '@boltzmann/ising-core';
 * import { dqaSampler } from '@boltzmann/dqa-sim';
 *
 * const fields = Float64Array.from({ length: 36 }, (_, i) => 0.3 * Math.sin(i));
 * const couplings = new Float64Array(36).fill(0.1);
 * const registry = createSamplerRegistry().register(dqaSampler);
 * const sampler = registry.require('dqa').create({ shots: 0 });
 * const estimate = await estimateBatch(sampler, causalBatch(fields, couplings, { batch: 1, length: 6 }));
 * console.log(estimate.magnetization);
 * @category Samplers
 */
export const dqaSampler: SamplerPlugin<DqaSamplerOptions, Sampler, 'dqa'> = {
  name: 'dqa',
  version: '0.1.0',
  description:
    'Trotterized statevector simulation of a diabatic quantum anneal (exact |ψ|² or seeded shots).',
  capabilities,
  options: OPTIONS,
  create(options: DqaSamplerOptions = {}): Sampler {
    assertPluginOptions(
      'dqa',
      options,
      OPTIONS,
      (message) => new DqaError('DQA_INVALID_ARGUMENT', message),
    );
    const shots = options.shots ?? 0;
    assertShots(shots, 0);
    const seed = options.seed ?? 0;
    if (typeof seed !== 'number' || !Number.isFinite(seed))
      throw new DqaError('DQA_INVALID_ARGUMENT', `seed must be a finite number, got ${echo(seed)}`);
    const plan = createPlan(
      { ...options, calibrate: options.calibrate ?? 'linear-response' },
      true,
    );
    const rng = createRng(seed);
    const caps: SamplerCapabilities = { ...capabilities, maxSpins: plan.maxQubits };
    let ws: Workspace | undefined;
    return {
      name: 'dqa',
      capabilities: caps,
      sample(batch: IsingBatch): SampleResult {
        const beta = batch.beta;
        if (!(beta > 0) || !Number.isFinite(beta))
          throw new DqaError(
            'DQA_INVALID_ARGUMENT',
            `batch.beta must be finite and > 0, got ${echo(beta)}`,
          );
        let largest = 0;
        for (let q = 0; q < batch.size; q++) largest = Math.max(largest, batch.spins[q]!);
        assertQubits(largest, plan.maxQubits);
        ws = ensureWorkspace(largest, ws);
        const distributions: Float64Array[] = [];
        const sets: SampleSet[] = [];
        for (let q = 0; q < batch.size; q++) {
          const { n, h, J } = extract(batch, q, plan.fieldScale * beta, plan.couplingScale * beta);
          runAnneal(h, J, n, plan, ws);
          const p = probabilities(ws, n);
          if (shots === 0) distributions.push(p);
          else sets.push(sampleShots(p, n, shots, rng));
        }
        return shots === 0 ? { kind: 'dense', distributions } : { kind: 'samples', sets };
      },
      dispose() {
        ws = undefined;
      },
    };
  },
};
