import { causalBatch, createRng, exactSampler, estimateBatch } from '@boltzmann/ising-core';
import type { BatchEstimate } from '@boltzmann/ising-core';
import { describe, expect, it } from 'vitest';
import { bandedBatch, discardedMass } from './banding.js';
import { attentionRow, compareEstimates, cosine, klDivergence } from './compareEstimates.js';

const rng = createRng(3);
const T = 5;
const batch = causalBatch(
  Float64Array.from({ length: 2 * T * T }, () => rng.normal()),
  Float64Array.from({ length: T * T }, () => rng.normal() * 0.3),
  { batch: 2, length: T },
);
const exact = estimateBatch(exactSampler.create(), batch) as BatchEstimate;
const grad = Float64Array.from({ length: batch.size * T }, () => rng.normal());

describe("the approximation study's metrics", () => {
  it('are zero error and cosine 1 for the exact answer against itself', () => {
    expect(compareEstimates(batch, exact, exact, grad)).toEqual({
      maxAbsDm: 0,
      meanAbsDm: 0,
      meanKl: 0,
      cosGradH: 1,
      cosGradJ: 1,
    });
  });

  it('match hand-computed values', () => {
    // α ∝ m + 1: m = (0, 1) gives (1/3, 2/3).
    const one = { ...batch, size: 1, stride: 2, spins: Int32Array.of(2) };
    expect(Array.from(attentionRow(Float64Array.of(0, 1), one, 0))).toEqual([1 / 3, 2 / 3]);
    expect(klDivergence(Float64Array.of(0.5, 0.5), Float64Array.of(0.25, 0.75))).toBeCloseTo(
      0.5 * Math.log(2) + 0.5 * Math.log(2 / 3),
      14,
    );
    expect(cosine(Float64Array.of(1, 0, 5), Float64Array.of(0, 1, 5), (i) => i < 2)).toBe(0);
    expect(cosine(Float64Array.of(1, 2), Float64Array.of(-2, -4), () => true)).toBeCloseTo(-1, 14);
    // A uniform shift of every magnetization by 0.1 in one problem.
    const shifted = {
      magnetization: exact.magnetization.map((v, i) => (i < T && i % T === 0 ? v + 0.1 : v)),
      vjp: exact.vjp,
    };
    const e = compareEstimates(batch, exact, shifted, grad);
    expect(e.maxAbsDm).toBeCloseTo(0.1, 12);
    expect(e.meanAbsDm).toBeCloseTo(0.1 / 30, 12);
  });

  it('banding zeroes exactly the couplings beyond w and reports their share of the mass', () => {
    const banded = bandedBatch(batch, 2);
    let out = 0;
    let all = 0;
    for (let j = 0; j < T; j++) {
      for (let k = j + 1; k < T; k++) {
        const v = batch.couplings[j * T + k]!;
        expect(banded.couplings[j * T + k]).toBe(k - j > 2 ? 0 : v);
        all += Math.abs(v);
        if (k - j > 2) out += Math.abs(v);
      }
    }
    expect(discardedMass(batch, 2)).toBeCloseTo(out / all, 14);
    expect(discardedMass(batch, T - 1)).toBe(0);
  });
});
