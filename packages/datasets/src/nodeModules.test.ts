import { thrownBy, withoutNodeBuiltins } from '@boltzmann/ising-core/testing';
import { describe, expect, it } from 'vitest';

describe('the file loaders outside Node', () => {
  it('say, with a code, that files need Node and what to use instead', async () => {
    // A fresh copy of the module (nothing cached), in an environment without Node's modules.
    const path = './internal/nodeModules.js?browser';
    const fresh = (await import(
      /* @vite-ignore */ path
    )) as typeof import('./internal/nodeModules.js');
    const error = await withoutNodeBuiltins(() => thrownBy(() => fresh.nodeModules()));
    expect(error.code).toBe('DATASET_UNSUPPORTED');
    expect(error.message).toContain('createCharCorpus(text)');
    expect(Object.keys(fresh.nodeModules()).sort()).toEqual(['crypto', 'fs', 'os', 'path']);
  });
});
