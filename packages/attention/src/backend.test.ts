import * as tf from '@tensorflow/tfjs';
import { describe, expect, it } from 'vitest';
import { createTransformer, initBackend } from './index.js';
import { maxAbsDiff, randomTokens, take } from './internal/testUtils.js';

describe('initBackend', () => {
  it('selects wasm, is idempotent, switches to cpu on request, and both backends compute the same model', async () => {
    const logs: string[] = [];
    const log = (m: string) => logs.push(m);
    const first = initBackend('wasm', { log });
    expect(initBackend('wasm', { log })).toBe(first);
    expect(await first).toBe('wasm');
    expect(tf.getBackend()).toBe('wasm');
    expect(logs).toEqual(['@boltzmann/attention: TensorFlow.js backend "wasm"']);

    const model = createTransformer({
      vocabSize: 5,
      maxLength: 6,
      dModel: 8,
      variant: 'boltzmann',
      jInitStd: 0.3,
    });
    const inputs = randomTokens(12, 5, 3);
    const onWasm = take(await model.forward(inputs, 2));
    expect(await initBackend('cpu', { log })).toBe('cpu');
    expect(tf.getBackend()).toBe('cpu');
    const onCpu = take(await model.forward(inputs, 2));
    expect(maxAbsDiff(onWasm, onCpu)).toBeLessThan(1e-5);
    model.dispose();
    await expect(initBackend('webgl' as never)).rejects.toMatchObject({
      code: 'ATTENTION_INVALID_ARGUMENT',
    });
  });
});
