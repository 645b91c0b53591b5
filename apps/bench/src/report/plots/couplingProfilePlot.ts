import type { TopLevelSpec } from 'vega-lite';
import { columnOf } from '../columns.js';
import { groupSuffix, panels } from './plots.js';
import { panelCount, panelLayout } from './layout.js';
import { meanStd } from '../stats.js';
import type { RunRecord } from '../../recordTypes.js';

/**
 * The learned J by distance for every (layer, head): one panel per (column, group, T, layer), one
 * line per head, mean over seeds — the paper's pattern is positive at short distances and
 * negative further away. Null when no record has a coupling profile.
 */
export function couplingProfileSpec(records: readonly RunRecord[]): TopLevelSpec | null {
  const acc = new Map<string, { panel: string; head: string; d: number; values: number[] }>();
  const group = groupSuffix(records.filter((r) => r.couplingProfile));
  for (const r of records) {
    const profile = r.couplingProfile;
    if (!profile) continue;
    const heads = r.config.heads;
    profile.forEach((row, k) => {
      const panel = `${columnOf(r)}${group(r)}, T=${r.config.length}, layer ${Math.floor(k / heads)}`;
      row.forEach((J, i) => {
        const key = `${panel}|${k % heads}|${i}`;
        const a = acc.get(key) ?? { panel, head: `head ${k % heads}`, d: i + 1, values: [] };
        a.values.push(J);
        acc.set(key, a);
      });
    });
  }
  if (acc.size === 0) return null;
  const values = [...acc.values()].map((a) => ({
    panel: a.panel,
    head: a.head,
    d: a.d,
    J: meanStd(a.values).mean,
  }));
  const { columns, ...size } = panelLayout(panelCount(values, 'panel'), {
    maxColumns: 4,
    aspect: 0.62,
    legend: 70,
    maxHeight: 260,
  });
  return {
    ...panels(values, 'panel', columns, ['y']),
    spec: {
      ...size,
      layer: [
        { mark: { type: 'rule', color: '#999' }, encoding: { y: { datum: 0 } } },
        {
          mark: 'line',
          encoding: {
            x: {
              field: 'd',
              type: 'quantitative',
              title: 'distance',
              scale: { type: 'log', nice: false },
              axis: { format: 'd' },
            },
            y: { field: 'J', type: 'quantitative', title: 'mean J', axis: { format: '.2~r' } },
            color: { field: 'head', type: 'nominal', title: null },
          },
        },
      ],
    },
  };
}
