import { codeOf } from '@boltzmann/ising-core/testing';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTrainer, createTransformer, initBackend, maskedCrossEntropy } from '../index.js';
import { createDelayedSampler, createReferenceSampler } from '../testing/referenceSampler.js';
import {
  figures,
  gpt,
  logitsOf,
  maxAbsDiff,
  patternBatch,
  randomTokens,
  take,
} from '../testing/testUtils.js';

describe('multi-layer GPT', () => {
  beforeAll(async () => {
    await initBackend('wasm', { log: () => {} });
  });

  for (const variant of ['softmax', 'boltzmann'] as const) {
    it(`a 2-layer, 2-head ${variant} model learns a repeated pattern (loss falls over 40 steps)`, async () => {
      const model = createTransformer({ ...gpt, dModel: 16, ffnHidden: 32, variant });
      const trainer = createTrainer(model, { totalSteps: 40, lr: 1e-2 });
      const losses: number[] = [];
      for (let s = 0; s < 40; s++) losses.push((await trainer.step(patternBatch(8, 100 + s))).loss);
      expect(losses[0]).toBeGreaterThan(1.5);
      expect(losses.at(-1)!).toBeLessThan(0.3 * losses[0]!);
      trainer.dispose();
      model.dispose();
    });
  }

  it('gradients of a 2-layer model match central differences, including a layer-1 J entry (with and without dropout)', () => {
    for (const dropout of [0, 0.2]) {
      const model = createTransformer({
        ...gpt,
        sampler: createReferenceSampler(),
        jInitStd: 0.5,
        dropout,
        seed: 5,
      });
      // At the N(0, 0.02²) initialization the attention branch barely reaches the loss (J gradients
      // ~1e-6, below float32 finite-difference noise); std 0.4 makes every compared gradient ≥ 1e-2.
      for (const p of model.parameters) {
        if (p.name.endsWith('/kernel') || p.name.startsWith('embedding/'))
          p.variable.assign(tf.tidy(() => tf.mul(p.variable, 20)));
      }
      const inputs = randomTokens(2 * 6, 7, 4);
      const targets = randomTokens(2 * 6, 7, 5);
      const mask = Float32Array.from({ length: 12 }, (_, i) => (i % 4 === 0 ? 0 : 1));
      const pass = { dropoutStep: 3 };
      const loss = (): tf.Scalar =>
        maskedCrossEntropy(model.logits(inputs, 2, undefined, pass), targets, mask);
      const lossValue = (): number => take(tf.tidy(loss))[0]!;
      const { grads } = tf.variableGrads(
        loss,
        model.parameters.map((p) => p.variable),
      );
      for (const name of [
        'block1/attention/couplings',
        'attention/couplings',
        'block1/attention/query/kernel',
        'block1/ffn/output/kernel',
        'embedding/token',
        'block/norm1/gamma',
      ]) {
        const { variable } = model.parameters.find((p) => p.name === name)!;
        const g = grads[variable.name]!.dataSync();
        // The entry with the largest gradient: compared well above the absolute tolerance.
        let at = 0;
        for (let i = 1; i < g.length; i++) if (Math.abs(g[i]!) > Math.abs(g[at]!)) at = i;
        const analytic = g[at]!;
        const original = Float32Array.from(variable.dataSync());
        const lossAt = (eps: number): number => {
          const moved = Float32Array.from(original);
          moved[at] = moved[at]! + eps;
          variable.assign(tf.tensor(moved, variable.shape));
          return lossValue();
        };
        const central = (eps: number): number => (lossAt(eps) - lossAt(-eps)) / (2 * eps);
        const fd = (4 * central(1e-2) - central(2e-2)) / 3;
        variable.assign(tf.tensor(original, variable.shape));
        expect(Math.abs(analytic), `${name}: gradient too small to test`).toBeGreaterThan(1e-2);
        expect(
          Math.abs(analytic - fd),
          `dropout ${dropout} ${name}[${at}]: analytic ${analytic} vs fd ${fd}`,
        ).toBeLessThan(3e-4 + 2e-2 * Math.abs(fd));
      }
      tf.dispose(Object.values(grads));
      model.dispose();
    }
  });

  it('prepare runs the layers in sequence for an async sampler: per-layer estimates, same logits and attention as synchronous', async () => {
    const reference = createReferenceSampler();
    const sync = createTransformer({ ...gpt, sampler: reference, jInitStd: 0.3 });
    const remote = createTransformer({
      ...gpt,
      sampler: createDelayedSampler(reference, 1),
      jInitStd: 0.3,
    });
    const inputs = randomTokens(12, 7, 6);
    const prepared = await remote.prepare(inputs, 2);
    expect(prepared?.layers).toHaveLength(2);
    expect(prepared?.heads).toBe(prepared?.layers?.[0]?.heads);
    expect(take(remote.logits(inputs, 2, prepared))).toEqual(take(sync.logits(inputs, 2)));
    expect(await logitsOf(remote, inputs, 2)).toEqual(await logitsOf(sync, inputs, 2));
    // Layer 0's estimates alone do not cover layer 1.
    expect(codeOf(() => remote.logits(inputs, 2, { heads: prepared!.heads }))).toBe(
      'ATTENTION_ASYNC_SAMPLER',
    );
    const w = await remote.attention(inputs, 2);
    expect(w).toHaveLength(2 * 2 * 2 * 36);
    expect(w).toEqual(await sync.attention(inputs, 2));
    expect(w.subarray(0, 144)).not.toEqual(w.subarray(144));
    const [t1, t2] = [
      createTrainer(sync, { totalSteps: 3 }),
      createTrainer(remote, { totalSteps: 3 }),
    ];
    for (let s = 0; s < 3; s++)
      expect(figures(await t2.step(patternBatch(2, s)))).toEqual(
        figures(await t1.step(patternBatch(2, s))),
      );
    for (const x of [t1, t2, sync, remote]) x.dispose();
  });

  it('dropout is active only in training steps, deterministic under seed + step, and consistent between prepare and logits', async () => {
    const config = { ...gpt, dropout: 0.3, jInitStd: 0.3 };
    const model = createTransformer(config);
    const plain = createTransformer({ ...config, dropout: 0 });
    const inputs = randomTokens(12, 7, 7);
    const off = take(model.logits(inputs, 2));
    expect(await logitsOf(model, inputs, 2)).toEqual(off);
    expect(off).toEqual(take(plain.logits(inputs, 2)));
    expect(take(plain.logits(inputs, 2, undefined, { dropoutStep: 4 }))).toEqual(off);
    const step4 = take(model.logits(inputs, 2, undefined, { dropoutStep: 4 }));
    expect(step4).not.toEqual(off);
    expect(take(model.logits(inputs, 2, undefined, { dropoutStep: 4 }))).toEqual(step4);
    expect(take(model.logits(inputs, 2, undefined, { dropoutStep: 5 }))).not.toEqual(step4);
    expect(codeOf(() => model.logits(inputs, 2, undefined, { dropoutStep: -1 }))).toBe(
      'ATTENTION_INVALID_ARGUMENT',
    );
    // An async sampler's estimates of a dropout step match that step's fields (no stale estimate).
    const remote = createTransformer({
      ...config,
      sampler: createDelayedSampler(createReferenceSampler(), 1),
    });
    const prepared = await remote.prepare(inputs, 2, { dropoutStep: 4 });
    // (The reference sampler rounds differently from 'exact', hence a tolerance.)
    expect(
      maxAbsDiff(take(remote.logits(inputs, 2, prepared, { dropoutStep: 4 })), step4),
    ).toBeLessThan(1e-5);
    // Two identical runs train identically (dropout masks come from the seed and the step).
    const other = createTransformer(config);
    const [t1, t2] = [
      createTrainer(model, { totalSteps: 4 }),
      createTrainer(other, { totalSteps: 4 }),
    ];
    for (let s = 0; s < 4; s++)
      expect(figures(await t2.step(patternBatch(4, s)))).toEqual(
        figures(await t1.step(patternBatch(4, s))),
      );
    expect(other.toJSON()).toEqual(model.toJSON());
    for (const x of [t1, t2, model, plain, remote, other]) x.dispose();
  });
});
