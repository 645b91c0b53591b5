import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  FIXED_POINT_LIMITS,
  GIBBS_LIMITS,
  MAX_EXACT_SAMPLES,
  createIsingBatch,
  gibbsSampler,
  meanFieldSampler,
  tapSampler,
} from './index.js';
import type { GibbsOptions } from './index.js';
import { thrownBy } from './testing/index.js';

const gibbsError = (options: GibbsOptions) => thrownBy(() => gibbsSampler.create(options));

describe('built-in sampler options have documented maxima, checked before any work', () => {
  it('gibbs refuses counts above their maxima at create, naming the maximum', () => {
    const cases: [GibbsOptions, RegExp][] = [
      [{ chains: 1e9 }, /chains must be an integer in \[1, 65,536\].*got 1000000000/],
      [{ samples: 1e7 }, /samples must be an integer in \[1, 1,000,000\]/],
      [{ burnIn: 1e9 }, /burnIn must be an integer in \[0, 1,000,000\]/],
      [{ thin: 1e6 }, /thin must be an integer in \[1, 1,000\]/],
      // Each within its own maximum, but too many kept states or sweeps per problem.
      [{ chains: 65_536, samples: 1_000 }, /chains · samples = 65,536,000 .* 16,777,216/],
      [
        { chains: 1_000, burnIn: 1_000_000 },
        /chains · \(burnIn \+ samples · thin\) = 1,002,000,000 .* 67,108,864/,
      ],
    ];
    for (const [options, message] of cases) {
      const error = gibbsError(options);
      expect(error.code, JSON.stringify(options)).toBe('ISING_INVALID_ARGUMENT');
      expect(error.message).toMatch(message);
    }
    // At the limits, and with the defaults, create succeeds.
    expect(gibbsError({ chains: 65_536, samples: 256, burnIn: 0, thin: 1 }).message).toBe(
      'no error',
    );
    expect(gibbsError({}).message).toBe('no error');
  });

  it('gibbs refuses, before allocating, to keep more than 1 GiB of states for a wide problem', () => {
    const n = 1024;
    const batch = createIsingBatch({
      fields: new Float64Array(n),
      couplings: new Float64Array(n * n),
      spins: [n],
      stride: n,
    });
    const sampler = gibbsSampler.create({ chains: 65_536, samples: 256, burnIn: 0, thin: 1 });
    const error = thrownBy(() => sampler.sample!(batch));
    expect(error.code, error.message).toBe('ISING_INVALID_ARGUMENT');
    expect(error.message).toMatch(/1,024 spins.* 17,179,869,184 bytes.* 1,073,741,824/);
  });

  it('mean-field and tap refuse maxIterations above the maximum', () => {
    for (const plugin of [meanFieldSampler, tapSampler]) {
      const error = thrownBy(() => plugin.create({ maxIterations: 1e9 }));
      expect(error.code).toBe('ISING_INVALID_ARGUMENT');
      expect(error.message).toMatch(/maxIterations must be an integer in \[1, 100,000\]/);
      expect(thrownBy(() => plugin.create({ maxIterations: 100_000 })).message).toBe('no error');
    }
  });

  it('the README states every maximum', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const values = [
      ...Object.values(GIBBS_LIMITS),
      ...Object.values(FIXED_POINT_LIMITS),
      MAX_EXACT_SAMPLES,
    ];
    for (const value of values) expect(readme).toContain(value.toLocaleString('en-US'));
  });
});
