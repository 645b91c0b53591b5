import { describe, it } from 'vitest';
import type { AnySamplerPlugin } from '../types.js';
import { runConformanceCheck } from './conformanceChecks.js';
import { CONFORMANCE_CHECKS, CONFORMANCE_TITLES } from './conformanceOptions.js';
import type { SamplerConformanceOptions } from './conformanceOptions.js';

/**
 * Registers the sampler conformance suite with vitest (`@boltzmann/ising-core/testing/vitest`;
 * without vitest, run each check with `runConformanceCheck` from `@boltzmann/ising-core/testing`): one `describe` block named after the
 * plugin, one `it` per check of {@link CONFORMANCE_CHECKS}. Works for synchronous and
 * asynchronous samplers (every answer goes through `estimateBatch` and is awaited).
 * The exact references are computed by brute-force enumeration inside this module.
 *
 * @summary Registers the sampler conformance suite with vitest, one `it` per check.
 * @param plugin the plugin under test.
 * @param options `createOptions` for `plugin.create`, `tolerance` ({ magnetization, gradient },
 *   absolute; defaults 0.05 and 0.15), `exactReference: false` for samplers that do not target the
 *   Boltzmann distribution, `fieldScale`/`couplingScale`/`seed` of the random batch, `skip` to leave out checks.
 * @example
 * // not run: a vitest test file (my-sampler.test.ts) that declares a suite
 * import { gibbsSampler } from '@boltzmann/ising-core';
 * import { describeSamplerConformance } from '@boltzmann/ising-core/testing/vitest';
 *
 * describeSamplerConformance(gibbsSampler, { createOptions: { seed: 1 }, tolerance: { magnetization: 0.03 } });
 * @category Conformance
 */
export function describeSamplerConformance(
  plugin: AnySamplerPlugin,
  options: SamplerConformanceOptions = {},
): void {
  const skipped = new Set(options.skip ?? []);
  describe(`sampler conformance: ${plugin.name}`, () => {
    for (const check of CONFORMANCE_CHECKS) {
      it.skipIf(skipped.has(check))(`${check}: ${CONFORMANCE_TITLES[check]}`, () =>
        runConformanceCheck(check, plugin, options),
      );
    }
  });
}
