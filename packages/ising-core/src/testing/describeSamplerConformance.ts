import { describe, it } from 'vitest';
import type { AnySamplerPlugin } from '../types.js';
import { runConformanceCheck } from './conformanceChecks.js';
import { CONFORMANCE_CHECKS } from './conformanceOptions.js';
import type { ConformanceCheck, SamplerConformanceOptions } from './conformanceOptions.js';

const TITLES: Record<ConformanceCheck, string> = {
  'plugin-shape': 'has a name, a version and well-formed capabilities',
  create: 'creates a sampler from the given options (dispose is safe twice)',
  'single-spin': 'gives m ≈ ±tanh(4) for one spin in a field of ±4',
  'two-spin': 'matches the exact moments of a two-spin ferromagnet',
  'random-batch': 'matches exact Boltzmann magnetizations on a random causal batch (B=2, T=4)',
  range: 'returns finite magnetizations in [−1, 1], zero beyond each problem',
  'input-intact': 'leaves the batch and the upstream gradient unmodified',
  'vjp-shape':
    'returns VJPs in the batch layout: zeros beyond each problem and on/below the diagonal',
  'vjp-accuracy': 'returns VJPs close to the exact covariance gradients',
  determinism: 'gives identical answers for identical options when it claims to be deterministic',
  'sync-contract': 'answers synchronously unless capabilities.async',
  'spin-limit': 'refuses more spins than capabilities.maxSpins with ISING_TOO_MANY_SPINS',
};

/**
 * Registers the sampler conformance suite with vitest: one `describe` block named after the
 * plugin, one `it` per check of {@link CONFORMANCE_CHECKS}. Works for synchronous and
 * asynchronous samplers (every answer goes through `estimateBatch` and is awaited).
 * The exact references are computed by brute-force enumeration inside this module.
 *
 * @param plugin the plugin under test.
 * @param options `createOptions` for `plugin.create`, `tolerance` ({ magnetization, gradient },
 *   absolute; defaults 0.05 and 0.15), `exactReference: false` for samplers that do not target the
 *   Boltzmann distribution, `fieldScale`/`couplingScale`/`seed` of the random batch, `skip` to leave out checks.
 * @example
 * // my-sampler.test.ts
 * import { describeSamplerConformance } from '@boltzmann/ising-core/testing';
 * import mySampler from './index.js';
 *
 * describeSamplerConformance(mySampler, { createOptions: { seed: 1 }, tolerance: { magnetization: 0.03 } });
 */
export function describeSamplerConformance(
  plugin: AnySamplerPlugin,
  options: SamplerConformanceOptions = {},
): void {
  const skipped = new Set(options.skip ?? []);
  describe(`sampler conformance: ${plugin.name}`, () => {
    for (const check of CONFORMANCE_CHECKS) {
      it.skipIf(skipped.has(check))(`${check}: ${TITLES[check]}`, () =>
        runConformanceCheck(check, plugin, options),
      );
    }
  });
}
