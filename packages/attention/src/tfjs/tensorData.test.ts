import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { initBackend } from '../index.js';
import { readOutsideTidy } from './tensorData.js';

describe('readOutsideTidy', () => {
  beforeAll(async () => {
    await initBackend('wasm');
  });

  it('should return the built tensor’s data and leave no tensor behind, intermediates included', () => {
    const x = tf.tensor2d([
      [1, 2],
      [3, 4],
    ]);
    const before = tf.memory().numTensors;
    const data = readOutsideTidy(() => tf.logSoftmax(x.mul(2)));
    expect(tf.memory().numTensors).toBe(before);
    // log softmax of [2, 4] and [6, 8]: −log(1 + e^2) and −log(1 + e^-2) per row.
    const a = -Math.log(1 + Math.exp(2));
    const b = -Math.log(1 + Math.exp(-2));
    expect([...data].map((v) => Number(v.toFixed(5)))).toEqual(
      [a, b, a, b].map((v) => Number(v.toFixed(5))),
    );
    x.dispose();
  });

  it('should dispose the tensor when reading fails', () => {
    const before = tf.memory().numTensors;
    const t = tf.tensor1d([1, 2]);
    const spy = t as unknown as { dataSync: () => never };
    spy.dataSync = () => {
      throw new Error('lost');
    };
    expect(() => readOutsideTidy(() => t)).toThrow('lost');
    expect(tf.memory().numTensors).toBe(before);
  });
});
