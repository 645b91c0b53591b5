import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createTrainer,
  createTransformer,
  initBackend,
  loadTransformer,
  maskedCrossEntropy,
} from '../index.js';
import type { Transformer } from '../index.js';
import { adamWUpdate, clipScale, globalNorm } from '../model/adamW.js';
import { checkLrScale } from '../testing/lrScaleChecks.js';
import { createDelayedSampler, createReferenceSampler } from '../testing/referenceSampler.js';
import { batchOf, figures, take, tiny } from '../testing/testUtils.js';

// Failing steps, bad batches and tensor leaks: trainerErrorsAndMemory.test.ts.

const weightsOf = (model: Transformer) => model.toJSON().weights;

describe('createTrainer', () => {
  beforeAll(async () => {
    await initBackend('wasm', { log: () => {} });
  });

  it('overfits a tiny batch (boltzmann, exact sampler): loss falls by over 80 % in 100 steps', async () => {
    const model = createTransformer({ ...tiny, variant: 'boltzmann' });
    const trainer = createTrainer(model, { totalSteps: 100, lr: 1e-2 });
    const batch = batchOf(4, 7);
    const first = await trainer.step(batch);
    let last = first;
    for (let i = 1; i < 100; i++) last = await trainer.step(batch);
    expect(first.loss).toBeGreaterThan(1.5);
    expect(last.loss).toBeLessThan(0.2 * first.loss);
    expect(last.step).toBe(100);
    trainer.dispose();
    model.dispose();
  });

  it('follows the cosine schedule from lr to minLrFraction × lr', () => {
    const model = createTransformer({ ...tiny, variant: 'softmax' });
    const trainer = createTrainer(model, { totalSteps: 10 });
    expect(trainer.lrAt(0)).toBeCloseTo(3e-3, 15);
    expect(trainer.lrAt(5)).toBeCloseTo(3e-3 * (0.1 + 0.9 * 0.5), 15);
    expect(trainer.lrAt(10)).toBeCloseTo(3e-4, 15);
    expect(trainer.lrAt(50)).toBeCloseTo(3e-4, 15);
    expect(trainer.options).toMatchObject({ weightDecay: 0.01, clipNorm: 1, minLrFraction: 0.1 });
    expect(() => createTrainer(model, { totalSteps: 0 })).toThrow(
      expect.objectContaining({ code: 'ATTENTION_INVALID_ARGUMENT' }),
    );
    trainer.dispose();
    model.dispose();
  });

  it('lrScale scales the schedule and the step, travels in state() and refuses bad values', async () => {
    const model = createTransformer({ ...tiny, variant: 'softmax' });
    await checkLrScale(
      () => createTrainer(model, { totalSteps: 10, warmupSteps: 2 }),
      batchOf(2, 3),
    );
    model.dispose();
  });

  it('warms up linearly (nanoGPT: lr × (i + 1) / (warm-up + 1)) and then decays by the cosine over the remaining steps', () => {
    const model = createTransformer({ ...tiny, variant: 'softmax' });
    const trainer = createTrainer(model, {
      totalSteps: 20,
      warmupSteps: 4,
      lr: 1e-3,
      minLrFraction: 0.1,
    });
    expect(trainer.lrAt(0)).toBeCloseTo(1e-3 / 5, 15);
    expect(trainer.lrAt(3)).toBeCloseTo((1e-3 * 4) / 5, 15);
    expect(trainer.lrAt(4)).toBeCloseTo(1e-3, 15);
    expect(trainer.lrAt(12)).toBeCloseTo(1e-4 + 0.9e-3 * 0.5, 15);
    expect(trainer.lrAt(20)).toBeCloseTo(1e-4, 15);
    expect(trainer.lrAt(99)).toBeCloseTo(1e-4, 15);
    expect(createTrainer(model, { totalSteps: 10 }).options.warmupSteps).toBe(0);
    expect(() => createTrainer(model, { totalSteps: 10, warmupSteps: 10 })).toThrow(
      expect.objectContaining({ code: 'ATTENTION_INVALID_ARGUMENT' }),
    );
    expect(() => createTrainer(model, { totalSteps: 10, warmupSteps: 1.5 })).toThrow(
      expect.objectContaining({ code: 'ATTENTION_INVALID_ARGUMENT' }),
    );
    trainer.dispose();
    model.dispose();
  });

  it('two steps equal the hand-computed clipped AdamW update (decay on kernels and embeddings only)', async () => {
    const model = createTransformer({ ...tiny, variant: 'boltzmann', jInitStd: 0.2 });
    const [lr, wd, clip] = [0.01, 0.5, 0.05];
    const trainer = createTrainer(model, {
      totalSteps: 10,
      lr,
      weightDecay: wd,
      clipNorm: clip,
      beta2: 0.99,
    });
    const moments = new Map(
      model.parameters.map((p) => [
        p.name,
        { m: new Float64Array(p.variable.size), v: new Float64Array(p.variable.size) },
      ]),
    );
    for (const [s, seed] of [2, 3].entries()) {
      const batch = batchOf(3, seed);
      const mask = Float32Array.from(batch.mask!);
      const { value, grads } = tf.variableGrads(
        () => maskedCrossEntropy(model.logits(batch.inputs, 3), batch.targets, mask),
        model.parameters.map((p) => p.variable),
      );
      const before = model.parameters.map((p) => ({
        ...p,
        p0: Float32Array.from(p.variable.dataSync()),
        g: take(grads[p.variable.name]!),
      }));
      const norm = Math.sqrt(
        before.reduce((acc, { g }) => acc + g.reduce((a, x) => a + x * x, 0), 0),
      );
      const scale = Math.min(1, clip / (norm + 1e-6));
      expect(scale).toBeLessThan(1);
      const result = await trainer.step(batch);
      expect(result.loss).toBeCloseTo(take(value)[0]!, 5);
      expect(result.gradNorm).toBeCloseTo(norm, 4);
      const rate = trainer.lrAt(s);
      expect(result.lr).toBe(rate);
      for (const { name, variable, decay, p0, g } of before) {
        expect(decay).toBe(/kernel$|^embedding\//.test(name));
        const after = variable.dataSync();
        const { m, v } = moments.get(name)!;
        for (let i = 0; i < p0.length; i++) {
          const gi = scale * g[i]!;
          m[i] = 0.9 * m[i]! + 0.1 * gi;
          v[i] = 0.99 * v[i]! + 0.01 * gi * gi;
          const step =
            (rate * (m[i]! / (1 - 0.9 ** (s + 1)))) /
            (Math.sqrt(v[i]! / (1 - 0.99 ** (s + 1))) + 1e-8);
          const expected = p0[i]! * (1 - rate * (decay ? wd : 0)) - step;
          expect(Math.abs(after[i]! - expected), `step ${s + 1} ${name}[${i}]`).toBeLessThan(
            2e-7 * (1 + Math.abs(expected)),
          );
        }
      }
    }
    const j = model.couplings()[0]!;
    j.forEach((x, k) => Math.floor(k / 6) >= k % 6 && expect(x).toBe(0));
    trainer.dispose();
    model.dispose();
  });

  it('adamWUpdate matches a float64 hand computation over three steps; clipping follows clip_grad_norm_', () => {
    const p = Float32Array.of(0.5, -1, 2);
    const m = new Float64Array(3);
    const v = new Float64Array(3);
    const gs = [
      [0.1, -0.2, 0.3],
      [-0.4, 0.05, 0.2],
      [0.3, 0.3, -0.1],
    ];
    const hand = { p: [0.5, -1, 2], m: [0, 0, 0], v: [0, 0, 0] };
    const [lr, b1, b2, eps, wd, scale] = [0.05, 0.9, 0.95, 1e-8, 0.1, 0.5];
    gs.forEach((g, s) => {
      adamWUpdate(p, g, m, v, {
        lr,
        beta1: b1,
        beta2: b2,
        epsilon: eps,
        weightDecay: wd,
        step: s + 1,
        gradScale: scale,
      });
      for (let i = 0; i < 3; i++) {
        const gi = scale * g[i]!;
        hand.m[i] = b1 * hand.m[i]! + (1 - b1) * gi;
        hand.v[i] = b2 * hand.v[i]! + (1 - b2) * gi ** 2;
        const mHat = hand.m[i]! / (1 - b1 ** (s + 1));
        const vHat = hand.v[i]! / (1 - b2 ** (s + 1));
        hand.p[i] = hand.p[i]! * (1 - lr * wd) - (lr * mHat) / (Math.sqrt(vHat) + eps);
      }
    });
    Array.from(p).forEach((x, i) => expect(Math.abs(x - hand.p[i]!)).toBeLessThan(3e-7));
    expect(globalNorm([[3, 4], [12]])).toBe(13);
    expect(clipScale(13, 1)).toBe(1 / (13 + 1e-6));
    expect(clipScale(0.5, 1)).toBe(1);
    expect(clipScale(13, 0)).toBe(1);
    expect(clipScale(13, Infinity)).toBe(1);
  });

  it('resumes from a saved model + trainer state exactly as uninterrupted training', async () => {
    const config = { ...tiny, variant: 'boltzmann' as const, jInitStd: 0.1 };
    const model = createTransformer(config);
    const trainer = createTrainer(model, { totalSteps: 8 });
    for (let s = 0; s < 3; s++) await trainer.step(batchOf(2, 10 + s));
    const checkpoint = JSON.parse(
      JSON.stringify({ model: model.toJSON(), trainer: trainer.state() }),
    );
    const uninterrupted = [await trainer.step(batchOf(2, 20)), await trainer.step(batchOf(2, 21))];
    const resumedModel = loadTransformer(checkpoint.model);
    const resumed = createTrainer(resumedModel, { totalSteps: 8 });
    resumed.restore(checkpoint.trainer);
    expect(resumed.stepCount).toBe(3);
    const again = [await resumed.step(batchOf(2, 20)), await resumed.step(batchOf(2, 21))];
    expect(again.map(figures)).toEqual(uninterrupted.map(figures));
    expect(weightsOf(resumedModel)).toEqual(weightsOf(model));
    expect(() => resumed.restore({ ...checkpoint.trainer, moments: {} })).toThrow(
      expect.objectContaining({ code: 'ATTENTION_INVALID_CHECKPOINT' }),
    );
    for (const x of [trainer, resumed, model, resumedModel]) x.dispose();
  });

  it('an asynchronous sampler (promise after a timer) trains identically to the synchronous one', async () => {
    const reference = createReferenceSampler();
    const sync = createTransformer({ ...tiny, sampler: reference, jInitStd: 0.1 });
    const remote = createTransformer({
      ...tiny,
      sampler: createDelayedSampler(reference, 2),
      jInitStd: 0.1,
    });
    const [t1, t2] = [
      createTrainer(sync, { totalSteps: 8 }),
      createTrainer(remote, { totalSteps: 8 }),
    ];
    for (let s = 0; s < 5; s++) {
      const batch = batchOf(2, 30 + s);
      expect(figures(await t2.step(batch))).toEqual(figures(await t1.step(batch)));
    }
    expect(weightsOf(remote)).toEqual(weightsOf(sync));
    expect(() => remote.logits(batchOf(1, 1).inputs, 1)).toThrow(
      expect.objectContaining({ code: 'ATTENTION_ASYNC_SAMPLER' }),
    );
    // Steps called without awaiting run in order, each on the weights the previous one left.
    const batches = [batchOf(2, 50), batchOf(2, 51), batchOf(2, 52)];
    const concurrent = await Promise.all(batches.map((b) => t2.step(b)));
    const sequential = [];
    for (const b of batches) sequential.push(await t1.step(b));
    expect(concurrent.map(figures)).toEqual(sequential.map(figures));
    for (const r of concurrent) expect(r.timings.tapeMs).toBeGreaterThan(0);
    expect(concurrent.map((r) => r.step)).toEqual([6, 7, 8]);
    for (const x of [t1, t2, sync, remote]) x.dispose();
  });
});
