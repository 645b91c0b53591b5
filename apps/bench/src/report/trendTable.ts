import { columnOf } from './columns.js';
import { groupLabel } from './plots/plots.js';
import { meanStd, pairedTTest } from './stats.js';
import { formatStat, formatTest } from './summaryTable.js';
import type { Table } from './summaryTable.js';
import type { RunRecord } from '../recordTypes.js';

/** Least-squares slope of y on x (null below two distinct x). */
function slope(points: readonly { x: number; y: number }[]): number | null {
  const n = points.length;
  if (n < 2) return null;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (const p of points) {
    sxy += (p.x - mx) * (p.y - my);
    sxx += (p.x - mx) ** 2;
  }
  return sxx > 0 ? sxy / sxx : null;
}

/**
 * Does a variant's difference to the baseline grow with T? Per seed, the least-squares slope of
 * the paired difference (perplexity: relative, in %; accuracy: in points) against log₂ T over
 * the lengths where both ran; then the slopes' mean ± std over seeds and a one-sample t-test
 * (the paired t-test of {@link pairedTTest} on the slopes). A negative perplexity slope, or a
 * positive accuracy one, means the variant gains on the baseline as T doubles.
 *
 * @returns one row per (group, variant) with slopes from at least two seeds, or null.
 */
export function trendTable(
  records: readonly RunRecord[],
  columns: readonly string[],
  baseline: string,
): Table | null {
  const metric = records[0]?.metricName ?? 'perplexity';
  // (group, column) → seed → T → final metric
  const cells = new Map<string, Map<number, Map<number, number>>>();
  for (const r of records) {
    const key = `${groupLabel(r)}|${columnOf(r)}`;
    const bySeed = cells.get(key) ?? new Map<number, Map<number, number>>();
    const byT = bySeed.get(r.config.seed) ?? new Map<number, number>();
    byT.set(r.config.length, r.finalMetric);
    bySeed.set(r.config.seed, byT);
    cells.set(key, bySeed);
  }
  const groups = [...new Set(records.map(groupLabel))].sort();
  const body: string[][] = [];
  for (const group of groups) {
    const base = cells.get(`${group}|${baseline}`);
    if (!base) continue;
    for (const column of columns.filter((c) => c !== baseline)) {
      const bySeed = cells.get(`${group}|${column}`);
      if (!bySeed) continue;
      const slopes: number[] = [];
      const lengths = new Set<number>();
      for (const [seed, byT] of bySeed) {
        const points: { x: number; y: number }[] = [];
        for (const [T, v] of byT) {
          const b = base.get(seed)?.get(T);
          if (b === undefined) continue;
          points.push({
            x: Math.log2(T),
            y: metric === 'perplexity' ? ((v - b) / b) * 100 : v - b,
          });
          lengths.add(T);
        }
        const s = slope(points);
        if (s !== null) slopes.push(s);
      }
      if (slopes.length < 2) continue;
      const relative = metric === 'perplexity';
      const [ci, p] = formatTest(pairedTTest(slopes), metric, relative ? 'rel' : 'diff');
      body.push([
        group,
        column,
        [...lengths].sort((a, b) => a - b).join(', '),
        String(slopes.length),
        formatStat(meanStd(slopes), metric, relative ? 'rel' : 'diff'),
        ci,
        p,
      ]);
    }
  }
  if (body.length === 0) return null;
  return {
    head: [
      'group',
      'variant',
      'lengths',
      'seeds',
      `slope of (variant − ${baseline}) per doubling of T`,
      '95 % CI',
      'p (t-test on the slopes)',
    ],
    body,
  };
}
