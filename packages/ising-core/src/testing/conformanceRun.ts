// What every conformance check shares: a sampler made and disposed around its use, one run of a
// batch, the sampler's spin limit and an element-wise comparison over the used spins.
import { conformanceBatch } from './conformanceBatch.js';
import { estimateBatch } from '../estimateBatch.js';
import type { AnySamplerPlugin, BatchEstimate, IsingBatch, Sampler } from '../types.js';
import type { Settings } from './conformanceOptions.js';
import { ensure } from './conformanceAssert.js';

/** Runs `use` on a sampler created with the suite's options, and disposes the sampler after it. */
export async function withSampler<T>(
  plugin: AnySamplerPlugin,
  s: Settings,
  use: (sampler: Sampler) => Promise<T>,
): Promise<T> {
  const sampler = plugin.create(s.createOptions);
  try {
    return await use(sampler);
  } finally {
    await sampler.dispose?.();
  }
}

/** The estimate of `batch` by a fresh sampler of `plugin`. */
export function run(
  plugin: AnySamplerPlugin,
  s: Settings,
  batch: IsingBatch,
): Promise<BatchEstimate> {
  return withSampler(plugin, s, async (sampler) => estimateBatch(sampler, batch));
}

/** The largest problem a sampler of `plugin` accepts (`capabilities.maxSpins`). */
export function largestSpins(plugin: AnySamplerPlugin, s: Settings): Promise<number> {
  return withSampler(plugin, s, async (sampler) => sampler.capabilities.maxSpins);
}

/** Whether a sampler of `plugin` takes problems of `spins` spins. */
export async function fits(plugin: AnySamplerPlugin, s: Settings, spins: number): Promise<boolean> {
  return (await largestSpins(plugin, s)) >= spins;
}

/** The suite's seeded random batch (`RANDOM_SHAPE`). */
export function randomBatch(s: Settings): IsingBatch {
  return conformanceBatch(s.seed, s.fieldScale, s.couplingScale);
}

/** Asserts that `actual` is within `tolerance` of `expected` at every used spin of `batch`. */
export function expectUsedClose(
  batch: IsingBatch,
  actual: Float64Array,
  expected: Float64Array,
  tolerance: number,
  what: string,
): void {
  for (let q = 0; q < batch.size; q++) {
    for (let j = 0; j < batch.spins[q]!; j++) {
      const i = q * batch.stride + j;
      ensure(
        Math.abs(actual[i]! - expected[i]!) <= tolerance,
        `${what} of problem ${q}, spin ${j}: got ${actual[i]}, exact ${expected[i]} (tolerance ${tolerance})`,
      );
    }
  }
}
