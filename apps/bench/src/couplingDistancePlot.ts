import type { TopLevelSpec } from 'vega-lite';
import { columnPrefix, groupLabel, numericOrder, ROUNDED } from './plots.js';
import { meanStd } from './stats.js';
import type { RunRecord } from './types.js';

/** Mean J_jl against distance |j − l| (mean ± std over seeds of each run's distance average). */
export function couplingDistanceSpec(records: readonly RunRecord[]): TopLevelSpec | null {
  const cells = new Map<string, { series: string; d: number; values: number[] }>();
  const prefix = columnPrefix(records.filter((r) => r.config.variant === 'boltzmann'));
  for (const r of records) {
    if (!r.couplings || r.config.variant !== 'boltzmann') continue;
    const T = r.config.length;
    const series = `${prefix(r)}${groupLabel(r)}, T=${T}`;
    for (let d = 1; d < T; d += 1) {
      let sum = 0;
      for (let j = 0; j + d < T; j += 1) sum += r.couplings[j * T + j + d] ?? 0;
      const key = `${series}|${d}`;
      let c = cells.get(key);
      if (!c) {
        c = { series, d, values: [] };
        cells.set(key, c);
      }
      c.values.push(sum / (T - d));
    }
  }
  if (cells.size === 0) return null;
  const values = [...cells.values()].map((c) => {
    const s = meanStd(c.values);
    return { series: c.series, d: c.d, mean: s.mean, lo: s.mean - s.std, hi: s.mean + s.std };
  });
  const seriesOrder = numericOrder(values.map((v) => v.series));
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    data: { values },
    width: 420,
    height: 260,
    layer: [
      { mark: { type: 'rule', color: '#999' }, encoding: { y: { datum: 0 } } },
      {
        mark: { type: 'line', point: true },
        encoding: {
          x: {
            field: 'd',
            type: 'quantitative',
            title: 'distance |j − l|',
            axis: { format: 'd', tickMinStep: 1 },
          },
          y: {
            field: 'mean',
            type: 'quantitative',
            title: 'mean J_jl at that distance (± std over seeds)',
            axis: ROUNDED,
          },
          color: {
            field: 'series',
            type: 'nominal',
            title: 'boltzmann run',
            legend: { labelLimit: 400 },
            sort: seriesOrder,
          },
        },
      },
      {
        mark: { type: 'errorbar', ticks: true },
        encoding: {
          x: { field: 'd', type: 'quantitative' },
          y: {
            field: 'lo',
            type: 'quantitative',
            title: 'mean J_jl at that distance (± std over seeds)',
          },
          y2: { field: 'hi' },
          // The same sort as the line layer's: Vega warns when unioned domains sort differently.
          color: { field: 'series', type: 'nominal', sort: seriesOrder },
        },
      },
    ],
  };
}
