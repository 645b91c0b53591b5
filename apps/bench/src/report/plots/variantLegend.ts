// The variants' legend above a plot: each entry a short stretch of the variant's line, in its
// colour and dash, with its point shape on it, then its name. Vega-Lite's own legend draws one
// symbol per entry, a shape or a dash but not both, so this one is drawn as a chart of its own.
import type { TopLevelSpec } from 'vega-lite';
import { PAGE_WIDTH } from './layout.js';
import { variantScales } from './variantColors.js';
import { orderColumns } from '../columns.js';

/** One entry's line, its gap to the name, and the room a character of the name takes (11 px font), px. */
const LINE = 44;
const GAP = 8;
const CHAR = 6.4;
const ROW = 20;

/**
 * The legend chart of `columns`: entries in variant order, as many to a row as fit on
 * {@link PAGE_WIDTH}, at pixel positions (no scales, no axes).
 *
 * @param columns the columns the plot draws (any order, repeats allowed).
 */
export function variantLegend(columns: readonly string[]) {
  const domain = orderColumns(columns);
  const scales = variantScales(domain);
  const entry = LINE + GAP + Math.ceil(Math.max(...domain.map((c) => c.length)) * CHAR) + 24;
  const perRow = Math.max(1, Math.min(domain.length, Math.floor(PAGE_WIDTH / entry)));
  const values = domain.map((column, i) => {
    const x = (i % perRow) * entry;
    return {
      column,
      x0: x,
      x1: x + LINE,
      xm: x + LINE / 2,
      xt: x + LINE + GAP,
      y: 10 + ROW * Math.floor(i / perRow),
    };
  });
  const pixel = (field: string) => ({
    field,
    type: 'quantitative' as const,
    scale: null,
    axis: null,
  });
  const channel = { field: 'column', type: 'nominal', legend: null } as const;
  const color = { ...channel, scale: scales.colour };
  return {
    data: { values },
    width: perRow * entry,
    height: ROW * Math.ceil(domain.length / perRow),
    view: { stroke: null },
    layer: [
      {
        mark: { type: 'rule', strokeWidth: 2 },
        encoding: {
          x: pixel('x0'),
          x2: { field: 'x1' },
          y: pixel('y'),
          color,
          strokeDash: { ...channel, scale: scales.dash },
        },
      },
      {
        mark: { type: 'point', filled: false, size: 60, strokeWidth: 1.5, opacity: 1 },
        encoding: {
          x: pixel('xm'),
          y: pixel('y'),
          color,
          shape: { ...channel, scale: scales.shape },
        },
      },
      {
        mark: { type: 'text', align: 'left', baseline: 'middle', fontSize: 11 },
        encoding: { x: pixel('xt'), y: pixel('y'), text: { field: 'column' } },
      },
    ],
  };
}

/**
 * A plot of one series per variant with {@link variantLegend} above it: the plot's own
 * legends are left out (variantEncoding gives them none).
 *
 * @param columns the columns the plot draws.
 * @param chart the plot (a faceted or single view, with its data, without `$schema`).
 */
export function withVariantLegend<C extends { $schema?: string }>(
  columns: readonly string[],
  chart: C,
): TopLevelSpec {
  const { $schema: _, ...view } = chart;
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    vconcat: [variantLegend(columns), view],
    spacing: 12,
  } as TopLevelSpec;
}
