import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createIsingBatch, createRng, estimateFromSamples } from './index.js';
import type { IsingBatch, SampleSet } from './index.js';
import { bruteForceEstimate, bruteForceMoments, codeOf } from './testing/index.js';

/** A "sample set" holding every state once, weighted by `scale ×` its exact probability. */
function exactSet(batch: IsingBatch, q: number, scale = 1): SampleSet {
  const n = batch.spins[q]!;
  const { probabilities } = bruteForceMoments(
    batch.fields.subarray(q * batch.stride),
    batch.couplings,
    n,
    batch.beta,
  );
  const states = new Int8Array(probabilities.length * n);
  for (let s = 0; s < probabilities.length; s++)
    for (let j = 0; j < n; j++) states[s * n + j] = (s >>> j) & 1 ? 1 : -1;
  return { spins: n, states, weights: probabilities.map((p) => p * scale) };
}

function randomBatch(
  seed: number,
  spins: number[],
  stride: number,
  beta: number,
  scale = 1,
): IsingBatch {
  const rng = createRng(seed);
  const fields = Float64Array.from({ length: spins.length * stride }, () => rng.normal() * scale);
  const couplings = Float64Array.from({ length: stride * stride }, () => rng.normal() * scale);
  return createIsingBatch({ fields, couplings, spins, stride, beta });
}

const expectClose = (actual: Float64Array, expected: Float64Array, tol: number): void => {
  expect(actual.length).toBe(expected.length);
  for (let i = 0; i < actual.length; i++)
    expect(Math.abs(actual[i]! - expected[i]!), `entry ${i}`).toBeLessThanOrEqual(tol);
};

describe('estimateFromSamples', () => {
  it('should equal brute-force moments and covariances when the set is the whole weighted distribution', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 4 }),
        fc.double({ min: 0.2, max: 2, noNaN: true }),
        fc.double({ min: 1e-3, max: 1e3, noNaN: true }),
        (seed, spins, beta, weightScale) => {
          const batch = randomBatch(seed, spins, 6, beta);
          const estimate = estimateFromSamples(
            batch,
            spins.map((_, q) => exactSet(batch, q, weightScale)),
          );
          const reference = bruteForceEstimate(batch);
          expectClose(estimate.magnetization, reference.magnetization, 1e-12);
          const rng = createRng(seed + 1);
          const grad = Float64Array.from({ length: batch.size * batch.stride }, () => rng.normal());
          const got = estimate.vjp(grad);
          const want = reference.vjp(grad);
          expectClose(got.fields, want.fields, 1e-12);
          expectClose(got.couplings, want.couplings, 1e-12);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('should zero everything beyond each problem and below the diagonal', () => {
    const batch = randomBatch(3, [2, 4], 5, 1);
    const estimate = estimateFromSamples(batch, [exactSet(batch, 0), exactSet(batch, 1)]);
    const { fields, couplings } = estimate.vjp(Float64Array.from({ length: 10 }, (_, i) => i + 1));
    for (const i of [2, 3, 4, 9]) {
      expect(estimate.magnetization[i]).toBe(0);
      expect(fields[i]).toBe(0);
    }
    for (let k = 0; k < 5; k++) for (let l = 0; l <= k; l++) expect(couplings[k * 5 + l]).toBe(0);
    expect(couplings[0 * 5 + 4]).toBe(0);
    expect(couplings[0 * 5 + 3]).not.toBe(0);
  });

  it('should treat repeated rows and merged weights alike', () => {
    const batch = randomBatch(5, [3], 3, 0.7);
    const rows = [1, 1, -1, -1, 1, 1, 1, 1, -1, -1, -1, -1];
    const repeated = estimateFromSamples(batch, [
      { spins: 3, states: Int8Array.from(rows), weights: Float64Array.of(1, 1, 1, 1) },
    ]);
    const merged = estimateFromSamples(batch, [
      {
        spins: 3,
        states: Int8Array.of(1, 1, -1, -1, 1, 1, -1, -1, -1),
        weights: Float64Array.of(2, 1, 1),
      },
    ]);
    expectClose(repeated.magnetization, merged.magnetization, 1e-15);
    expectClose(repeated.magnetization, Float64Array.of(0, 0.5, -0.5), 1e-15);
    const grad = Float64Array.of(0.3, -1, 2);
    expectClose(repeated.vjp(grad).couplings, merged.vjp(grad).couplings, 1e-15);
    expectClose(repeated.vjp(grad).fields, merged.vjp(grad).fields, 1e-15);
  });

  it('should normalize weights near the float64 limit without overflow', () => {
    const batch = randomBatch(2, [2], 2, 1);
    const huge = estimateFromSamples(batch, [
      {
        spins: 2,
        states: Int8Array.of(1, 1, 1, -1, -1, -1),
        weights: Float64Array.of(1e308, 1e308, 1e308),
      },
    ]);
    expectClose(huge.magnetization, Float64Array.of(1 / 3, -1 / 3), 1e-15);
    const tiny = estimateFromSamples(batch, [
      { spins: 2, states: Int8Array.of(1, 1, -1, -1), weights: Float64Array.of(5e-324, 5e-324) },
    ]);
    expectClose(tiny.magnetization, Float64Array.of(0, 0), 0);
  });

  it('should refuse malformed sample sets with coded errors', () => {
    const batch = randomBatch(1, [2], 2, 1);
    const good = (): SampleSet => ({
      spins: 2,
      states: Int8Array.of(1, -1, -1, -1),
      weights: Float64Array.of(1, 2),
    });
    const code = (sets: unknown) => codeOf(() => estimateFromSamples(batch, sets as SampleSet[]));
    expect(code([good()])).toBe('no error');
    expect(code([])).toBe('ISING_SHAPE_MISMATCH');
    expect(code([good(), good()])).toBe('ISING_SHAPE_MISMATCH');
    expect(code([{ ...good(), spins: 3 }])).toBe('ISING_SHAPE_MISMATCH');
    expect(code([{ ...good(), states: Int8Array.of(1, 1, 1) }])).toBe('ISING_SHAPE_MISMATCH');
    expect(code([{ ...good(), states: Int8Array.of(1, 0, -1, -1) }])).toBe('ISING_BAD_SAMPLES');
    expect(code([{ ...good(), states: Int8Array.of(1, 2, -1, -1) }])).toBe('ISING_BAD_SAMPLES');
    expect(code([{ ...good(), weights: Float64Array.of(1, -1) }])).toBe('ISING_BAD_SAMPLES');
    expect(code([{ ...good(), weights: Float64Array.of(1, Number.NaN) }])).toBe('ISING_NOT_FINITE');
    expect(code([{ ...good(), weights: Float64Array.of(1, Infinity) }])).toBe('ISING_NOT_FINITE');
    expect(code([{ ...good(), weights: Float64Array.of(0, 0) }])).toBe('ISING_BAD_SAMPLES');
    expect(code([{ spins: 2, states: new Int8Array(0), weights: new Float64Array(0) }])).toBe(
      'ISING_BAD_SAMPLES',
    );
    expect(code([{ spins: 2, states: [1, -1], weights: [1] }])).toBe('ISING_BAD_SAMPLES');
    expect(() =>
      estimateFromSamples(batch, [{ ...good(), states: Int8Array.of(1, 0, -1, -1) }]),
    ).toThrow(/state 0, spin 1 is 0/);
  });

  it('should refuse a malformed upstream gradient', () => {
    const batch = randomBatch(1, [2], 3, 1);
    const { vjp } = estimateFromSamples(batch, [
      { spins: 2, states: Int8Array.of(1, -1), weights: Float64Array.of(1) },
    ]);
    expect(() => vjp(new Float64Array(2))).toThrowError(
      expect.objectContaining({ code: 'ISING_SHAPE_MISMATCH' }),
    );
    expect(() => vjp(Float64Array.of(0, Number.NaN, 0))).toThrowError(
      expect.objectContaining({ code: 'ISING_NOT_FINITE' }),
    );
    expect(vjp(Float64Array.of(0, 0, Number.NaN)).fields).toEqual(new Float64Array(3));
  });
});
