import type { TopLevelSpec } from 'vega-lite';
import { columnOf, orderColumns } from '../columns.js';
import { groupLabel, numericOrder } from './plots.js';
import { panelCount, panelLayout } from './layout.js';
import type { RunRecord } from '../../recordTypes.js';

/** Cells drawn per side at most: larger maps are pooled (a 64 × 64 map becomes 22 × 22 blocks of 3 × 3). */
export const MAP_CELLS = 24;

/**
 * A `size × size` sum of `n` maps as at most {@link MAP_CELLS}² cells on and below the diagonal:
 * cell (I, J) is the mean over the queries i of block I of Σ_{j ∈ J} w_ij, so a row of cells
 * still sums to 1. Positions are the first query and key of each block.
 */
function pooled(
  sum: Float64Array,
  size: number,
  n: number,
): { query: number; key: number; w: number }[] {
  const f = Math.ceil(size / MAP_CELLS);
  const cells: { query: number; key: number; w: number }[] = [];
  for (let I = 0; I * f < size; I++) {
    const rows = Math.min(f, size - I * f);
    for (let J = 0; J <= I; J++) {
      let total = 0;
      for (let i = I * f; i < I * f + rows; i++)
        for (let j = J * f; j < Math.min((J + 1) * f, size); j++) total += sum[i * size + j]!;
      cells.push({ query: I * f, key: J * f, w: total / (rows * n) });
    }
  }
  return cells;
}

/**
 * The attention maps of the report: for each grid cell (row) and variant (column), the layer 0,
 * head 0 weights `w_ij` on the task's first evaluation sequence — the same text for every run —
 * averaged over seeds; null when no record has a map (records from before maps were kept).
 */
export function attentionMapSpec(records: readonly RunRecord[]): TopLevelSpec | null {
  const acc = new Map<
    string,
    { row: string; column: string; size: number; sum: Float64Array; n: number }
  >();
  for (const r of records) {
    const map = r.attentionMap;
    if (map === undefined) continue;
    const row = `${groupLabel(r)}, T=${r.config.length}${map.size < r.config.length ? ` (first ${map.size})` : ''}`;
    const key = `${row}|${columnOf(r)}`;
    let a = acc.get(key);
    if (!a) {
      a = {
        row,
        column: columnOf(r),
        size: map.size,
        sum: new Float64Array(map.size * map.size),
        n: 0,
      };
      acc.set(key, a);
    }
    map.weights.forEach((w, k) => (a.sum[k]! += w));
    a.n += 1;
  }
  if (acc.size === 0) return null;
  const values = [...acc.values()].flatMap((a) =>
    pooled(a.sum, a.size, a.n).map((c) => ({ row: a.row, column: a.column, ...c })),
  );
  // One column per variant, square maps as wide as the row allows (the rows' labels on the left).
  const { width } = panelLayout(panelCount(values, 'column'), {
    maxColumns: 8,
    aspect: 1,
    legend: 60 + 40,
    maxWidth: 260,
  });
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    data: { values },
    facet: {
      row: {
        field: 'row',
        type: 'nominal',
        title: null,
        sort: numericOrder(values.map((v) => v.row)),
      },
      column: {
        field: 'column',
        type: 'nominal',
        title: null,
        sort: orderColumns(values.map((v) => v.column)),
      },
    },
    resolve: { scale: { x: 'independent', y: 'independent' } },
    spec: {
      width,
      height: width,
      mark: 'rect',
      encoding: {
        x: { field: 'key', type: 'ordinal', title: 'key j', axis: { labelAngle: 0, values: [0] } },
        y: { field: 'query', type: 'ordinal', title: 'query i', axis: { values: [0] } },
        color: {
          field: 'w',
          type: 'quantitative',
          title: 'w_ij',
          scale: { scheme: 'viridis', type: 'sqrt' },
        },
      },
    },
  };
}
