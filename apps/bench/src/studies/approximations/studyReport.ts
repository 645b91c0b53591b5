import type { TopLevelSpec } from 'vega-lite';
import type { RandomRow } from './randomStudy.js';
import type { TrainedRow } from './trainedStudy.js';

const g = (x: number): string =>
  x === 0 ? '0' : Math.abs(x) >= 0.01 && Math.abs(x) < 1000 ? x.toPrecision(3) : x.toExponential(1);

/** The random-problem rows as a Markdown table, one row per (n, σ_J, sampler). */
export function randomTable(rows: readonly RandomRow[]): string {
  const head =
    '| n | σ_J | sampler | max \\|Δm\\| | mean \\|Δm\\| | KL of rows | cos ∂h | cos ∂J | missed |\n|---|---|---|---|---|---|---|---|---|';
  const body = rows.map(
    (r) =>
      `| ${r.n} | ${r.sigmaJ} | ${r.sampler} | ${g(r.maxAbsDm)} | ${g(r.meanAbsDm)} | ${g(r.meanKl)} | ${r.cosGradH.toFixed(4)} | ${r.cosGradJ.toFixed(4)} | ${r.missed}/${r.problems} |`,
  );
  return [head, ...body].join('\n');
}

/** The trained-model rows as a Markdown table. */
export function trainedTable(rows: readonly TrainedRow[]): string {
  const head =
    '| T | seed | method | dropped \\|J\\| | max \\|Δm\\| | mean \\|Δm\\| | KL of rows | cos ∂h | cos ∂J | missed |\n|---|---|---|---|---|---|---|---|---|---|';
  const body = rows.map(
    (r) =>
      `| ${r.T} | ${r.seed} | ${r.method} | ${(100 * r.discardedMass).toFixed(1)} % | ${g(r.maxAbsDm)} | ${g(r.meanAbsDm)} | ${g(r.meanKl)} | ${r.cosGradH.toFixed(4)} | ${r.cosGradJ.toFixed(4)} | ${r.missed}/${r.problems} |`,
  );
  return [head, ...body].join('\n');
}

/** The log-scaled y of both error plots: one value per point, independent per metric row. */
const LOG_VALUE = {
  field: 'value',
  type: 'quantitative',
  scale: { type: 'log' },
  title: null,
  axis: { format: '~e' },
} as const;

/** A point's two error metrics (floored for the log axis), beside its own fields. */
function errorPoints<T extends object>(
  base: T,
  dm: { readonly name: string; readonly value: number },
  meanKl: number,
): (T & { metric: string; value: number })[] {
  return [
    { ...base, metric: dm.name, value: Math.max(dm.value, 1e-16) },
    { ...base, metric: 'mean KL of attention rows', value: Math.max(meanKl, 1e-16) },
  ];
}

/** The two error plots' frame: a metric per row, a panel per `column`, log y. */
function errorFacets(
  values: readonly object[],
  column: { readonly field: string; readonly sortField: string },
  panel: {
    readonly width: number;
    readonly mark: object;
    readonly x: object;
    readonly color: object;
  },
): TopLevelSpec {
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    data: { values },
    facet: {
      row: { field: 'metric', type: 'nominal', title: null },
      column: {
        field: column.field,
        type: 'ordinal',
        title: null,
        sort: { field: column.sortField },
      },
    },
    resolve: { scale: { y: 'independent' } },
    spec: {
      width: panel.width,
      height: 140,
      mark: panel.mark,
      encoding: { x: panel.x, y: LOG_VALUE, color: panel.color },
    },
  } as TopLevelSpec;
}

/** Max |Δm| and row KL against σ_J, log–log, one panel per n, a line per sampler. */
export function randomErrorSpec(rows: readonly RandomRow[]): TopLevelSpec {
  const values = rows.flatMap((r) =>
    errorPoints(
      { n: `n = ${r.n}`, nValue: r.n, sigmaJ: r.sigmaJ, sampler: r.sampler },
      { name: 'max |Δm|', value: r.maxAbsDm },
      r.meanKl,
    ),
  );
  return errorFacets(
    values,
    { field: 'n', sortField: 'nValue' },
    {
      width: 180,
      mark: { type: 'line', point: true },
      x: {
        field: 'sigmaJ',
        type: 'quantitative',
        scale: { type: 'log' },
        title: 'σ_J',
        axis: { format: '~g' },
      },
      color: { field: 'sampler', type: 'nominal', title: 'sampler' },
    },
  );
}

/** Mean |Δm| and row KL of each method on the trained models' problems, a point per seed. */
export function trainedErrorSpec(rows: readonly TrainedRow[]): TopLevelSpec {
  const values = rows.flatMap((r) =>
    errorPoints(
      { T: `T = ${r.T}`, tValue: r.T, method: r.method, seed: `seed ${r.seed}` },
      { name: 'mean |Δm|', value: r.meanAbsDm },
      r.meanKl,
    ),
  );
  return errorFacets(
    values,
    { field: 'T', sortField: 'tValue' },
    {
      width: 220,
      mark: { type: 'point', filled: true, size: 60 },
      x: {
        field: 'method',
        type: 'nominal',
        title: null,
        sort: ['mean-field', 'tap', 'banded w=4', 'banded w=8'],
        axis: { labelAngle: -30 },
      },
      color: { field: 'seed', type: 'nominal', title: null },
    },
  );
}
