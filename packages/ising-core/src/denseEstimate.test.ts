import { describe, expect, it } from 'vitest';
import { createIsingBatch, createRng, estimateFromDense } from './index.js';
import { codeOf } from './testing/thrownErrors.js';

const spin = (s: number, j: number) => ((s >> j) & 1 ? 1 : -1);

describe('estimateFromDense', () => {
  it('gives the moments and covariance VJP of an arbitrary (non-Boltzmann) distribution', () => {
    const rng = createRng(17);
    const stride = 5;
    const spins = [3, 5, 1, 5];
    const batch = createIsingBatch({
      fields: Float64Array.from({ length: 4 * stride }, () => rng.normal()),
      couplings: Float64Array.from({ length: stride * stride }, () => rng.normal()),
      spins,
      stride,
      beta: 0.7,
    });
    // Unnormalized random weights, one state with zero mass.
    const dists = spins.map((n) =>
      Float64Array.from({ length: 2 ** n }, (_, s) => (s === 1 ? 0 : 3 * rng.next())),
    );
    const grad = Float64Array.from({ length: 4 * stride }, () => rng.normal());
    const est = estimateFromDense(batch, dists);
    const g = est.vjp(grad);
    const dJ = new Float64Array(stride * stride);
    spins.forEach((n, q) => {
      const total = dists[q]!.reduce((a, v) => a + v, 0);
      const p = Array.from(dists[q]!, (v) => v / total);
      const G = p.map((_, s) =>
        Array.from({ length: n }, (_, j) => grad[q * stride + j]! * spin(s, j)).reduce(
          (a, b) => a + b,
          0,
        ),
      );
      const EG = p.reduce((a, ps, s) => a + ps * G[s]!, 0);
      for (let k = 0; k < stride; k++) {
        if (k >= n) {
          expect(est.magnetization[q * stride + k]).toBe(0);
          expect(g.fields[q * stride + k]).toBe(0);
          continue;
        }
        expect(est.magnetization[q * stride + k]).toBeCloseTo(
          p.reduce((a, ps, s) => a + ps * spin(s, k), 0),
          14,
        );
        expect(g.fields[q * stride + k]).toBeCloseTo(
          0.7 * p.reduce((a, ps, s) => a + ps * (G[s]! - EG) * spin(s, k), 0),
          13,
        );
        for (let l = k + 1; l < n; l++)
          dJ[k * stride + l]! +=
            0.7 * p.reduce((a, ps, s) => a + ps * (G[s]! - EG) * spin(s, k) * spin(s, l), 0);
      }
    });
    for (let i = 0; i < dJ.length; i++) expect(g.couplings[i]).toBeCloseTo(dJ[i]!, 13);
    // Inputs are not modified.
    expect(dists[0]![1]).toBe(0);
  });

  it('rejects malformed distributions with coded errors', () => {
    const batch = createIsingBatch({
      fields: new Float64Array(4),
      couplings: new Float64Array(4),
      spins: [2, 1],
      stride: 2,
    });
    const code = (d: unknown) => codeOf(() => estimateFromDense(batch, d as Float64Array[]));
    expect(code([Float64Array.of(1, 1, 1, 1), Float64Array.of(1, 1)])).toBe('no error');
    expect(code([Float64Array.of(1, 1, 1, 1)])).toBe('ISING_SHAPE_MISMATCH');
    expect(code([Float64Array.of(1, 1, 1), Float64Array.of(1, 1)])).toBe('ISING_SHAPE_MISMATCH');
    expect(code([[1, 1, 1, 1], Float64Array.of(1, 1)])).toBe('ISING_SHAPE_MISMATCH');
    expect(code([Float64Array.of(1, Number.NaN, 1, 1), Float64Array.of(1, 1)])).toBe(
      'ISING_NOT_FINITE',
    );
    expect(code([Float64Array.of(1, -0.5, 1, 1), Float64Array.of(1, 1)])).toBe(
      'ISING_INVALID_ARGUMENT',
    );
    expect(code([Float64Array.of(0, 0, 0, 0), Float64Array.of(1, 1)])).toBe(
      'ISING_INVALID_ARGUMENT',
    );
    expect(code(null)).toBe('ISING_SHAPE_MISMATCH');
    const est = estimateFromDense(batch, [Float64Array.of(1, 2, 3, 4), Float64Array.of(1, 3)]);
    expect(est.magnetization[2]).toBeCloseTo(0.5, 15);
    expect(() => est.vjp(new Float64Array(3))).toThrow(
      expect.objectContaining({ code: 'ISING_SHAPE_MISMATCH' }),
    );
  });
});

describe('estimateFromDense near the float64 limit', () => {
  it('normalizes weights of 1.7e308 without overflowing: m = 0, not −1', () => {
    const batch = createIsingBatch({
      fields: Float64Array.of(0),
      couplings: Float64Array.of(0),
      spins: [1],
      stride: 1,
    });
    const est = estimateFromDense(batch, [Float64Array.of(1.7e308, 1.7e308)]);
    expect(Array.from(est.magnetization)).toEqual([0]);
    const skewed = estimateFromDense(batch, [Float64Array.of(1.7e308, 1.7e308 / 3)]);
    expect(skewed.magnetization[0]).toBeCloseTo(-0.5, 14);
    expect(Number.isFinite(skewed.vjp(Float64Array.of(1)).fields[0])).toBe(true);
  });
});
