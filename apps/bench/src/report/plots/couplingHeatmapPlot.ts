import type { TopLevelSpec } from 'vega-lite';
import { columnPrefix, groupLabel, panels } from './plots.js';
import { panelCount, panelLayout } from './layout.js';
import type { RunRecord } from '../../recordTypes.js';

/**
 * Cells drawn per side at most. A longer T is pooled into blocks (T = 256 into 32 × 32 blocks
 * of 8 × 8), which keeps a panel's SVG near a thousand rects instead of 32,640.
 */
export const HEATMAP_CELLS = 32;

/** Ordinal key axes: upright labels, every other one dropped until they no longer overlap. */
const SPARSE_LABELS = { labelAngle: 0, labelOverlap: 'parity' } as const;

type Cell = { panel: string; j: number; l: number; J: number };

/**
 * Mean learned J over seeds per (group, T, column) as heatmap cells on and above the diagonal.
 * With T > {@link HEATMAP_CELLS}, cell (I, L) is the mean of J_jl over the pairs j < l of key
 * blocks I and L, placed at the blocks' first keys, and the panel's name says the block size.
 */
function meanCouplings(records: readonly RunRecord[]): Cell[] {
  const prefix = columnPrefix(records);
  const acc = new Map<string, { T: number; sum: Float64Array; n: number }>();
  for (const r of records) {
    if (!r.couplings) continue;
    const T = r.config.length;
    const f = Math.ceil(T / HEATMAP_CELLS);
    const panel = `${prefix(r)}${groupLabel(r)}, T=${T}${f > 1 ? ` (${f} × ${f} blocks)` : ''}`;
    let a = acc.get(panel);
    if (!a) {
      a = { T, sum: new Float64Array(T * T), n: 0 };
      acc.set(panel, a);
    }
    for (let i = 0; i < T * T; i += 1) a.sum[i]! += r.couplings[i] ?? 0;
    a.n += 1;
  }
  const out: Cell[] = [];
  for (const [panel, { T, sum, n }] of acc) {
    const f = Math.ceil(T / HEATMAP_CELLS);
    for (let j0 = 0; j0 < T; j0 += f)
      for (let l0 = j0; l0 < T; l0 += f) {
        let total = 0;
        let pairs = 0;
        for (let j = j0; j < Math.min(j0 + f, T); j += 1)
          for (let l = Math.max(l0, j + 1); l < Math.min(l0 + f, T); l += 1) {
            total += sum[j * T + l]!;
            pairs += 1;
          }
        if (pairs > 0) out.push({ panel, j: j0, l: l0, J: total / (pairs * n) });
      }
  }
  return out;
}

/** The learned couplings J_jl (mean over seeds) as heatmaps, one panel per run group; null if no run has J. */
export function couplingHeatmapSpec(records: readonly RunRecord[]): TopLevelSpec | null {
  const values = meanCouplings(records.filter((r) => r.config.variant === 'boltzmann'));
  if (values.length === 0) return null;
  const { columns, ...size } = panelLayout(panelCount(values, 'panel'), {
    maxColumns: 3,
    aspect: 1,
    legend: 60,
    maxWidth: 320,
  });
  return {
    ...panels(values, 'panel', columns, ['x', 'y']),
    spec: {
      ...size,
      mark: 'rect',
      encoding: {
        x: { field: 'l', type: 'ordinal', title: 'key l', axis: SPARSE_LABELS },
        y: { field: 'j', type: 'ordinal', title: 'key j', axis: SPARSE_LABELS },
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
