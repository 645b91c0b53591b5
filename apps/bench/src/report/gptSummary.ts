import type { TopLevelSpec } from 'vega-lite';
import { columnOf, orderColumns } from './columns.js';
import { panels } from './plots/plots.js';
import { panelCount, panelLayout } from './plots/layout.js';
import { headlineUnderneath, variantLayers } from './plots/variantColors.js';
import { withVariantLegend } from './plots/variantLegend.js';
import { meanStd } from './stats.js';
import type { Stat } from './stats.js';
import type { Table } from './sections.js';
import { spread } from './summaryTable.js';
import { machineGroups } from './machines.js';
import { msPerStep } from './timeTable.js';
import type { RunRecord } from '../recordTypes.js';

/**
 * nanoGPT's figure for its README CPU configuration of shakespeare_char (the `baby` preset:
 * 4 layers, 4 heads, d_model 128, block 64, batch 12, 2,000 iterations): val loss 1.88.
 */
export const PUBLISHED_BABY_VAL_LOSS = 1.88;

/** True when a run is the `baby` configuration the published figure is for. */
function isBaby(r: RunRecord): boolean {
  const c = r.config;
  return (
    c.layers === 4 &&
    c.heads === 4 &&
    c.dModel === 128 &&
    c.length === 64 &&
    c.batchSize === 12 &&
    c.steps === 2000
  );
}

const fmt = (s: Stat | null, digits = 3): string =>
  s === null || s.n === 0 ? '—' : spread(s.mean.toFixed(digits), s.std.toFixed(digits), s.n);
const signed = (s: Stat | null): string =>
  s === null
    ? '—'
    : spread(`${s.mean >= 0 ? '+' : '−'}${Math.abs(s.mean).toFixed(3)}`, s.std.toFixed(3), s.n);

/**
 * Seconds per iteration, mean ± std over the runs, or `machines differ` when they trained on
 * more than one machine (machines.ts): a mean over two machines' times is neither's.
 */
function timeCell(runs: readonly RunRecord[]): string {
  if (machineGroups(runs).length > 1) return 'machines differ';
  return fmt(meanStd(runs.map((r) => msPerStep(r) / 1000)), 2);
}

/**
 * The gpt table: per context length T and column, the final val and train loss (nats/char,
 * mean ± sample std over seeds), val perplexity, the paired val-loss difference to softmax at
 * the same T and seed, and the time per iteration (timeTable.ts msPerStep: the median iteration
 * and the evaluations' share, or wall time over the steps for records without a median).
 *
 * @param records finished `bench gpt` runs (one or several lengths).
 * @returns the table (render with `mdTable` or `htmlTable`).
 */
export function gptTable(records: readonly RunRecord[]): Table {
  const lengths = [...new Set(records.map((r) => r.config.length))].sort((a, b) => a - b);
  const head = [
    'T',
    'variant',
    'seeds',
    'val loss (nats/char)',
    'val perplexity',
    'train loss',
    'Δ val loss vs softmax (paired)',
    's / iteration',
  ];
  const body: string[][] = [];
  for (const T of lengths) {
    const byColumn = new Map<string, RunRecord[]>();
    for (const r of records.filter((r) => r.config.length === T))
      byColumn.set(columnOf(r), [...(byColumn.get(columnOf(r)) ?? []), r]);
    const base = new Map((byColumn.get('softmax') ?? []).map((r) => [r.config.seed, r.finalLoss]));
    for (const column of orderColumns([...byColumn.keys()])) {
      const runs = byColumn.get(column)!;
      const paired = runs.flatMap((r) =>
        base.has(r.config.seed) && column !== 'softmax'
          ? [r.finalLoss - base.get(r.config.seed)!]
          : [],
      );
      const train = runs
        .map((r) => r.gptEval?.train.at(-1)?.value ?? Number.NaN)
        .filter(Number.isFinite);
      body.push([
        String(T),
        column,
        runs
          .map((r) => r.config.seed)
          .sort((a, b) => a - b)
          .join(', '),
        fmt(meanStd(runs.map((r) => r.finalLoss))),
        fmt(meanStd(runs.map((r) => Math.exp(r.finalLoss))), 2),
        fmt(meanStd(train)),
        paired.length > 0 ? signed(meanStd(paired)) : '—',
        timeCell(runs),
      ]);
    }
  }
  if (records.some(isBaby)) {
    body.push([
      '64',
      'published: nanoGPT softmax (PyTorch)',
      '—',
      PUBLISHED_BABY_VAL_LOSS.toFixed(2),
      Math.exp(PUBLISHED_BABY_VAL_LOSS).toFixed(2),
      '—',
      '—',
      '—',
    ]);
  }
  return { head, body };
}

/** Train and val loss against iteration for every run (one line per run), one panel per split and T. */
export function gptCurvesSpec(records: readonly RunRecord[]): TopLevelSpec | null {
  const values = records.flatMap((r) =>
    (['train', 'val'] as const).flatMap((split) =>
      (r.gptEval?.[split] ?? []).map((p) => ({
        panel: `T=${r.config.length}, ${split} loss`,
        run: `${columnOf(r)} s${r.config.seed}`,
        column: columnOf(r),
        step: p.step,
        loss: p.value,
      })),
    ),
  );
  if (values.length === 0) return null;
  const columns = values.map((v) => v.column);
  const { columns: wrap, ...size } = panelLayout(panelCount(values, 'panel'), {
    maxColumns: 2,
    aspect: 0.62,
    maxHeight: 320,
  });
  const encoding = {
    x: { field: 'step', type: 'quantitative', title: 'iteration' },
    y: {
      field: 'loss',
      type: 'quantitative',
      title: 'loss (nats/char)',
      scale: { zero: false },
      axis: { format: '.2f' },
    },
    detail: { field: 'run', type: 'nominal' },
  };
  return withVariantLegend(columns, {
    ...panels(values, 'panel', wrap),
    spec: { ...size, layer: headlineUnderneath(variantLayers(columns, encoding, true), columns) },
  });
}
