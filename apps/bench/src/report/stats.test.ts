import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { holmAdjust, median, pairedTTest } from './stats.js';

describe('pairedTTest', () => {
  it('matches the closed form at 2 degrees of freedom for d = (−0.05, −0.04, −0.03)', () => {
    const t = pairedTTest([-0.05, -0.04, -0.03])!;
    // mean −0.04, s = 0.01, se = 0.01/√3, t = −6.928; with 2 degrees of freedom the t CDF is
    // 1/2 + t/(2√(2 + t²)), so p = 1 − 6.928/√50 = 0.020204, and t_{0.975,2} = 4.302653.
    expect(t.n).toBe(3);
    expect(t.mean).toBeCloseTo(-0.04, 15);
    expect(t.ci95[0]).toBeCloseTo(-0.04 - (4.302652729749462 * 0.01) / Math.sqrt(3), 12);
    expect(t.ci95[1]).toBeCloseTo(-0.04 + (4.302652729749462 * 0.01) / Math.sqrt(3), 12);
    expect(t.p).toBeCloseTo(0.020204, 5);
  });

  it('a larger sample: p from the t distribution is close to the normal one', () => {
    const d = Array.from({ length: 200 }, (_, i) => 0.1 + Math.sin(i));
    const t = pairedTTest(d)!;
    expect(t.p).toBeLessThan(0.2);
    expect(t.ci95[0]).toBeLessThan(t.mean);
  });

  it('has no test below two pairs, and handles zero spread', () => {
    expect(pairedTTest([0.3])).toBeNull();
    expect(pairedTTest([])).toBeNull();
    expect(pairedTTest([0.2, 0.2])).toEqual({ n: 2, mean: 0.2, ci95: [0.2, 0.2], p: 0 });
    expect(pairedTTest([0, 0, 0])!.p).toBe(1);
  });
});

/**
 * Holm's procedure run literally at level α: step through the p-values in ascending order and
 * reject while p_(k) ≤ α / (m − k + 1). Returns which hypotheses it rejects.
 */
function holmRejects(ps: readonly number[], alpha: number): boolean[] {
  const order = ps.map((_, i) => i).sort((a, b) => ps[a]! - ps[b]!);
  const rejected = ps.map(() => false);
  for (let k = 0; k < order.length; k += 1) {
    if (ps[order[k]!]! > alpha / (ps.length - k)) break;
    rejected[order[k]!] = true;
  }
  return rejected;
}

describe('holmAdjust', () => {
  it('matches the textbook example (R: p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm"))', () => {
    const adjusted = holmAdjust([0.01, 0.04, 0.03, 0.005]);
    [0.03, 0.06, 0.06, 0.02].forEach((want, i) => expect(adjusted[i]).toBeCloseTo(want, 15));
  });

  it('rejects exactly what the step-down procedure rejects, at every level', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 12 }),
        fc.double({ min: 0.001, max: 0.5, noNaN: true }),
        (ps, alpha) => {
          const adjusted = holmAdjust(ps);
          const byProcedure = holmRejects(ps, alpha);
          // Away from ties with the threshold (float rounding of m·p against α), they agree.
          adjusted.forEach((a, i) => {
            if (Math.abs(a - alpha) > 1e-12) expect(a <= alpha).toBe(byProcedure[i]);
          });
          adjusted.forEach((a, i) => {
            expect(a).toBeGreaterThanOrEqual(ps[i]!);
            expect(a).toBeLessThanOrEqual(1);
          });
        },
      ),
      { numRuns: 500 },
    );
  });

  it('is the identity for one test, and refuses p-values outside [0, 1]', () => {
    expect(holmAdjust([0.04])).toEqual([0.04]);
    expect(holmAdjust([])).toEqual([]);
    expect(() => holmAdjust([0.1, Number.NaN])).toThrow(RangeError);
    expect(() => holmAdjust([1.2])).toThrow(/not in \[0, 1\]/);
  });
});

describe('median', () => {
  it('should take the middle value, or the mean of the two middle ones, whatever the order', () => {
    expect(median([])).toBeUndefined();
    expect(median([7])).toBe(7);
    expect(median([3, 1, 2, 10])).toBe(2.5);
    const xs = [5, 1, 4];
    expect(median(xs)).toBe(4);
    expect(xs).toEqual([5, 1, 4]);
  });

  it('should leave as many values at or below it as at or above it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 1 }),
        (xs) => {
          const m = median(xs)!;
          expect(xs.filter((x) => x <= m).length).toBeGreaterThanOrEqual(xs.length / 2);
          expect(xs.filter((x) => x >= m).length).toBeGreaterThanOrEqual(xs.length / 2);
        },
      ),
    );
  });
});
