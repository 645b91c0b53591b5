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

/** Max |Δm| and row KL against σ_J, log–log, one panel per n, a line per sampler. */
export function randomErrorSpec(rows: readonly RandomRow[]): TopLevelSpec {
  const values = rows.flatMap((r) => [
    {
      n: `n = ${r.n}`,
      nValue: r.n,
      sigmaJ: r.sigmaJ,
      sampler: r.sampler,
      metric: 'max |Δm|',
      value: Math.max(r.maxAbsDm, 1e-16),
    },
    {
      n: `n = ${r.n}`,
      nValue: r.n,
      sigmaJ: r.sigmaJ,
      sampler: r.sampler,
      metric: 'mean KL of attention rows',
      value: Math.max(r.meanKl, 1e-16),
    },
  ]);
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    data: { values },
    facet: {
      row: { field: 'metric', type: 'nominal', title: null },
      column: { field: 'n', type: 'ordinal', title: null, sort: { field: 'nValue' } },
    },
    resolve: { scale: { y: 'independent' } },
    spec: {
      width: 180,
      height: 140,
      mark: { type: 'line', point: true },
      encoding: {
        x: {
          field: 'sigmaJ',
          type: 'quantitative',
          scale: { type: 'log' },
          title: 'σ_J',
          axis: { format: '~g' },
        },
        y: {
          field: 'value',
          type: 'quantitative',
          scale: { type: 'log' },
          title: null,
          axis: { format: '~e' },
        },
        color: { field: 'sampler', type: 'nominal', title: 'sampler' },
      },
    },
  };
}

/** Mean |Δm| and row KL of each method on the trained models' problems, a point per seed. */
export function trainedErrorSpec(rows: readonly TrainedRow[]): TopLevelSpec {
  const values = rows.flatMap((r) => [
    {
      T: `T = ${r.T}`,
      tValue: r.T,
      method: r.method,
      seed: `seed ${r.seed}`,
      metric: 'mean |Δm|',
      value: Math.max(r.meanAbsDm, 1e-16),
    },
    {
      T: `T = ${r.T}`,
      tValue: r.T,
      method: r.method,
      seed: `seed ${r.seed}`,
      metric: 'mean KL of attention rows',
      value: Math.max(r.meanKl, 1e-16),
    },
  ]);
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    data: { values },
    facet: {
      row: { field: 'metric', type: 'nominal', title: null },
      column: { field: 'T', type: 'ordinal', title: null, sort: { field: 'tValue' } },
    },
    resolve: { scale: { y: 'independent' } },
    spec: {
      width: 220,
      height: 140,
      mark: { type: 'point', filled: true, size: 60 },
      encoding: {
        x: {
          field: 'method',
          type: 'nominal',
          title: null,
          sort: ['mean-field', 'tap', 'banded w=4', 'banded w=8'],
          axis: { labelAngle: -30 },
        },
        y: {
          field: 'value',
          type: 'quantitative',
          scale: { type: 'log' },
          title: null,
          axis: { format: '~e' },
        },
        color: { field: 'seed', type: 'nominal', title: null },
      },
    },
  };
}
