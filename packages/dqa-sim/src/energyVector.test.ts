import { codeOf } from '@boltzmann/ising-core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { energyVector } from './index.js';

describe('energyVector', () => {
  it('should equal the term-by-term energy of every state (random problems, n ≤ 9)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9 }).chain((n) =>
          fc.tuple(
            fc.constant(n),
            fc.array(fc.double({ min: -3, max: 3, noNaN: true }), { minLength: n, maxLength: n }),
            fc.array(fc.double({ min: -3, max: 3, noNaN: true }), {
              minLength: n * n,
              maxLength: n * n,
            }),
          ),
        ),
        ([n, fields, couplings]) => {
          const e = energyVector({ fields, couplings });
          expect(e.length).toBe(1 << n);
          for (let s = 0; s < 1 << n; s++) {
            let ref = 0;
            const sp = (j: number) => ((s >>> j) & 1 ? 1 : -1);
            for (let j = 0; j < n; j++) {
              ref -= fields[j]! * sp(j);
              for (let k = j + 1; k < n; k++) ref -= couplings[j * n + k]! * sp(j) * sp(k);
            }
            expect(Math.abs(e[s]! - ref)).toBeLessThan(1e-12);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('should read only the strict upper triangle of the couplings', () => {
    const upper = energyVector({ fields: [0.1, 0.2, 0.3], couplings: [0, 1, 2, 0, 0, 3, 0, 0, 0] });
    const noisy = energyVector({ fields: [0.1, 0.2, 0.3], couplings: [9, 1, 2, 9, 9, 3, 9, 9, 9] });
    expect(Array.from(noisy)).toEqual(Array.from(upper));
  });

  it('should refuse wrong shapes and non-finite entries with coded errors', () => {
    expect(codeOf(() => energyVector({ fields: [] }))).toBe('DQA_SHAPE_MISMATCH');
    expect(codeOf(() => energyVector({ fields: [1, 2], couplings: [0, 1, 0] }))).toBe(
      'DQA_SHAPE_MISMATCH',
    );
    expect(codeOf(() => energyVector({ fields: [1, Number.POSITIVE_INFINITY] }))).toBe(
      'DQA_NOT_FINITE',
    );
    expect(codeOf(() => energyVector({ fields: [1, 2], couplings: [0, Number.NaN, 0, 0] }))).toBe(
      'DQA_NOT_FINITE',
    );
    expect(codeOf(() => energyVector({ fields: [1, 2, 3] }, 2))).toBe('DQA_TOO_MANY_QUBITS');
  });
});
