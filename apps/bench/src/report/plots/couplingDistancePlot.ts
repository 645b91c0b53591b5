import { meanCouplingByDistance } from '@boltzmann/ising-core';
import type { TopLevelSpec } from 'vega-lite';
import { columnPrefix, groupLabel, numericOrder, panels, ROUNDED } from './plots.js';
import { panelCount, panelLayout } from './layout.js';
import { meanStd } from '../stats.js';
import type { RunRecord } from '../../recordTypes.js';

/**
 * Mean J_jl against distance |j − l| (mean ± std over seeds of each run's distance average): one
 * panel per column and group, one line per T, distance on a log axis so that d = 1–8 stay
 * readable beside T = 256.
 */
export function couplingDistanceSpec(records: readonly RunRecord[]): TopLevelSpec | null {
  const cells = new Map<string, { panel: string; series: string; d: number; values: number[] }>();
  const prefix = columnPrefix(records.filter((r) => r.config.variant === 'boltzmann'));
  for (const r of records) {
    if (!r.couplings || r.config.variant !== 'boltzmann') continue;
    const T = r.config.length;
    const panel = `${prefix(r)}${groupLabel(r)}`;
    const series = `T=${T}`;
    meanCouplingByDistance(r.couplings, T).forEach((mean, k) => {
      const d = k + 1;
      const key = `${panel}|${series}|${d}`;
      let c = cells.get(key);
      if (!c) {
        c = { panel, series, d, values: [] };
        cells.set(key, c);
      }
      c.values.push(mean);
    });
  }
  if (cells.size === 0) return null;
  const values = [...cells.values()].map((c) => {
    const s = meanStd(c.values);
    const { panel, series, d } = c;
    return { panel, series, d, mean: s.mean, lo: s.mean - s.std, hi: s.mean + s.std };
  });
  const seriesOrder = numericOrder(values.map((v) => v.series));
  const distance = {
    field: 'd',
    type: 'quantitative' as const,
    title: 'distance |j − l| (log scale)',
    scale: { type: 'log' as const, nice: false },
    axis: { format: 'd', values: [1, 2, 4, 8, 16, 32, 64, 128, 256] },
  };
  // Shorter than the panel's height, or Vega stretches the rows to fit the rotated title.
  const title = 'mean J_jl (± std, seeds)';
  const { columns, ...size } = panelLayout(panelCount(values, 'panel'), {
    maxColumns: 2,
    aspect: 0.55,
    legend: 70,
    maxHeight: 300,
  });
  return {
    ...panels(values, 'panel', columns, ['y']),
    spec: {
      ...size,
      layer: [
        { mark: { type: 'rule', color: '#999' }, encoding: { y: { datum: 0 } } },
        {
          mark: { type: 'line', point: { size: 12 } },
          encoding: {
            x: distance,
            y: { field: 'mean', type: 'quantitative', title, axis: ROUNDED },
            color: { field: 'series', type: 'nominal', title: 'length', sort: seriesOrder },
          },
        },
        {
          mark: { type: 'errorbar' },
          encoding: {
            x: distance,
            y: { field: 'lo', type: 'quantitative', title },
            y2: { field: 'hi' },
            // The same sort as the line layer's: Vega warns when unioned domains sort differently.
            color: { field: 'series', type: 'nominal', sort: seriesOrder },
          },
        },
      ],
    },
  };
}
