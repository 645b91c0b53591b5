import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  boltzmannDistribution,
  correlations,
  createRng,
  energies,
  logPartition,
  magnetizations,
  sampleExact,
} from './index.js';
import { codeOf } from './testing/thrownErrors.js';

/** Plain O(n² 2^n) enumeration, normalized in the log domain. */
function reference(h: ArrayLike<number>, J: ArrayLike<number>, n: number, beta: number) {
  const side = Math.round(Math.sqrt(J.length));
  const spin = (s: number, j: number) => ((s >> j) & 1 ? 1 : -1);
  const logW: number[] = [];
  const energy: number[] = [];
  for (let s = 0; s < 2 ** n; s++) {
    let e = 0;
    for (let j = 0; j < n; j++) {
      e -= h[j]! * spin(s, j);
      for (let k = j + 1; k < n; k++) e -= J[j * side + k]! * spin(s, j) * spin(s, k);
    }
    energy.push(e);
    logW.push(-beta * e);
  }
  const top = Math.max(...logW);
  const logZ = top + Math.log(logW.reduce((a, w) => a + Math.exp(w - top), 0));
  const p = logW.map((w) => Math.exp(w - logZ));
  const m = Array.from({ length: n }, (_, j) => p.reduce((a, ps, s) => a + ps * spin(s, j), 0));
  const corr = Array.from({ length: n * n }, (_, i) =>
    p.reduce((a, ps, s) => a + ps * spin(s, Math.floor(i / n)) * spin(s, i % n), 0),
  );
  return { logZ, p, m, corr, energy };
}

const close = (actual: ArrayLike<number>, expected: ArrayLike<number>, rel: number, abs = rel) => {
  expect(actual.length).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) {
    const tol = abs + rel * Math.abs(expected[i]!);
    if (!(Math.abs(actual[i]! - expected[i]!) <= tol)) {
      throw new Error(`entry ${i}: ${actual[i]} vs ${expected[i]} (tolerance ${tol})`);
    }
  }
};

/** A random model: n spins, fields and couplings up to `scale` in magnitude, β in [0.2, 2]. */
const model = (maxN: number, scale: number) =>
  fc.integer({ min: 1, max: maxN }).chain((n) =>
    fc.record({
      n: fc.constant(n),
      h: fc.array(fc.double({ min: -scale, max: scale, noNaN: true }), {
        minLength: n,
        maxLength: n,
      }),
      J: fc.array(fc.double({ min: -scale, max: scale, noNaN: true }), {
        minLength: n * n,
        maxLength: n * n,
      }),
      beta: fc.double({ min: 0.2, max: 2, noNaN: true }),
    }),
  );

describe('single-model exact functions', () => {
  it('match brute-force enumeration on random models (|h|, |J| ≤ 10, n ≤ 10)', () => {
    fc.assert(
      fc.property(model(10, 10), ({ n, h, J, beta }) => {
        const fields = Float64Array.from(h);
        const couplings = Float64Array.from(J);
        const ref = reference(fields, couplings, n, beta);
        expect(Math.abs(logPartition(fields, couplings, { beta }) - ref.logZ)).toBeLessThanOrEqual(
          1e-10 * Math.max(1, Math.abs(ref.logZ)),
        );
        close(magnetizations(fields, couplings, { beta }), ref.m, 1e-10);
        close(correlations(fields, couplings, { beta }), ref.corr, 1e-10);
        close(boltzmannDistribution(fields, couplings, { beta }), ref.p, 1e-9, 1e-13);
        close(energies(fields, couplings), ref.energy, 1e-12);
      }),
      { numRuns: 60 },
    );
  });

  it('stay finite and correct for huge fields (|h| = 1e3) and large couplings (|J| ~ 50)', () => {
    const rng = createRng(3);
    for (const [hs, js] of [
      [1e3, 0.5],
      [1, 50],
      [1e3, 50],
    ] as const) {
      const n = 9;
      const fields = Float64Array.from(
        { length: n },
        () => (rng.next() < 0.5 ? -hs : hs) * (0.5 + rng.next()),
      );
      const couplings = Float64Array.from({ length: n * n }, () => js * (2 * rng.next() - 1));
      const ref = reference(fields, couplings, n, 1);
      const logZ = logPartition(fields, couplings);
      expect(Number.isFinite(logZ)).toBe(true);
      expect(Math.abs(logZ - ref.logZ)).toBeLessThanOrEqual(1e-12 * Math.abs(ref.logZ));
      close(magnetizations(fields, couplings), ref.m, 1e-10);
      close(correlations(fields, couplings), ref.corr, 1e-10);
    }
  });

  it('uses the top-left block of a larger coupling matrix when spins < side', () => {
    const J = Float64Array.from({ length: 16 }, (_, i) => 0.1 * (i - 7));
    const small = Float64Array.of(0, J[1]!, J[2]!, 0, 0, J[6]!, 0, 0, 0);
    const h = Float64Array.of(0.3, -0.2, 0.5);
    expect(logPartition(h, J, { spins: 3 })).toBeCloseTo(logPartition(h, small), 14);
    close(energies(h, J, 3), energies(h, small), 1e-15);
  });

  it('knows the closed forms of small models', () => {
    expect(logPartition(Float64Array.of(0.5), Float64Array.of(0))).toBeCloseTo(
      Math.log(2 * Math.cosh(0.5)),
      15,
    );
    close(
      magnetizations(Float64Array.of(0.5, 0), Float64Array.of(0, 1, 0, 0)),
      [Math.tanh(0.5), Math.tanh(0.5) * Math.tanh(1)],
      1e-15,
    );
    expect(correlations(Float64Array.of(0, 0), Float64Array.of(0, 1, 0, 0))[1]).toBeCloseTo(
      Math.tanh(1),
      15,
    );
    close(
      energies(Float64Array.of(1, 0), Float64Array.of(0, 0.5, 0, 0)),
      [0.5, -0.5, 1.5, -1.5],
      0,
    );
  });

  it('sampleExact draws from the Boltzmann distribution (seeded, 4-sigma frequencies)', () => {
    const h = Float64Array.of(0.4, -0.3, 0.2);
    const J = Float64Array.of(0, 0.5, -0.4, 0, 0, 0.3, 0, 0, 0);
    const count = 20000;
    const set = sampleExact(h, J, count, createRng(11));
    expect(set.spins).toBe(3);
    expect(set.states.length).toBe(count * 3);
    expect(set.weights.every((w) => w === 1)).toBe(true);
    const p = boltzmannDistribution(h, J);
    const freq = new Float64Array(8);
    for (let i = 0; i < count; i++) {
      let s = 0;
      for (let j = 0; j < 3; j++) if (set.states[i * 3 + j] === 1) s |= 1 << j;
      freq[s]! += 1 / count;
    }
    for (let s = 0; s < 8; s++)
      expect(Math.abs(freq[s]! - p[s]!)).toBeLessThan(
        4 * Math.sqrt((p[s]! * (1 - p[s]!)) / count) + 1e-12,
      );
    expect(sampleExact(h, J, 5, createRng(2)).states).toEqual(
      sampleExact(h, J, 5, createRng(2)).states,
    );
  });

  it('rejects bad input with coded errors', () => {
    expect(codeOf(() => logPartition(Float64Array.of(Number.NaN, 0), new Float64Array(4)))).toBe(
      'ISING_NOT_FINITE',
    );
    expect(
      codeOf(() => magnetizations(Float64Array.of(0, 0), Float64Array.of(0, Infinity, 0, 0))),
    ).toBe('ISING_NOT_FINITE');
    expect(codeOf(() => logPartition(new Float64Array(3), new Float64Array(5)))).toBe(
      'ISING_SHAPE_MISMATCH',
    );
    expect(codeOf(() => logPartition(new Float64Array(3), new Float64Array(4)))).toBe(
      'ISING_SHAPE_MISMATCH',
    );
    expect(codeOf(() => logPartition(new Float64Array(25), new Float64Array(625)))).toBe(
      'ISING_TOO_MANY_SPINS',
    );
    expect(codeOf(() => energies(new Float64Array(6), new Float64Array(36), 6.5))).toBe(
      'ISING_INVALID_ARGUMENT',
    );
    expect(codeOf(() => logPartition(new Float64Array(2), new Float64Array(4), { beta: -1 }))).toBe(
      'ISING_INVALID_ARGUMENT',
    );
    expect(
      codeOf(() => magnetizations(new Float64Array(6), new Float64Array(36), { maxSpins: 5 })),
    ).toBe('ISING_TOO_MANY_SPINS');
    expect(
      codeOf(() => sampleExact(new Float64Array(2), new Float64Array(4), -1, createRng(1))),
    ).toBe('ISING_INVALID_ARGUMENT');
    try {
      logPartition(new Float64Array(25), new Float64Array(625));
    } catch (e) {
      expect(String(e)).toMatch(/25 spins.*'mean-field', 'gibbs' or 'dqa'/);
    }
  });
});

describe('sampleExact count limit', () => {
  it('refuses more than 2^24 samples per call with ISING_INVALID_ARGUMENT naming the count and the maximum', () => {
    const h = Float64Array.of(0.3);
    const J = Float64Array.of(0);
    let message = '';
    try {
      sampleExact(h, J, 1e12, createRng(1));
    } catch (error) {
      expect(error).toMatchObject({ code: 'ISING_INVALID_ARGUMENT' });
      message = (error as Error).message;
    }
    expect(message).toMatch(/1000000000000/);
    expect(message).toMatch(/16,777,216/);
    expect(codeOf(() => sampleExact(h, J, 2 ** 24 + 1, createRng(1)))).toBe(
      'ISING_INVALID_ARGUMENT',
    );
    expect(sampleExact(h, J, 3, createRng(1)).weights.length).toBe(3);
  });
});
