import { describe, expect, it } from 'vitest';
import { createIsingBatch } from '../index.js';
import { bruteForceEstimate, bruteForceMoments } from './index.js';

describe('bruteForceMoments', () => {
  it('should give tanh(βh) and a product partition function for independent spins', () => {
    const h = Float64Array.of(0.7, -1.2, 0.05);
    const { magnetization, correlation, logPartition, probabilities } = bruteForceMoments(
      h,
      new Float64Array(9),
      3,
      1.5,
    );
    h.forEach((v, j) => expect(magnetization[j]).toBeCloseTo(Math.tanh(1.5 * v), 14));
    expect(correlation[0 * 3 + 1]).toBeCloseTo(Math.tanh(1.05) * Math.tanh(-1.8), 14);
    expect(correlation[2 * 3 + 2]).toBeCloseTo(1, 14);
    expect(logPartition).toBeCloseTo(
      h.reduce((s, v) => s + Math.log(2 * Math.cosh(1.5 * v)), 0),
      13,
    );
    expect(probabilities.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 14);
  });

  it('should match the closed form of two coupled spins and read only the strict upper triangle of the leading block', () => {
    const [h0, h1, j01, beta] = [0.3, -0.4, 0.9, 0.8];
    // Side-3 matrix with noise below the diagonal and in the unused third row/column.
    const couplings = Float64Array.of(5, j01, 7, -3, 5, 7, 7, 7, 7);
    const { magnetization, correlation, logPartition } = bruteForceMoments(
      Float64Array.of(h0, h1, 99),
      couplings,
      2,
      beta,
    );
    const w = (s0: number, s1: number): number =>
      Math.exp(beta * (h0 * s0 + h1 * s1 + j01 * s0 * s1));
    const z = w(1, 1) + w(1, -1) + w(-1, 1) + w(-1, -1);
    expect(magnetization[0]).toBeCloseTo((w(1, 1) + w(1, -1) - w(-1, 1) - w(-1, -1)) / z, 14);
    expect(magnetization[1]).toBeCloseTo((w(1, 1) - w(1, -1) + w(-1, 1) - w(-1, -1)) / z, 14);
    expect(correlation[1]).toBeCloseTo((w(1, 1) - w(1, -1) - w(-1, 1) + w(-1, -1)) / z, 14);
    expect(logPartition).toBeCloseTo(Math.log(z), 14);
  });

  it('should stay finite for huge fields and refuse bad arguments', () => {
    const { magnetization, logPartition } = bruteForceMoments(
      Float64Array.of(800, -900),
      new Float64Array(4),
      2,
      1,
    );
    expect(Array.from(magnetization)).toEqual([1, -1]);
    expect(logPartition).toBeCloseTo(1700, 10);
    expect(() =>
      bruteForceMoments(new Float64Array(17), new Float64Array(17 * 17), 17, 1),
    ).toThrowError(expect.objectContaining({ code: 'ISING_TOO_MANY_SPINS' }));
    expect(() => bruteForceMoments(new Float64Array(2), new Float64Array(3), 2, 1)).toThrowError(
      expect.objectContaining({ code: 'ISING_SHAPE_MISMATCH' }),
    );
    expect(() => bruteForceMoments(new Float64Array(2), new Float64Array(4), 0, 1)).toThrowError(
      expect.objectContaining({ code: 'ISING_INVALID_ARGUMENT' }),
    );
  });
});

describe('bruteForceEstimate', () => {
  it('should give the finite-difference gradient of Σ g·m', () => {
    const base = {
      fields: Float64Array.of(0.2, -0.5, 0.9, 0.1, 0.4, -0.3),
      couplings: Float64Array.of(0, 0.6, -0.4, 0, 0, 0.3, 0, 0, 0),
      spins: [3, 2],
      stride: 3,
      beta: 1.2,
    };
    const g = Float64Array.of(1, -2, 0.5, 0.7, 0.3, 0);
    const loss = (fields: Float64Array, couplings: Float64Array): number =>
      bruteForceEstimate(createIsingBatch({ ...base, fields, couplings })).magnetization.reduce(
        (s, v, i) => s + v * g[i]!,
        0,
      );
    const { fields: dh, couplings: dJ } = bruteForceEstimate(createIsingBatch(base)).vjp(g);
    const eps = 1e-6;
    for (const i of [0, 1, 2, 3, 4]) {
      const p = Float64Array.from(base.fields);
      const m = Float64Array.from(base.fields);
      p[i]! += eps;
      m[i]! -= eps;
      expect(dh[i]).toBeCloseTo((loss(p, base.couplings) - loss(m, base.couplings)) / (2 * eps), 8);
    }
    for (const i of [1, 2, 5]) {
      const p = Float64Array.from(base.couplings);
      const m = Float64Array.from(base.couplings);
      p[i]! += eps;
      m[i]! -= eps;
      expect(dJ[i]).toBeCloseTo((loss(base.fields, p) - loss(base.fields, m)) / (2 * eps), 8);
    }
    expect(dh[5]).toBe(0);
  });
});
