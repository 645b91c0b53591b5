import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { batchedMatMul, createRng } from './index.js';
import { codeOf } from './testing/thrownErrors.js';

/** The product the obvious way, in float64, from explicitly transposed operands. */
function reference(
  a: Float32Array,
  b: Float32Array,
  batch: number,
  m: number,
  k: number,
  n: number,
  tA: boolean,
  tB: boolean,
): Float64Array {
  const c = new Float64Array(batch * m * n);
  for (let p = 0; p < batch; p++) {
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < n; j++) {
        let s = 0;
        for (let q = 0; q < k; q++) {
          const x = tA ? a[p * k * m + q * m + i]! : a[p * m * k + i * k + q]!;
          const y = tB ? b[p * n * k + j * k + q]! : b[p * k * n + q * n + j]!;
          s += x * y;
        }
        c[(p * m + i) * n + j] = s;
      }
    }
  }
  return c;
}

const random = (count: number, seed: number) => {
  const rng = createRng(seed);
  return Float32Array.from({ length: count }, () => 2 * rng.next() - 1);
};

describe('batchedMatMul', () => {
  it('equals the float64 triple loop on random shapes (every remainder of m and n mod 4) and transposes', () => {
    fc.assert(
      fc.property(
        fc.record({
          batch: fc.integer({ min: 1, max: 5 }),
          m: fc.integer({ min: 1, max: 13 }),
          k: fc.integer({ min: 1, max: 40 }),
          n: fc.integer({ min: 1, max: 13 }),
          tA: fc.boolean(),
          tB: fc.boolean(),
          seed: fc.integer({ min: 0, max: 1e6 }),
        }),
        ({ batch, m, k, n, tA, tB, seed }) => {
          const a = random(batch * m * k, seed);
          const b = random(batch * k * n, seed + 1);
          const got = batchedMatMul(a, b, { batch, m, k, n, transposeA: tA, transposeB: tB });
          const want = reference(a, b, batch, m, k, n, tA, tB);
          expect(got).toHaveLength(want.length);
          // float32 accumulation of k products of magnitude ≤ 1.
          for (let i = 0; i < want.length; i++)
            expect(Math.abs(got[i]! - want[i]!)).toBeLessThan(1e-6 * k + 1e-7);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('handles the attention shapes (48 × 64×32×64) and grows its memory for larger ones', () => {
    for (const [batch, m, k, n] of [
      [48, 64, 32, 64],
      [8, 256, 16, 256],
    ] as const) {
      const a = random(batch * m * k, 1);
      const b = random(batch * k * n, 2);
      const got = batchedMatMul(a, b, { batch, m, k, n });
      const want = reference(a, b, batch, m, k, n, false, false);
      let worst = 0;
      for (let i = 0; i < want.length; i++) worst = Math.max(worst, Math.abs(got[i]! - want[i]!));
      expect(worst).toBeLessThan(1e-5);
    }
  });

  it('refuses bad dimensions and operands of the wrong size, with codes', () => {
    expect(
      codeOf(() =>
        batchedMatMul(new Float32Array(4), new Float32Array(4), { batch: 1, m: 2, k: 2, n: 0 }),
      ),
    ).toBe('ISING_INVALID_ARGUMENT');
    expect(
      codeOf(() =>
        batchedMatMul(new Float32Array(3), new Float32Array(4), { batch: 1, m: 2, k: 2, n: 2 }),
      ),
    ).toBe('ISING_SHAPE_MISMATCH');
    expect(
      codeOf(() =>
        batchedMatMul(new Float64Array(4) as never, new Float32Array(4), {
          batch: 1,
          m: 2,
          k: 2,
          n: 2,
        }),
      ),
    ).toBe('ISING_SHAPE_MISMATCH');
  });
});
