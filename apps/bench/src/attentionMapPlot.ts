import type { TopLevelSpec } from 'vega-lite';
import { columnOf, orderColumns } from './columns.js';
import { groupLabel, numericOrder } from './plots.js';
import type { RunRecord } from './types.js';

/**
 * The attention maps of the report: for each grid cell (row) and variant (column), the layer 0,
 * head 0 weights `w_ij` on the task's first evaluation sequence — the same text for every run —
 * averaged over seeds; null when no record has a map (records from before maps were kept).
 */
export function attentionMapSpec(records: readonly RunRecord[]): TopLevelSpec | null {
  const acc = new Map<string, { row: string; column: string; size: number; sum: Float64Array; n: number }>();
  for (const r of records) {
    const map = r.attentionMap;
    if (map === undefined) continue;
    const row = `${groupLabel(r)}, T=${r.config.length}${map.size < r.config.length ? ` (first ${map.size})` : ''}`;
    const key = `${row}|${columnOf(r)}`;
    let a = acc.get(key);
    if (!a) acc.set(key, (a = { row, column: columnOf(r), size: map.size, sum: new Float64Array(map.size * map.size), n: 0 }));
    map.weights.forEach((w, k) => (a!.sum[k]! += w));
    a.n += 1;
  }
  if (acc.size === 0) return null;
  const values = [...acc.values()].flatMap((a) =>
    Array.from({ length: a.size * a.size }, (_, k) => ({ row: a.row, column: a.column, query: Math.floor(k / a.size), key: k % a.size, w: a.sum[k]! / a.n })).filter(
      (v) => v.key <= v.query,
    ),
  );
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    data: { values },
    facet: {
      row: { field: 'row', type: 'nominal', title: null, sort: numericOrder(values.map((v) => v.row)) },
      column: { field: 'column', type: 'nominal', title: null, sort: orderColumns(values.map((v) => v.column)) },
    },
    resolve: { scale: { x: 'independent', y: 'independent' } },
    spec: {
      width: 150,
      height: 150,
      mark: 'rect',
      encoding: {
        x: { field: 'key', type: 'ordinal', title: 'key j', axis: { labelAngle: 0, values: [0] } },
        y: { field: 'query', type: 'ordinal', title: 'query i', axis: { values: [0] } },
        color: { field: 'w', type: 'quantitative', title: 'w_ij', scale: { scheme: 'viridis', type: 'sqrt' } },
        tooltip: [{ field: 'w', type: 'quantitative', format: '.3f' }],
      },
    },
  };
}
