import type { TopLevelSpec } from 'vega-lite';
import { columnOf, orderColumns } from './columns.js';
import { groupLabel, numericOrder } from './plots/plots.js';
import { meanStd } from './stats.js';
import type { Table } from './summaryTable.js';
import { panelLayout } from './plots/layout.js';
import type { RunRecord } from '../recordTypes.js';

/**
 * How an iterative sampler (tap, mean-field) converged during training, per column, group (FFN,
 * d_model, mode) and T: over all training-step calls of a run, the share of problems that missed
 * the tolerance, the mean and largest iteration counts and the largest residual; mean over the
 * runs (seeds) where it is a mean.
 *
 * @returns the table, or null when no record has convergence figures.
 */
export function convergenceTable(records: readonly RunRecord[]): Table | null {
  const cells = new Map<
    string,
    {
      column: string;
      group: string;
      T: number;
      runs: NonNullable<RunRecord['convergence']>['total'][];
    }
  >();
  for (const r of records) {
    if (r.convergence === undefined) continue;
    const group = groupLabel(r);
    const key = `${columnOf(r)}|${group}|${r.config.length}`;
    const c = cells.get(key) ?? { column: columnOf(r), group, T: r.config.length, runs: [] };
    c.runs.push(r.convergence.total);
    cells.set(key, c);
  }
  if (cells.size === 0) return null;
  const order = orderColumns([...cells.values()].map((c) => c.column));
  const rows = [...cells.values()].sort(
    (a, b) =>
      order.indexOf(a.column) - order.indexOf(b.column) ||
      a.group.localeCompare(b.group) ||
      a.T - b.T,
  );
  const pct = (x: number): string => `${(100 * x).toPrecision(2)} %`;
  return {
    head: [
      'variant',
      'group',
      'T',
      'runs',
      'problems per run',
      'missed the tolerance',
      'mean iterations',
      'max iterations',
      'max residual',
    ],
    body: rows.map((c) => {
      const missed = meanStd(c.runs.map((t) => t.missed / t.problems));
      return [
        c.column,
        c.group,
        String(c.T),
        String(c.runs.length),
        meanStd(c.runs.map((t) => t.problems)).mean.toExponential(2),
        pct(missed.mean),
        meanStd(c.runs.map((t) => t.meanIterations)).mean.toFixed(1),
        String(Math.max(...c.runs.map((t) => t.maxIterations))),
        Math.max(...c.runs.map((t) => t.maxResidual)).toExponential(1),
      ];
    }),
  };
}

/** Mean fixed-point iterations and the share of missed problems over training, one line per run; null without figures. */
export function convergenceSpec(records: readonly RunRecord[]): TopLevelSpec | null {
  const values = records.flatMap((r) =>
    (r.convergence?.points ?? []).flatMap((p) => [
      {
        panel: 'mean iterations per problem',
        run: `${columnOf(r)} ${groupLabel(r)} T=${r.config.length} s${r.config.seed}`,
        series: `${columnOf(r)}, ${groupLabel(r)}, T=${r.config.length}`,
        step: p.step,
        value: p.meanIterations,
      },
      {
        panel: 'share of problems that missed the tolerance',
        run: `${columnOf(r)} ${groupLabel(r)} T=${r.config.length} s${r.config.seed}`,
        series: `${columnOf(r)}, ${groupLabel(r)}, T=${r.config.length}`,
        step: p.step,
        value: p.missed / p.problems,
      },
    ]),
  );
  if (values.length === 0) return null;
  // The legend above the two panels: its run groups' names are long.
  const { width, height } = panelLayout(2, { maxColumns: 2, aspect: 0.55, maxHeight: 300 });
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    data: { values },
    facet: { field: 'panel', type: 'nominal', title: null },
    columns: 2,
    resolve: { scale: { y: 'independent' } },
    spec: {
      width,
      height,
      mark: 'line',
      encoding: {
        x: { field: 'step', type: 'quantitative', axis: { format: 'd' } },
        y: { field: 'value', type: 'quantitative', title: null, axis: { format: '.3~r' } },
        color: {
          field: 'series',
          type: 'nominal',
          title: 'run group',
          sort: numericOrder(values.map((v) => v.series)),
          legend: { labelLimit: 600, orient: 'top', direction: 'vertical' },
        },
        detail: { field: 'run', type: 'nominal' },
      },
    },
  };
}
