import { columnOf } from './columns.js';
import { holmAdjust, meanStd, pairedTTest } from './stats.js';
import type { PairedTest, Stat } from './stats.js';
import type { RunRecord } from '../recordTypes.js';

export { meanStd } from './stats.js';
export type { Stat } from './stats.js';

/** One row of a summary: a grid cell (length, and FFN/d_model/mode for brackets, pairs for recall). */
export interface SummaryRow {
  readonly key: string;
  /** Row labels in display order, e.g. `{ T: '8', FFN: 'off', d_model: '16' }`. */
  readonly labels: Readonly<Record<string, string>>;
  readonly cells: Readonly<Record<string, Stat | null>>;
  /** Paired difference to the baseline per seed: mean ± std of (metric − baseline). */
  readonly diffs: Readonly<Record<string, Stat | null>>;
  /** Paired relative difference in % (perplexity only). */
  readonly relDiffs: Readonly<Record<string, Stat | null>>;
  /** Paired t-test of the per-seed differences (null below two seeds in both columns). */
  readonly tests: Readonly<Record<string, PairedTest | null>>;
  /**
   * The test's p-value after Holm's correction over its variant's family: every row of the
   * summary where that variant has a test (all lengths and groups). Absent where there is none.
   */
  readonly holmP: Readonly<Record<string, number>>;
}

/** How {@link summarize} reads the runs. */
export interface SummaryOptions {
  /** What a run contributes (default: its final metric; e.g. its time per step). */
  readonly value?: (r: RunRecord) => number;
  /** Rows name d_model and FFN too (experiments whose presets vary them: ExperimentReport). */
  readonly modelAxes?: boolean;
  /**
   * One more row axis, after the grid's (e.g. the machine a run trained on, for times): its
   * label and each run's value. Rows sort by it last, as text.
   */
  readonly axis?: { readonly label: string; readonly of: (r: RunRecord) => string };
}

/** A summary table over finished runs. */
export interface Summary {
  readonly metricName: 'perplexity' | 'accuracy';
  readonly baseline: string;
  readonly columns: readonly string[];
  readonly rowLabels: readonly string[];
  readonly rows: readonly SummaryRow[];
}

function rowLabels(
  r: RunRecord,
  multiDataset: boolean,
  modelAxes: boolean,
): Record<string, string> {
  const c = r.config;
  const labels: Record<string, string> = {};
  if (multiDataset) labels.task = c.dataset;
  if (c.dataset === 'brackets') labels.mode = c.mode;
  labels.T = String(c.length);
  if (c.recall) labels.pairs = String(c.recall.kvPairs);
  if (modelAxes) {
    labels.FFN = c.ffn ? 'on' : 'off';
    labels.d_model = String(c.dModel);
  }
  return labels;
}

/**
 * Groups finished runs into the paper's table shape: rows = grid cells, columns =
 * variants (or sampler labels), cells = mean ± std over seeds, plus the paired difference
 * to the baseline column computed per seed (only seeds present in both columns).
 *
 * @param records finished runs of one experiment (one metric).
 * @param columns column order; the first present one is the baseline unless `baseline` is given.
 * @param baseline the reference column (`softmax`, or `exact` for DQA).
 * @param options what a run contributes (default its final metric) and whether rows name the model axes.
 * @returns the summary.
 * @example
 * const s = summarize(records, ['softmax', 'boltzmann'], 'softmax');
 */
export function summarize(
  records: readonly RunRecord[],
  columns: readonly string[],
  baseline: string,
  options: SummaryOptions = {},
): Summary {
  const value = options.value ?? ((r: RunRecord) => r.finalMetric);
  const metricName = records[0]?.metricName ?? 'perplexity';
  const multiDataset = new Set(records.map((r) => r.config.dataset)).size > 1;
  const groups = new Map<
    string,
    { labels: Record<string, string>; byColumn: Map<string, Map<number, number>>; order: number[] }
  >();
  for (const r of records) {
    const labels = rowLabels(r, multiDataset, options.modelAxes === true);
    if (options.axis) labels[options.axis.label] = options.axis.of(r);
    const key = JSON.stringify(labels);
    let g = groups.get(key);
    if (!g) {
      const c = r.config;
      g = {
        labels,
        byColumn: new Map(),
        order: [
          c.dataset === 'brackets' ? 1 : 0,
          c.mode === 'prefix' ? 1 : 0,
          c.length,
          c.recall?.kvPairs ?? 0,
          c.ffn ? 0 : 1,
          c.dModel,
        ],
      };
      groups.set(key, g);
    }
    let col = g.byColumn.get(columnOf(r));
    if (!col) {
      col = new Map();
      g.byColumn.set(columnOf(r), col);
    }
    col.set(r.config.seed, value(r));
  }
  const sorted = [...groups.entries()].sort(([, a], [, b]) => {
    for (let i = 0; i < a.order.length; i += 1)
      if (a.order[i] !== b.order[i]) return a.order[i]! - b.order[i]!;
    const axis = options.axis?.label;
    return axis ? a.labels[axis]!.localeCompare(b.labels[axis]!) : 0;
  });
  const untested: Omit<SummaryRow, 'holmP'>[] = sorted.map(([key, g]) => {
    const cells: Record<string, Stat | null> = {};
    const diffs: Record<string, Stat | null> = {};
    const relDiffs: Record<string, Stat | null> = {};
    const tests: Record<string, PairedTest | null> = {};
    const base = g.byColumn.get(baseline);
    for (const column of columns) {
      const bySeed = g.byColumn.get(column);
      cells[column] = bySeed ? meanStd([...bySeed.values()]) : null;
      if (column === baseline || !bySeed || !base) continue;
      const d: number[] = [];
      const rel: number[] = [];
      for (const [seed, v] of bySeed) {
        const b = base.get(seed);
        if (b === undefined) continue;
        d.push(v - b);
        rel.push(((v - b) / b) * 100);
      }
      diffs[column] = d.length ? meanStd(d) : null;
      tests[column] = pairedTTest(d);
      relDiffs[column] = rel.length && metricName === 'perplexity' ? meanStd(rel) : null;
    }
    return { key, labels: g.labels, cells, diffs, relDiffs, tests };
  });
  // Holm's correction per variant, over every row where it has a test.
  const holmP = untested.map(() => ({}) as Record<string, number>);
  for (const column of columns) {
    const tested = untested.flatMap((r, i) => (r.tests[column] ? [i] : []));
    holmAdjust(tested.map((i) => untested[i]!.tests[column]!.p)).forEach((p, k) => {
      holmP[tested[k]!]![column] = p;
    });
  }
  const rows: SummaryRow[] = untested.map((r, i) => ({ ...r, holmP: holmP[i]! }));
  const rowLabelNames = rows[0] ? Object.keys(rows[0].labels) : ['T'];
  return { metricName, baseline, columns, rowLabels: rowLabelNames, rows };
}
