import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  causalBatch,
  createSamplerRegistry,
  estimateBatch,
  isIsingError,
} from '@boltzmann/ising-core';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { adapterErrorOf, braketSampler, dwaveSampler } from './index.js';
import type { BraketSampler, DwaveSampler } from './index.js';

describe('README example', () => {
  it('should run the dry-run part as written (files, then ADAPTER_DRY_RUN through estimateBatch)', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'readme-')), 'out', 'dwave-dry');
    const registry = createSamplerRegistry()
      .register(dwaveSampler)
      .register(braketSampler)
      .freeze();
    const batch = causalBatch(new Float64Array(18).fill(0.3), new Float64Array(9).fill(0.1), {
      batch: 2,
      length: 3,
    });
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

  it('the typed registry: require(name) returns that plugin, whose create returns its sampler type (checked by tsc)', () => {
    const registry = createSamplerRegistry().register(dwaveSampler).register(braketSampler);
    expectTypeOf(registry.require('dwave')).toEqualTypeOf<typeof dwaveSampler>();
    expectTypeOf(
      registry.require('dwave').create({ dryRun: { dir: 'x' } }),
    ).toEqualTypeOf<DwaveSampler>();
    expectTypeOf(registry.require('braket').create).returns.toEqualTypeOf<BraketSampler>();
    expectTypeOf(registry.require('dwave').create).returns.toHaveProperty('lastRunInfo');
    // A name the type does not know still resolves at run time, typed as any plugin.
    expect(registry.require('dwave')).toBe(dwaveSampler);
    expectTypeOf(registry.get('not-registered')).toEqualTypeOf<
      import('@boltzmann/ising-core').AnySamplerPlugin | undefined
    >();
  });
});
