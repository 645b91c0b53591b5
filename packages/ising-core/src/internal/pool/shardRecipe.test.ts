// The recipes the attention engine's threads rebuild the built-in samplers from: every
// deterministic built-in has one, each rebuilt sampler answers a shard of whole sequences as the
// original answers them inside the whole batch, and nothing else has one.
import { describe, expect, it } from 'vitest';
import {
  causalBatch,
  createRng,
  exactSampler,
  gibbsSampler,
  meanFieldSampler,
  tapSampler,
  transferMatrixSampler,
} from '../../index.js';
import type { IsingGradients, Sampler } from '../../index.js';
import { shardRecipeOf } from './shardRecipe.js';
import { samplerFromRecipe } from './shardSampler.js';

const B = 4;
const T = 6;

function inputs(seed: number) {
  const rng = createRng(seed);
  const fields = Float64Array.from({ length: B * T * T }, () => rng.normal());
  const couplings = new Float64Array(T * T);
  for (let j = 0; j < T; j++)
    for (let k = j + 1; k < Math.min(T, j + 3); k++) couplings[j * T + k] = 0.3 * rng.normal();
  const grad = Float64Array.from({ length: B * T * T }, () => rng.normal());
  return { fields, couplings, grad };
}

/** Estimate and VJP of sequences `from … to − 1`. */
function run(sampler: Sampler, from: number, to: number, seed: number) {
  const { fields, couplings, grad } = inputs(seed);
  const part = (a: Float64Array) => a.slice(from * T * T, to * T * T);
  const batch = causalBatch(part(fields), couplings, { batch: to - from, length: T });
  const estimate = sampler.estimate!(batch) as { magnetization: Float64Array } & {
    vjp(g: Float64Array): IsingGradients;
  };
  return { m: estimate.magnetization, grads: estimate.vjp(part(grad)) };
}

const cases: [string, Sampler][] = [
  ['exact', exactSampler.create({ maxSpins: 12, threads: 2 })],
  ['mean-field', meanFieldSampler.create({ tolerance: 1e-12 })],
  ['tap', tapSampler.create({ tolerance: 1e-12, threads: 2 })],
  ['transfer-matrix', transferMatrixSampler.create({ bandwidth: 2, precision: 'float32' })],
];

describe('shard recipes', () => {
  for (const [name, sampler] of cases)
    it(`${name}: rebuilt on one thread, a shard of whole sequences gets the whole batch's answers`, () => {
      const recipe = shardRecipeOf(sampler)!;
      expect(recipe.sampler).toBe(name);
      expect(recipe.options).not.toHaveProperty('threads');
      // Plain data: what a worker receives is what was recorded.
      expect(structuredClone(recipe)).toEqual(recipe);
      const whole = run(sampler, 0, B, 7);
      const rebuilt = samplerFromRecipe(recipe);
      const [a, b] = [run(rebuilt, 0, 1, 7), run(rebuilt, 1, B, 7)];
      expect(Float64Array.from([...a.m, ...b.m])).toEqual(whole.m);
      expect(Float64Array.from([...a.grads.fields, ...b.grads.fields])).toEqual(whole.grads.fields);
      // ∂L/∂J: the shards' parts sum to the whole batch's (up to summation order).
      whole.grads.couplings.forEach((g, i) =>
        expect(a.grads.couplings[i]! + b.grads.couplings[i]!).toBeCloseTo(g, 12),
      );
    });

  it('the recipe keeps the options that change the answer', () => {
    const recipe = shardRecipeOf(
      transferMatrixSampler.create({ bandwidth: 3, precision: 'float32' }),
    );
    expect(recipe?.options).toEqual({ bandwidth: 3, precision: 'float32' });
    expect(shardRecipeOf(exactSampler.create({ maxSpins: 10 }))?.options).toEqual({ maxSpins: 10 });
  });

  it('a copy, a wrapper, a random sampler and anything else have none', () => {
    const exact = exactSampler.create();
    expect(shardRecipeOf({ ...exact })).toBeUndefined();
    expect(shardRecipeOf(gibbsSampler.create({ seed: 1 }))).toBeUndefined();
    for (const other of [undefined, null, 3, 'exact', {}])
      expect(shardRecipeOf(other)).toBeUndefined();
  });
});
