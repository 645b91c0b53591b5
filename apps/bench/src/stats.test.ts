import { describe, expect, it } from 'vitest';
import { pairedTTest } from './stats.js';

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
