import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRng } from '../rng.js';
import { solveLinear } from './solveLinear.js';

describe('solveLinear', () => {
  it('should recover x from A x for random well-conditioned systems', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 0, max: 2 ** 31 }),
        (n, seed) => {
          const rng = createRng(seed);
          // Diagonal shift keeps the condition number modest, so 1e-10 is a fair bound.
          const a = Float64Array.from(
            { length: n * n },
            (_, i) => rng.normal() + (i % (n + 1) === 0 ? 3 * Math.sign(rng.normal() || 1) : 0),
          );
          const x = Float64Array.from({ length: n }, () => rng.normal());
          const b = new Float64Array(n);
          for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) b[r]! += a[r * n + c]! * x[c]!;
          const solved = solveLinear(a, b, n);
          expect(solved).toBeDefined();
          for (let i = 0; i < n; i++) expect(Math.abs(solved![i]! - x[i]!)).toBeLessThan(1e-10);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('should pivot past a zero leading entry and leave its inputs untouched', () => {
    const a = Float64Array.of(0, 2, 0, 3, 1, 0, 0, 0, 4);
    const b = Float64Array.of(4, 5, 8);
    const x = solveLinear(a, b, 3)!;
    expect(Array.from(x)).toEqual([1, 2, 2]);
    expect(Array.from(a)).toEqual([0, 2, 0, 3, 1, 0, 0, 0, 4]);
    expect(Array.from(b)).toEqual([4, 5, 8]);
  });

  it('should report a singular system as undefined', () => {
    expect(solveLinear(Float64Array.of(1, -1, -1, 1), Float64Array.of(1, 0), 2)).toBeUndefined();
    expect(
      solveLinear(Float64Array.of(1, 2, 2, 4 + 1e-17), Float64Array.of(1, 0), 2),
    ).toBeUndefined();
    expect(solveLinear(new Float64Array(4), Float64Array.of(1, 0), 2)).toBeUndefined();
  });
});
