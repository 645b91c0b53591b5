import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  combineEvaluations,
  createTransformer,
  evaluate,
  initBackend,
  maskedCrossEntropy,
  perplexity,
} from '../index.js';
import { createDelayedSampler, createReferenceSampler } from '../testing/referenceSampler.js';
import { randomTokens, take } from '../testing/testUtils.js';

describe('evaluate', () => {
  beforeAll(async () => {
    await initBackend('wasm', { log: () => {} });
  });

  it('reports the masked mean cross-entropy and argmax accuracy, chunked or not, with an async sampler', async () => {
    const model = createTransformer({
      vocabSize: 5,
      outputSize: 4,
      maxLength: 4,
      dModel: 8,
      seed: 2,
      sampler: createDelayedSampler(createReferenceSampler()),
    });
    const inputs = randomTokens(5 * 4, 5, 1);
    const targets = Int32Array.from(randomTokens(5 * 4, 4, 2), (t, i) => (i % 4 === 1 ? -1 : t));
    const mask = Float32Array.from({ length: 20 }, (_, i) => (i % 4 === 1 ? 0 : 1 + (i % 2)));
    const whole = await evaluate(model, { inputs, targets, mask, batchSize: 5 });
    const chunked = await evaluate(
      model,
      { inputs, targets, mask, batchSize: 5 },
      { chunkSize: 2 },
    );
    expect(chunked.count).toBe(whole.count);
    expect(chunked.correct).toBe(whole.correct);
    expect(chunked.loss).toBeCloseTo(whole.loss, 6);

    const logits = take(await model.forward(inputs, 5));
    let correct = 0;
    let count = 0;
    for (let r = 0; r < 20; r++) {
      if (mask[r] === 0) continue;
      const row = Array.from(logits.subarray(r * 4, r * 4 + 4));
      count++;
      if (row.indexOf(Math.max(...row)) === targets[r]) correct++;
    }
    expect(whole.count).toBe(count);
    expect(whole.correct).toBe(correct);
    expect(whole.weight).toBe(mask.reduce((a, b) => a + b, 0));
    const prepared = await model.prepare(inputs, 5);
    const reference = take(
      tf.tidy(() => maskedCrossEntropy(model.logits(inputs, 5, prepared), targets, mask)),
    )[0]!;
    expect(whole.loss).toBeCloseTo(reference, 5);
    expect(perplexity(whole.loss)).toBeCloseTo(Math.exp(reference), 4);

    const halves = await Promise.all([
      evaluate(model, {
        inputs: inputs.subarray(0, 8),
        targets: targets.subarray(0, 8),
        mask: mask.subarray(0, 8),
        batchSize: 2,
      }),
      evaluate(model, {
        inputs: inputs.subarray(8),
        targets: targets.subarray(8),
        mask: mask.subarray(8),
        batchSize: 3,
      }),
    ]);
    const combined = combineEvaluations(halves);
    expect(combined.loss).toBeCloseTo(whole.loss, 6);
    expect(combined.correct).toBe(whole.correct);
    expect(() => combineEvaluations([])).toThrow(
      expect.objectContaining({ code: 'ATTENTION_EMPTY_MASK' }),
    );
    await expect(
      evaluate(model, { inputs, targets, mask, batchSize: 5 }, { chunkSize: 0 }),
    ).rejects.toMatchObject({
      code: 'ATTENTION_INVALID_ARGUMENT',
    });
    model.dispose();
  });
});
