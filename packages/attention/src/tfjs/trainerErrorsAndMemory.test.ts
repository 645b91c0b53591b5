import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTrainer, createTransformer, initBackend } from '../index.js';
import { createReferenceSampler } from '../testing/referenceSampler.js';
import { batchOf, tiny } from '../testing/testUtils.js';

describe('createTrainer', () => {
  beforeAll(async () => {
    await initBackend('wasm', { log: () => {} });
  });

  it('a failing sampler or a bad target fails the step with its coded error, leaking no tensor', async () => {
    const reference = createReferenceSampler('broken');
    const offline = {
      ...reference,
      capabilities: { ...reference.capabilities, async: true },
      estimate: () => Promise.reject(new Error('device offline')),
    };
    const model = createTransformer({ ...tiny, sampler: offline });
    const trainer = createTrainer(model, { totalSteps: 2 });
    const before = tf.memory().numTensors;
    await expect(trainer.step(batchOf(2, 1))).rejects.toMatchObject({
      code: 'ISING_SAMPLER_FAILED',
    });
    // A synchronous sampler fails inside the tape (one pass): nothing leaks either.
    for (const [estimate, code] of [
      [
        () => {
          throw new Error('bad kernel');
        },
        'ISING_SAMPLER_FAILED',
      ],
      // Says it is synchronous but answers with a promise.
      [() => Promise.reject(new Error('device offline')), 'ATTENTION_ASYNC_SAMPLER'],
    ] as const) {
      const syncModel = createTransformer({ ...tiny, sampler: { ...reference, estimate } });
      const syncTrainer = createTrainer(syncModel, { totalSteps: 2 });
      const at = tf.memory().numTensors;
      await expect(syncTrainer.step(batchOf(2, 1))).rejects.toMatchObject({ code });
      expect(tf.memory().numTensors).toBe(at);
      syncModel.dispose();
    }
    const bad = batchOf(2, 1);
    await expect(
      trainer.step({ ...bad, targets: Int32Array.from(bad.targets, () => -2) }),
    ).rejects.toMatchObject({ code: 'ATTENTION_INVALID_TOKEN' });
    expect(tf.memory().numTensors).toBe(before);
    expect(trainer.stepCount).toBe(0);
    trainer.dispose();
    model.dispose();
  });

  it('a created and disposed model leaves no tensor behind', () => {
    const before = tf.memory().numTensors;
    createTransformer({ ...tiny, variant: 'boltzmann' }).dispose();
    expect(tf.memory().numTensors).toBe(before);
  });

  it('keeps tf.memory().numTensors constant across steps and evaluations', async () => {
    for (const variant of ['boltzmann', 'softmax'] as const) {
      const model = createTransformer({ ...tiny, variant });
      const trainer = createTrainer(model, { totalSteps: 10 });
      await trainer.step(batchOf(2, 1));
      const baseline = tf.memory().numTensors;
      for (let s = 0; s < 4; s++) await trainer.step(batchOf(2, 2 + s));
      await model.attention(batchOf(2, 1).inputs, 2);
      expect(tf.memory().numTensors).toBe(baseline);
      trainer.dispose();
      model.dispose();
    }
  });

  it('rejects bad batches with coded errors', async () => {
    const model = createTransformer({ ...tiny, variant: 'sigmoid' });
    const trainer = createTrainer(model, { totalSteps: 2 });
    const good = batchOf(2, 1);
    await expect(trainer.step({ ...good, mask: new Float32Array(12) })).rejects.toMatchObject({
      code: 'ATTENTION_EMPTY_MASK',
    });
    await expect(
      trainer.step({ ...good, targets: Int32Array.from(good.targets, () => 6) }),
    ).rejects.toMatchObject({ code: 'ATTENTION_INVALID_TOKEN' });
    await expect(trainer.step({ ...good, batchSize: 5 })).rejects.toMatchObject({
      code: 'ATTENTION_SHAPE_MISMATCH',
    });
    const { batchSize: _omitted, ...noSize } = good;
    await expect(
      trainer.step({ ...noSize, inputs: (good.inputs as Int32Array).slice(0, 10) }),
    ).rejects.toMatchObject({ code: 'ATTENTION_SHAPE_MISMATCH' });
    await expect(
      trainer.step({ ...noSize, targets: (good.targets as Int32Array).slice(0, 10) }),
    ).rejects.toMatchObject({ code: 'ATTENTION_SHAPE_MISMATCH' });
    expect(trainer.stepCount).toBe(0);
    trainer.dispose();
    model.dispose();
  });
});
