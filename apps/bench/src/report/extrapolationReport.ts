import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TopLevelSpec } from 'vega-lite';
import { BenchError } from '../benchError.js';
import { columnOf, orderColumns, softmaxColumn } from './columns.js';
import { lengthSpec } from './plots/lengthPlot.js';
import type { LengthPoint } from './plots/lengthPlot.js';
import { meanStd, pairedTTest } from './stats.js';
import { formatStat, formatTest } from './summaryTable.js';
import type { Table } from './summaryTable.js';
import type { RunConfig } from '../types.js';

/** One evaluated length. */
export interface ExtrapolationPoint {
  readonly T: number;
  /** Mean cross-entropy over the evaluation set at this length (nats/char). */
  readonly loss: number;
  readonly perplexity: number;
  /** Sequences evaluated. */
  readonly sequences: number;
}

/** The folder of a results folder where `bench long-context` writes `bench extrapolate --out` files. */
export const EXTRAPOLATION_FOLDER = 'longer';

/** One `bench extrapolate --out` file: a saved model evaluated at several lengths. */
export interface ExtrapolationResult {
  readonly model: string;
  readonly config: RunConfig;
  readonly trainedAt: number;
  readonly points: readonly ExtrapolationPoint[];
}

/**
 * Every extrapolation result under `dir/longer/*.json` (none when the folder is absent).
 *
 * @throws BENCH_RESULTS_INVALID naming a file that is not a `bench extrapolate --out` file.
 */
export function readExtrapolations(dir: string): ExtrapolationResult[] {
  const folder = join(dir, EXTRAPOLATION_FOLDER);
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const path = join(folder, f);
      let value: Partial<ExtrapolationResult> | undefined;
      try {
        value = JSON.parse(readFileSync(path, 'utf8')) as Partial<ExtrapolationResult>;
      } catch {
        value = undefined;
      }
      const points = value?.points;
      const valid =
        value?.config !== undefined &&
        typeof value.trainedAt === 'number' &&
        Array.isArray(points) &&
        points.every((p) => Number.isInteger(p?.T) && Number.isFinite(p?.perplexity));
      if (!valid)
        throw new BenchError(
          'BENCH_RESULTS_INVALID',
          `${path} is not a bench extrapolate --out file ({ model, config, trainedAt, points: [{ T, perplexity, … }] }); delete it to evaluate that model again`,
        );
      return value as ExtrapolationResult;
    });
}

/** Perplexities per (trained T, evaluated T, column), by seed. */
function cells(results: readonly ExtrapolationResult[]) {
  const out = new Map<
    string,
    { trainedAt: number; T: number; column: string; bySeed: Map<number, number> }
  >();
  for (const r of results)
    for (const p of r.points) {
      const column = columnOf(r);
      const key = `${r.trainedAt}|${p.T}|${column}`;
      const c = out.get(key) ?? { trainedAt: r.trainedAt, T: p.T, column, bySeed: new Map() };
      c.bySeed.set(r.config.seed, p.perplexity);
      out.set(key, c);
    }
  const order = orderColumns([...out.values()].map((c) => c.column));
  return [...out.values()].sort(
    (a, b) =>
      a.trainedAt - b.trainedAt || a.T - b.T || order.indexOf(a.column) - order.indexOf(b.column),
  );
}

/**
 * Perplexity of the saved models at each evaluated length, mean ± std over seeds, and the
 * per-seed paired difference to `baseline` (default: the softmax column, e.g.
 * `softmax (no positions)`) at the same lengths, with the paired t-test.
 *
 * @returns the table, or null without results.
 */
export function extrapolationTable(
  results: readonly ExtrapolationResult[],
  baseline?: string,
): Table | null {
  const all = cells(results);
  if (all.length === 0) return null;
  // Softmax, as the columns name it: these models have no positional embedding.
  baseline ??= softmaxColumn(all.map((c) => c.column));
  const body = all.map((c) => {
    const base = all.find(
      (b) => b.trainedAt === c.trainedAt && b.T === c.T && b.column === baseline,
    );
    const diffs: number[] = [];
    const rel: number[] = [];
    if (base && c.column !== baseline)
      for (const [seed, v] of c.bySeed) {
        const b = base.bySeed.get(seed);
        if (b === undefined) continue;
        diffs.push(v - b);
        rel.push(((v - b) / b) * 100);
      }
    const paired = diffs.length > 0;
    const [ci, p] = formatTest(pairedTTest(diffs), 'perplexity');
    return [
      String(c.trainedAt),
      String(c.T),
      c.column,
      formatStat(meanStd([...c.bySeed.values()]), 'perplexity'),
      paired ? formatStat(meanStd(diffs), 'perplexity', 'diff') : '—',
      paired ? formatStat(meanStd(rel), 'perplexity', 'rel') : '—',
      ci,
      p,
    ];
  });
  return {
    head: [
      'trained at T',
      'evaluated at T',
      'variant',
      'perplexity',
      `variant − ${baseline}`,
      `vs ${baseline} (rel.)`,
      '95 % CI',
      'p (paired t)',
    ],
    body,
  };
}

/** Perplexity against the evaluated length, one line per variant and one panel per training length. */
export function extrapolationSpec(results: readonly ExtrapolationResult[]): TopLevelSpec | null {
  const points: LengthPoint[] = cells(results).map((c) => ({
    group: `trained at T=${c.trainedAt}`,
    column: c.column,
    T: c.T,
    values: [...c.bySeed.values()],
  }));
  return points.length > 0
    ? lengthSpec(points, 'validation perplexity', 'evaluated at length T')
    : null;
}
