// The final metric against a length (or the pairs of a recall task): one panel per group, one line
// per variant with its spread over seeds as error bars.
import type { TopLevelSpec } from 'vega-lite';
import { columnOf } from '../columns.js';
import { meanStd } from '../stats.js';
import { CURVE_PANELS, panelCount, panelLayout } from './layout.js';
import { groupLabel, metricTitle, panels, roundedAxis } from './plots.js';
import { headlineUnderneath, variantEncoding, variantLayers } from './variantColors.js';
import { withVariantLegend } from './variantLegend.js';
import type { RunRecord } from '../../recordTypes.js';

/** One point of a metric-against-length plot: mean ± std over seeds of one variant at one T. */
export interface LengthPoint {
  readonly group: string;
  readonly column: string;
  readonly T: number;
  readonly values: readonly number[];
}

/**
 * The final metric of every seed per (panel, column, x): `at` gives a run's panel and x, or
 * undefined to leave the run out.
 */
export function lengthPoints(
  records: readonly RunRecord[],
  at: (r: RunRecord) => { readonly group: string; readonly T: number } | undefined,
): LengthPoint[] {
  const cells = new Map<string, LengthPoint & { values: number[] }>();
  for (const r of records) {
    const where = at(r);
    if (!where) continue;
    const column = columnOf(r);
    const key = `${where.group}|${column}|${where.T}`;
    let c = cells.get(key);
    if (!c) {
      c = { group: where.group, column, T: where.T, values: [] };
      cells.set(key, c);
    }
    c.values.push(r.finalMetric);
  }
  return [...cells.values()];
}

/** Final metric against context length T, one panel per group and one line per variant, ± std over seeds. */
export function metricVsLengthSpec(records: readonly RunRecord[]): TopLevelSpec {
  const points = lengthPoints(records, (r) => ({ group: groupLabel(r), T: r.config.length }));
  const bounds = records[0]?.metricName === 'accuracy' ? ACCURACY_RANGE : undefined;
  return lengthSpec(points, metricTitle(records[0]), 'context length T', bounds);
}

/** An accuracy's range: error bars are cut to it, so no bar claims more than 100 %. */
export const ACCURACY_RANGE: readonly [number, number] = [0, 1];

/**
 * Mean ± std of `values` against T: one panel per group, one line with error bars per column.
 *
 * @param yTitle the metric's name (the axis adds "mean ± std over seeds").
 * @param bounds the metric's range, for a bounded one (accuracy): the bars are cut to it and the
 *   axis says so.
 */
export function lengthSpec(
  points: readonly LengthPoint[],
  yTitle: string,
  xTitle: string,
  bounds?: readonly [number, number],
): TopLevelSpec {
  const [floor, ceiling] = bounds ?? [Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY];
  const cut = (v: number): number => Math.min(ceiling, Math.max(floor, v));
  const values = points.map((c) => {
    const s = meanStd(c.values);
    const { group, column, T } = c;
    return {
      group,
      column,
      T,
      mean: s.mean,
      lo: cut(s.mean - s.std),
      hi: cut(s.mean + s.std),
      n: s.n,
    };
  });
  // Two lines: one would be taller than the plot, and Vega pads the chart to fit it.
  const spread = bounds
    ? `mean ± std over seeds, within ${floor}–${ceiling}`
    : 'mean ± std over seeds';
  const title = [yTitle, `(${spread})`];
  const columns = values.map((v) => v.column);
  // One length is one column of points: a narrow panel, not a strip across the page.
  const oneT = panelCount(values, 'T') === 1 ? { maxWidth: 360 } : {};
  const shape = { ...CURVE_PANELS, ...oneT };
  const { columns: wrap, ...size } = panelLayout(panelCount(values, 'group'), shape);
  const x = {
    field: 'T',
    type: 'quantitative',
    title: xTitle,
    axis: { format: 'd', tickMinStep: 1 },
  };
  const axis = roundedAxis(values.flatMap((v) => [v.lo, v.hi]));
  const y = { field: 'mean', type: 'quantitative', title, scale: { zero: false }, axis };
  const errorbar = {
    mark: { type: 'errorbar', ticks: true },
    encoding: {
      x: { field: 'T', type: 'quantitative' },
      y: { field: 'lo', type: 'quantitative', title },
      y2: { field: 'hi' },
      color: variantEncoding(columns).color,
    },
  };
  return withVariantLegend(columns, {
    ...panels(values, 'group', wrap),
    spec: {
      ...size,
      layer: headlineUnderneath([...variantLayers(columns, { x, y }, true), errorbar], columns),
    },
  });
}
