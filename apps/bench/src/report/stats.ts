import tCdf from '@stdlib/stats-base-dists-t-cdf';
import tQuantile from '@stdlib/stats-base-dists-t-quantile';

/** Mean, sample standard deviation (n − 1; 0 when n = 1) and count. */
export interface Stat {
  readonly mean: number;
  readonly std: number;
  readonly n: number;
}

/**
 * Mean ± sample standard deviation.
 *
 * @param values at least one finite number.
 * @returns the statistic; `std` is 0 for a single value.
 * @example
 * meanStd([1, 2, 3]); // { mean: 2, std: 1, n: 3 }
 */
export function meanStd(values: readonly number[]): Stat {
  const n = values.length;
  if (n === 0) return { mean: Number.NaN, std: Number.NaN, n: 0 };
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const ss = values.reduce((a, b) => a + (b - mean) ** 2, 0);
  return { mean, std: n > 1 ? Math.sqrt(ss / (n - 1)) : 0, n };
}

/**
 * The median of `xs`: the middle value, or the mean of the two middle ones.
 *
 * @returns undefined when `xs` is empty.
 * @example
 * median([3, 1, 2, 10]); // 2.5
 */
export function median(xs: readonly number[]): number | undefined {
  if (xs.length === 0) return undefined;
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** A paired t-test of per-seed differences `variant − baseline`. */
export interface PairedTest {
  /** Number of pairs (seeds in both columns). */
  readonly n: number;
  readonly mean: number;
  /** The 95 % confidence interval of the mean difference, `mean ± t_{0.975, n−1} · s/√n`. */
  readonly ci95: readonly [number, number];
  /** Two-sided p-value of `mean = 0` under Student's t with `n − 1` degrees of freedom. */
  readonly p: number;
}

/**
 * The paired t-test of differences (Student's t from @stdlib): `t = mean / (s/√n)`, two-sided.
 * With fewer than 2 pairs there is no test (`null`); with zero spread the p-value is 0 for a
 * non-zero mean and 1 for a zero mean, and the interval is the point.
 *
 * @example
 * pairedTTest([-0.05, -0.04, -0.03]); // { n: 3, mean: -0.04, ci95: [-0.0648, -0.0152], p: 0.0202 }
 */
export function pairedTTest(differences: readonly number[]): PairedTest | null {
  const { mean, std, n } = meanStd(differences);
  if (n < 2 || !Number.isFinite(mean)) return null;
  const se = std / Math.sqrt(n);
  if (se === 0) return { n, mean, ci95: [mean, mean], p: mean === 0 ? 1 : 0 };
  const half = tQuantile(0.975, n - 1) * se;
  const p = 2 * (1 - tCdf(Math.abs(mean / se), n - 1));
  return { n, mean, ci95: [mean - half, mean + half], p };
}

/**
 * Holm's step-down adjustment of a family of p-values (Holm 1979): sort ascending, multiply
 * the k-th smallest (k = 1…m) by m − k + 1, carry the running maximum up the ranks and cap at 1.
 * Rejecting where the adjusted p is below α controls the family-wise error rate at α, for any
 * dependence between the tests.
 *
 * @param ps the family's p-values, each in [0, 1].
 * @returns the adjusted p-values, in the input order.
 * @throws RangeError when a p-value is not a number in [0, 1].
 * @example
 * holmAdjust([0.01, 0.04, 0.03, 0.005]); // [0.03, 0.06, 0.06, 0.02]
 */
export function holmAdjust(ps: readonly number[]): number[] {
  for (const p of ps)
    if (!(p >= 0 && p <= 1)) throw new RangeError(`holmAdjust: p-value ${p} is not in [0, 1]`);
  const m = ps.length;
  const order = ps.map((_, i) => i).sort((a, b) => ps[a]! - ps[b]!);
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach((index, k) => {
    running = Math.max(running, Math.min(1, (m - k) * ps[index]!));
    adjusted[index] = running;
  });
  return adjusted;
}
