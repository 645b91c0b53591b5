import type { TopLevelSpec } from 'vega-lite';
import { columnPrefix, groupLabel, panels } from './plots.js';
import type { RunRecord } from './types.js';

/** Mean learned J over seeds per (group, T, column), as heatmap cells (j < l only). */
function meanCouplings(
  records: readonly RunRecord[],
): { panel: string; j: number; l: number; J: number }[] {
  const prefix = columnPrefix(records);
  const acc = new Map<string, { T: number; sum: Float64Array; n: number }>();
  for (const r of records) {
    if (!r.couplings) continue;
    const T = r.config.length;
    const panel = `${prefix(r)}${groupLabel(r)}, T=${T}`;
    let a = acc.get(panel);
    if (!a) {
      a = { T, sum: new Float64Array(T * T), n: 0 };
      acc.set(panel, a);
    }
    for (let i = 0; i < T * T; i += 1) a.sum[i]! += r.couplings[i] ?? 0;
    a.n += 1;
  }
  const out: { panel: string; j: number; l: number; J: number }[] = [];
  for (const [panel, a] of acc) {
    for (let j = 0; j < a.T; j += 1)
      for (let l = j + 1; l < a.T; l += 1) out.push({ panel, j, l, J: a.sum[j * a.T + l]! / a.n });
  }
  return out;
}

/** The learned couplings J_jl (mean over seeds) as heatmaps, one panel per run group; null if no run has J. */
export function couplingHeatmapSpec(records: readonly RunRecord[]): TopLevelSpec | null {
  const values = meanCouplings(records.filter((r) => r.config.variant === 'boltzmann'));
  if (values.length === 0) return null;
  return {
    ...panels(values, 'panel', 3, ['x', 'y']),
    spec: {
      width: 180,
      height: 180,
      mark: 'rect',
      encoding: {
        x: { field: 'l', type: 'ordinal', title: 'key l' },
        y: { field: 'j', type: 'ordinal', title: 'key j' },
        color: {
          field: 'J',
          type: 'quantitative',
          title: 'J_jl',
          scale: { scheme: 'redblue', domainMid: 0, reverse: true },
        },
        tooltip: [{ field: 'J', type: 'quantitative', format: '.4f' }],
      },
    },
  };
}
