import { describe, expect, it } from 'vitest';
import {
  causalBatch,
  createRng,
  createSamplerRegistry,
  estimateExact,
  exactSampler,
  isIsingError,
} from './index.js';

describe('exactSampler', () => {
  it('is a valid plugin with exact, synchronous, deterministic capabilities', () => {
    const registry = createSamplerRegistry().register(exactSampler);
    expect(registry.require('exact')).toBe(exactSampler);
    expect(exactSampler.capabilities).toEqual({
      exact: true,
      maxSpins: 24,
      async: false,
      deterministic: true,
    });
    expect(exactSampler.create({ maxSpins: 12 }).capabilities.maxSpins).toBe(12);
  });

  it('estimates with estimateExact', () => {
    const rng = createRng(2);
    const fields = Float64Array.from({ length: 2 * 36 }, () => rng.normal());
    const couplings = Float64Array.from({ length: 36 }, () => rng.normal());
    const batch = causalBatch(fields, couplings, { batch: 2, length: 6 });
    const sampler = exactSampler.create();
    const est = sampler.estimate!(batch);
    if (est instanceof Promise) throw new Error('the exact sampler must answer synchronously');
    const ref = estimateExact(batch);
    expect(Array.from(est.magnetization)).toEqual(Array.from(ref.magnetization));
    const g = Float64Array.from({ length: fields.length }, () => rng.normal());
    expect(Array.from(est.vjp(g).couplings)).toEqual(Array.from(ref.vjp(g).couplings));
  });

  it('refuses problems above its limit, naming approximate samplers, and bad options', () => {
    const sampler = exactSampler.create({ maxSpins: 4 });
    const batch = causalBatch(new Float64Array(25), new Float64Array(25), { batch: 1, length: 5 });
    try {
      sampler.estimate!(batch);
      throw new Error('expected ISING_TOO_MANY_SPINS');
    } catch (e) {
      expect(isIsingError(e, 'ISING_TOO_MANY_SPINS')).toBe(true);
      expect(String(e)).toMatch(/5 spins.*limit 4.*'mean-field', 'gibbs' or 'dqa'/);
    }
    expect(() => exactSampler.create({ maxSpins: 0 })).toThrow(
      expect.objectContaining({ code: 'ISING_INVALID_ARGUMENT' }),
    );
    expect(() => exactSampler.create({ maxSpins: 31 })).toThrow(
      expect.objectContaining({ code: 'ISING_INVALID_ARGUMENT' }),
    );
  });
});
