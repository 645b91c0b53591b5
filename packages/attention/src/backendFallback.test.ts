import * as tf from '@tensorflow/tfjs';
import { describe, expect, it } from 'vitest';
import { initBackend } from './index.js';

describe('initBackend fallback', () => {
  it('falls back to cpu and says so when the wasm backend cannot start', async () => {
    // Each test file runs in its own module graph, so this removal does not affect other files.
    tf.removeBackend('wasm');
    const logs: string[] = [];
    expect(await initBackend('wasm', { log: (m) => logs.push(m) })).toBe('cpu');
    expect(tf.getBackend()).toBe('cpu');
    expect(logs).toHaveLength(2);
    expect(logs[0]).toMatch(/wasm backend unavailable .*falling back to cpu/);
    expect(logs[1]).toBe('@boltzmann/attention: TensorFlow.js backend "cpu"');
  });
});
