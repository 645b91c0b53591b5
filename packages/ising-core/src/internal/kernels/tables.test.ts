import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  expFieldHalfTable,
  expTable,
  extendCouplingTable,
  linearTable,
  tableRange,
} from './tables.js';

const spin = (s: number, j: number) => ((s >> j) & 1 ? 1 : -1);
const vec = (n: number) =>
  fc.array(fc.double({ min: -5, max: 5, noNaN: true }), { minLength: n, maxLength: n });

describe('state tables', () => {
  it('linearTable is offset + scale Σ c_j s_j', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 8 }).chain((n) => fc.tuple(fc.constant(n), vec(n + 2))),
        ([n, c]) => {
          const coeffs = Float64Array.from(c);
          const out = new Float64Array(2 ** n);
          linearTable(out, coeffs, 2, n, 0.7, -0.3);
          for (let s = 0; s < 2 ** n; s++) {
            let v = -0.3;
            for (let j = 0; j < n; j++) v += 0.7 * coeffs[2 + j]! * spin(s, j);
            expect(out[s]).toBeCloseTo(v, 12);
          }
        },
      ),
    );
  });

  it('extendCouplingTable builds Σ_{j<k} J_jk s_j s_k one spin at a time', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 7 }).chain((n) => fc.tuple(fc.constant(n), vec(n * n))),
        ([n, j]) => {
          const J = Float64Array.from(j);
          const table = new Float64Array(2 ** n);
          const scratch = new Float64Array(2 ** n);
          for (let k = 0; k < n; k++) extendCouplingTable(table, k, J, n, scratch);
          for (let s = 0; s < 2 ** n; s++) {
            let v = 0;
            for (let a = 0; a < n; a++)
              for (let b = a + 1; b < n; b++) v += J[a * n + b]! * spin(s, a) * spin(s, b);
            expect(table[s]).toBeCloseTo(v, 11);
          }
          const [lo, hi] = tableRange(table, 2 ** n);
          expect(lo).toBe(Math.min(...table));
          expect(hi).toBe(Math.max(...table));
          const e = new Float64Array(2 ** n);
          expTable(e, table, 2 ** n, 0.5, hi);
          for (let s = 0; s < 2 ** n; s++)
            expect(e[s]).toBeCloseTo(Math.exp(0.5 * (table[s]! - hi)), 14);
        },
      ),
    );
  });

  it('expFieldHalfTable is exp(β(F(s) − Σ|h|)) with maximum exactly 1', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 8 }).chain((n) => fc.tuple(fc.constant(n), vec(n))),
        ([n, h]) => {
          const fields = Float64Array.from(h);
          const out = new Float64Array(2 ** n);
          const abs = expFieldHalfTable(out, fields, 0, n, 0.9);
          expect(abs).toBeCloseTo(
            h.reduce((a, v) => a + Math.abs(v), 0),
            12,
          );
          for (let s = 0; s < 2 ** n; s++) {
            let f = 0;
            for (let j = 0; j < n; j++) f += fields[j]! * spin(s, j);
            const want = Math.exp(0.9 * (f - abs));
            expect(Math.abs(out[s]! - want)).toBeLessThanOrEqual(1e-12 * want + 1e-300);
          }
          expect(Math.max(...out)).toBe(1);
        },
      ),
    );
  });
});
