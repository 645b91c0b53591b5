import * as tf from '@tensorflow/tfjs';
import { describe, expect, it, vi } from 'vitest';
import { initBackend } from '../index.js';

// The optional peer dependency is absent: importing it fails as Node fails on a missing package.
vi.mock('@tensorflow/tfjs-backend-wasm', () => {
  throw Object.assign(
    new Error("Cannot find package '@tensorflow/tfjs-backend-wasm' imported from backend.ts"),
    { code: 'ERR_MODULE_NOT_FOUND' },
  );
});

describe('initBackend without the wasm backend package', () => {
  it('falls back to cpu and names the package to install', async () => {
    // Importing this package registers no wasm backend: it is loaded by initBackend.
    expect(tf.findBackendFactory('wasm')).toBeNull();
    const logs: string[] = [];
    expect(await initBackend('wasm', { log: (m) => logs.push(m) })).toBe('cpu');
    expect(tf.getBackend()).toBe('cpu');
    expect(logs).toHaveLength(2);
    expect(logs[0]).toMatch(
      /wasm backend unavailable .*needs the package @tensorflow\/tfjs-backend-wasm: install it.*falling back to cpu/,
    );
    expect(logs[1]).toBe('@boltzmann/attention: TensorFlow.js backend "cpu"');
  });
});
