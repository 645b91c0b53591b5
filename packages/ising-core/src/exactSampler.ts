import { defineSamplerPlugin } from './registry.js';
import { estimateExact } from './estimateExact.js';
import { resolveMaxSpins, resolveThreads } from './internal/kernels/exactBatch.js';
import { withShardRecipe } from './internal/pool/shardRecipe.js';
import type { Sampler, SamplerPlugin } from './types.js';
import { assertPluginOptions, optionSpecs } from './pluginOptions.js';

/**
 * Options of the `'exact'` sampler.
 *
 * @category Samplers
 */
export interface ExactSamplerOptions {
  /** Largest spin count per problem (default 24, at most 30). */
  readonly maxSpins?: number;
  /**
   * Threads per estimate: `'auto'` (default, all cores for batches of ≥ 2^24 configurations) or a
   * positive integer, capped at the core count (with a one-time warning).
   */
  readonly threads?: 'auto' | number;
}

const OPTIONS = optionSpecs<ExactSamplerOptions>({
  maxSpins: { type: 'integer', default: '24', doc: 'Largest spin count per problem, at most 30.' },
  threads: {
    type: "'auto' | number",
    default: "'auto'",
    doc: "Threads per estimate: 'auto' uses all cores for batches of at least 2^24 configurations.",
  },
});

/**
 * The `'exact'` sampler plugin: exact Boltzmann magnetizations and VJPs by enumeration
 * (`estimateExact`), synchronous and deterministic.
 *
 * Its capabilities report `maxSpins` 24; a created sampler reports the limit it was created with.
 *
 * @example
 * import { causalBatch, createSamplerRegistry, exactSampler } from '@boltzmann/ising-core';
 *
 * const fields = Float64Array.from({ length: 4 * 8 * 8 }, (_, i) => Math.sin(i));
 * const couplings = new Float64Array(8 * 8).fill(0.1);
 * const registry = createSamplerRegistry().register(exactSampler);
 * const sampler = registry.require('exact').create({ maxSpins: 20 });
 * const { magnetization } = await sampler.estimate!(causalBatch(fields, couplings, { batch: 4, length: 8 }));
 * console.log(magnetization.length);
 * @category Samplers
 */
export const exactSampler: SamplerPlugin<ExactSamplerOptions, Sampler, 'exact'> =
  defineSamplerPlugin<ExactSamplerOptions, Sampler, 'exact'>({
    name: 'exact',
    version: '0.1.0',
    description: 'Exact Boltzmann moments and gradients by O(2^n) enumeration.',
    capabilities: { exact: true, maxSpins: 24, async: false, deterministic: true },
    options: OPTIONS,
    create(options: ExactSamplerOptions = {}): Sampler {
      assertPluginOptions('exact', options, OPTIONS);
      const maxSpins = resolveMaxSpins(options.maxSpins);
      const threads = resolveThreads(options.threads, 'exact sampler: threads');
      return withShardRecipe(
        {
          name: 'exact',
          capabilities: { exact: true, maxSpins, async: false, deterministic: true },
          estimate: (batch) => estimateExact(batch, { maxSpins, threads }),
        },
        { sampler: 'exact', options: { maxSpins } },
      );
    },
  });
