// The approximate samplers at huge fields, couplings and β: mean-field, tap and gibbs refuse with
// the same coded range check as exact and transfer-matrix, instead of answering with finite values
// that are wrong (mean-field and gibbs answered h = 1e308 with ordinary-looking magnetizations).
import { describe, expect, it } from 'vitest';
import {
  createIsingBatch,
  estimateBatch,
  exactSampler,
  gibbsSampler,
  meanFieldEstimate,
  meanFieldSampler,
  tapEstimate,
  tapSampler,
} from './index.js';
import type { IsingBatch } from './index.js';
import { thrownBy } from './testing/thrownErrors.js';

/** Two causal problems of 2 spins, `J_01 = j`, at inverse temperature `beta`. */
function batchOf(h0: number, j: number, beta: number): IsingBatch {
  return createIsingBatch({
    fields: Float64Array.of(h0, 0.5, -0.25, 0.1),
    couplings: Float64Array.of(0, j, j, 0),
    spins: [2, 2],
    stride: 2,
    beta,
  });
}

const CASES = {
  'h = 1e308': batchOf(1e308, 0.25, 1),
  'J = 1e308': batchOf(1, 1e308, 1),
  'beta = 1e308': batchOf(1, 0.25, 1e308),
};

const RUNS: Record<string, (b: IsingBatch) => unknown> = {
  exact: (b) => estimateBatch(exactSampler.create(), b),
  meanFieldEstimate: (b) => meanFieldEstimate(b),
  'mean-field': (b) => estimateBatch(meanFieldSampler.create(), b),
  'mean-field on 2 threads': (b) => estimateBatch(meanFieldSampler.create({ threads: 2 }), b),
  tapEstimate: (b) => tapEstimate(b),
  tap: (b) => estimateBatch(tapSampler.create(), b),
  gibbs: (b) => estimateBatch(gibbsSampler.create({ seed: 1, samples: 50 }), b),
};

describe('approximate samplers at β, h or J ≈ 1e308', () => {
  it('refuse with the range check of the exact samplers (ISING_NOT_FINITE, 2^1021), never a wrong finite answer', () => {
    for (const [name, batch] of Object.entries(CASES)) {
      for (const [sampler, run] of Object.entries(RUNS)) {
        const thrown = thrownBy(() => run(batch));
        expect({ name, sampler, code: thrown.code }).toEqual({
          name,
          sampler,
          code: 'ISING_NOT_FINITE',
        });
        expect(thrown.message, `${name}, ${sampler}`).toMatch(/2\^1021/);
      }
    }
  });

  it('still answer at 1e300 fields, inside the range', () => {
    const batch = batchOf(1e300, 0.25, 1);
    for (const sampler of [meanFieldSampler, tapSampler]) {
      const { magnetization } = estimateBatch(sampler.create(), batch) as {
        magnetization: Float64Array;
      };
      expect(magnetization[0]).toBe(1);
    }
  });
});
