import { describe, expect, it } from 'vitest';
import { isDatasetError } from './index.js';

describe('the file loaders outside Node', () => {
  it('say, with a code, that files need Node and what to use instead', async () => {
    const proc = process as { getBuiltinModule?: unknown };
    const real = proc.getBuiltinModule;
    // A fresh copy of the module (nothing cached), in an environment without Node's modules.
    const path = './internal/nodeModules.js?browser';
    const fresh = (await import(/* @vite-ignore */ path)) as typeof import('./internal/nodeModules.js');
    proc.getBuiltinModule = undefined;
    try {
      let error: unknown;
      try {
        fresh.nodeModules();
      } catch (e) {
        error = e;
      }
      expect(isDatasetError(error, 'DATASET_UNSUPPORTED')).toBe(true);
      expect(String(error)).toContain('createCharCorpus(text)');
    } finally {
      proc.getBuiltinModule = real;
    }
    expect(Object.keys(fresh.nodeModules()).sort()).toEqual(['crypto', 'fs', 'os', 'path']);
  });
});
