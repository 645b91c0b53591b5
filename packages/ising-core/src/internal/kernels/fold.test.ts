import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldBitSums, walshHadamard } from './fold.js';
import { splitBackward, splitForward } from './splitKernels.js';

const table = (n: number) =>
  fc.array(fc.double({ min: -3, max: 3, noNaN: true }), { minLength: 2 ** n, maxLength: 2 ** n });

describe('folds and transforms', () => {
  it('foldBitSums gives Σ_{s: bit k set} v(s) for every k and the total', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9 }).chain((n) => fc.tuple(fc.constant(n), table(n))),
        ([n, v]) => {
          const values = Float64Array.from(v);
          const out = new Float64Array(n + 1);
          const total = foldBitSums(values, n, out, 1);
          expect(total).toBeCloseTo(
            v.reduce((a, x) => a + x, 0),
            10,
          );
          for (let k = 0; k < n; k++)
            expect(out[1 + k]).toBeCloseTo(
              v.reduce((a, x, s) => a + ((s >> k) & 1 ? x : 0), 0),
              10,
            );
        },
      ),
    );
  });

  it('walshHadamard is Σ_s v(s) (−1)^popcount(s & u)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 7 }).chain((n) => fc.tuple(fc.constant(n), table(n))),
        ([n, v]) => {
          const values = Float64Array.from(v);
          walshHadamard(values, n);
          const parity = (x: number) => x.toString(2).split('1').length % 2 === 0;
          for (let u = 0; u < 2 ** n; u++) {
            const want = v.reduce((a, x, s) => a + (parity(s & u) ? -x : x), 0);
            expect(values[u]).toBeCloseTo(want, 10);
          }
        },
      ),
    );
  });

  it('split kernels equal the direct per-state sums', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 0, max: 4 }),
        fc.integer(),
        (m, hb, seed) => {
          let x = seed;
          const rand = () => {
            x = (Math.imul(x, 1103515245) + 12345) | 0;
            return (x >>> 0) / 2 ** 32;
          };
          const arr = (k: number) => Float64Array.from({ length: k }, rand);
          const [E, L, H, A, B, a, b] = [
            arr(2 ** (m + hb)),
            arr(2 ** m),
            arr(2 ** hb),
            arr(2 ** m),
            arr(2 ** m),
            arr(2 ** hb),
            arr(2 ** hb),
          ];
          const col = new Float64Array(2 ** m);
          const row = new Float64Array(2 ** hb);
          splitForward(E, L, H, m, hb, col, row);
          const acc = arr(2 ** (m + hb));
          const acc0 = acc.slice();
          const col2 = new Float64Array(2 ** m);
          const row2 = new Float64Array(2 ** hb);
          splitBackward(E, A, B, a, b, m, hb, acc, col2, row2);
          for (let r = 0; r < 2 ** hb; r++) {
            let f = 0;
            let g = 0;
            for (let l = 0; l < 2 ** m; l++) {
              const s = (r << m) | l;
              f += E[s]! * L[l]! * H[r]!;
              const xs = E[s]! * (A[l]! * a[r]! + B[l]! * b[r]!);
              g += xs;
              expect(acc[s]).toBeCloseTo(acc0[s]! + xs, 12);
            }
            expect(row[r]).toBeCloseTo(f, 12);
            expect(row2[r]).toBeCloseTo(g, 12);
          }
          for (let l = 0; l < 2 ** m; l++) {
            let f = 0;
            let g = 0;
            for (let r = 0; r < 2 ** hb; r++) {
              const s = (r << m) | l;
              f += E[s]! * L[l]! * H[r]!;
              g += E[s]! * (A[l]! * a[r]! + B[l]! * b[r]!);
            }
            expect(col[l]).toBeCloseTo(f, 12);
            expect(col2[l]).toBeCloseTo(g, 12);
          }
        },
      ),
    );
  });
});
