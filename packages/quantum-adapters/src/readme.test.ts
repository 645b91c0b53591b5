import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { causalBatch, createSamplerRegistry, estimateBatch, isIsingError } from '@boltzmann/ising-core';
import { describe, expect, it } from 'vitest';
import { adapterErrorOf, braketPlugin, dwavePlugin } from './index.js';

describe('README example', () => {
  it('should run the dry-run part as written (files, then ADAPTER_DRY_RUN through estimateBatch)', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'readme-')), 'out', 'dwave-dry');
    const registry = createSamplerRegistry().register(dwavePlugin).register(braketPlugin).freeze();
    const batch = causalBatch(new Float64Array(18).fill(0.3), new Float64Array(9).fill(0.1), { batch: 2, length: 3 });
    const dry = registry.require('dwave').create({ dryRun: { dir } });
    let caught: unknown;
    try {
      await estimateBatch(dry, batch);
    } catch (e) {
      caught = e;
    }
    expect(isIsingError(caught, 'ISING_SAMPLER_FAILED')).toBe(true);
    expect(adapterErrorOf(caught)?.code).toBe('ADAPTER_DRY_RUN');
    expect(existsSync(join(dir, 'dwave-0001', 'submit-001.json'))).toBe(true);
    expect(adapterErrorOf(new Error('plain'))).toBeUndefined();
  });
});
