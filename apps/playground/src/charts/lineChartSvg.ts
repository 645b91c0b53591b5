/** One frame of the line chart as SVG: scales, grid, the series' lines and dots, a marker. */
import type { ChartMarker, LineChartOptions, Series } from './lineChartTypes.js';
import { appendYTicks, plotFrame } from './plotGrid.js';
import { linearScale, logScale } from './scale.js';
import type { Scale } from './scale.js';
import { appendAxisTitles, svgEl } from './svg.js';
import type { PlotArea } from './svg.js';

const MARGIN = { top: 10, right: 14, bottom: 42, left: 56 };

/** The plot area of one frame and the scales that map data onto it. */
interface Plot extends PlotArea {
  readonly x: Scale;
  readonly y: Scale;
  /** The x domain's ends, which explicit x ticks are kept within. */
  readonly x0: number;
  readonly x1: number;
}

function extent(
  values: number[],
  log: boolean,
  fixed: readonly [number | undefined, number | undefined] | undefined,
): [number, number] {
  const usable = log ? values.filter((v) => v > 0) : values.filter(Number.isFinite);
  let lo = fixed?.[0] ?? (usable.length ? Math.min(...usable) : log ? 1 : 0);
  let hi = fixed?.[1] ?? (usable.length ? Math.max(...usable) : log ? 10 : 1);
  if (!log && hi > lo) {
    const pad = (hi - lo) * 0.05;
    if (fixed?.[0] === undefined) lo -= pad;
    if (fixed?.[1] === undefined) hi += pad;
  }
  return [lo, hi];
}

/** The plot area at this width and height, and linear or log scales over the data (and marker). */
function plotScales(
  width: number,
  height: number,
  options: LineChartOptions,
  series: readonly Series[],
  marker: ChartMarker | undefined,
): Plot {
  const plotW = Math.max(40, width - MARGIN.left - MARGIN.right);
  const plotH = height - MARGIN.top - MARGIN.bottom;
  const xs = series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = series.flatMap((s) => s.points.map((p) => p[1]));
  if (marker) xs.push(marker.x);
  const [x0, x1] = extent(xs, options.xLog === true, options.xDomain);
  const [y0, y1] = extent(ys, options.yLog === true, options.yDomain);
  const x: Scale = options.xLog
    ? logScale(x0, x1, MARGIN.left, MARGIN.left + plotW)
    : linearScale(x0, x1, MARGIN.left, MARGIN.left + plotW, Math.max(2, Math.floor(plotW / 70)));
  const y: Scale = options.yLog
    ? logScale(y0, y1, MARGIN.top + plotH, MARGIN.top)
    : linearScale(y0, y1, MARGIN.top + plotH, MARGIN.top, 5);
  return { margin: MARGIN, plotW, plotH, height, x, y, x0, x1 };
}

/** The grid: y rules and labels, x tick marks and labels (the explicit ones if given), the frame. */
function gridLayer(plot: Plot, xTicks: readonly number[] | undefined): SVGGElement {
  const { x, x0, x1, plotH } = plot;
  const grid = svgEl('g', { class: 'grid' });
  appendYTicks(grid, plot.y, plot);
  const ticks = xTicks?.filter((t) => t >= Math.min(x0, x1) && t <= Math.max(x0, x1)) ?? x.ticks;
  for (const t of ticks) {
    grid.append(
      svgEl('line', { x1: x(t), x2: x(t), y1: MARGIN.top + plotH, y2: MARGIN.top + plotH + 4 }),
    );
    grid.append(
      svgEl(
        'text',
        { x: x(t), y: MARGIN.top + plotH + 16, 'text-anchor': 'middle', class: 'tick' },
        x.format(t),
      ),
    );
  }
  grid.append(plotFrame(plot));
  return grid;
}

/** A group clipped to the plot area (its clip path appended to `svg`), for the series and marker. */
function clippedGroup(svg: SVGSVGElement, plot: Plot): SVGGElement {
  const clipId = `clip-${Math.random().toString(36).slice(2)}`;
  const clip = svgEl('clipPath', { id: clipId });
  clip.append(
    svgEl('rect', { x: MARGIN.left, y: MARGIN.top - 2, width: plot.plotW, height: plot.plotH + 4 }),
  );
  svg.append(clip);
  return svgEl('g', { 'clip-path': `url(#${clipId})` });
}

/** Appends one series to `group`: its line (a path), its dots, or both; points a log axis cannot show are left out. */
function appendSeries(group: SVGGElement, s: Series, plot: Plot, options: LineChartOptions): void {
  const { x, y } = plot;
  const mode = s.mode ?? 'line';
  const pts = s.points.filter(
    (p) => Number.isFinite(p[1]) && (!options.yLog || p[1] > 0) && (!options.xLog || p[0] > 0),
  );
  if (mode !== 'points' && pts.length > 1) {
    const d = pts
      .map((p, i) => `${i ? 'L' : 'M'}${x(p[0]).toFixed(1)},${y(p[1]).toFixed(1)}`)
      .join('');
    group.append(
      svgEl('path', {
        d,
        fill: 'none',
        stroke: s.color,
        'stroke-width': s.width ?? 2,
        'stroke-opacity': s.opacity ?? 1,
        ...(s.dashed ? { 'stroke-dasharray': '5 4' } : {}),
      }),
    );
  }
  if (mode === 'line') return;
  for (const p of pts)
    group.append(
      svgEl('circle', {
        cx: x(p[0]),
        cy: y(p[1]),
        r: 3,
        fill: s.color,
        'fill-opacity': s.opacity ?? 1,
      }),
    );
}

/** The marker: its rule in the clipped `group`, its label in `svg` (kept inside the plot's right edge). */
function appendMarker(
  svg: SVGSVGElement,
  group: SVGGElement,
  plot: Plot,
  marker: ChartMarker,
): void {
  const mx = plot.x(marker.x);
  const right = MARGIN.left + plot.plotW;
  group.append(
    svgEl('line', { x1: mx, x2: mx, y1: MARGIN.top, y2: MARGIN.top + plot.plotH, class: 'marker' }),
  );
  svg.append(
    svgEl(
      'text',
      {
        x: Math.min(mx + 4, right - 4),
        y: MARGIN.top + 12,
        'text-anchor': mx + 80 > right ? 'end' : 'start',
        class: 'marker-label',
      },
      marker.label,
    ),
  );
}

/** The text centred in the plot while there is no data. */
function emptyLabel(plot: Plot, text: string): SVGTextElement {
  return svgEl(
    'text',
    {
      x: MARGIN.left + plot.plotW / 2,
      y: MARGIN.top + plot.plotH / 2,
      'text-anchor': 'middle',
      class: 'empty',
    },
    text,
  );
}

/** The text alternative: each legend series' last point, or the empty text. */
function chartSummary(options: LineChartOptions, series: readonly Series[], plot: Plot): string {
  const summary = series
    .filter((s) => !s.hideInLegend && s.points.length > 0)
    .map((s) => {
      const last = s.points[s.points.length - 1]!;
      return `${s.label}: last ${options.yLabel} ${plot.y.format(last[1])} at ${options.xLabel} ${plot.x.format(last[0])}`;
    });
  return `${options.title}. ${summary.join('; ') || options.emptyText || 'no data'}`;
}

/**
 * Draws the chart at `width` × `height` px: grid, axis titles, the series clipped to the plot,
 * the marker if any, the empty text while no series has points, and the text alternative in
 * `aria-label`.
 *
 * @param width - the SVG's width in px (the container's)
 * @param height - the SVG's height in px
 * @param options - the chart's titles, axes and domains
 * @param series - what to draw, in drawing order
 * @param marker - a labelled vertical rule, or `undefined`
 * @returns the chart's `svg` element
 */
export function drawLineChart(
  width: number,
  height: number,
  options: LineChartOptions,
  series: readonly Series[],
  marker: ChartMarker | undefined,
): SVGSVGElement {
  const svg = svgEl('svg', { width, height, viewBox: `0 0 ${width} ${height}`, role: 'img' });
  const plot = plotScales(width, height, options, series, marker);
  svg.append(gridLayer(plot, options.xTicks));
  appendAxisTitles(svg, plot, options.xLabel, options.yLabel, 6);
  const group = clippedGroup(svg, plot);
  for (const s of series) appendSeries(group, s, plot, options);
  if (marker) appendMarker(svg, group, plot, marker);
  svg.append(group);
  if (series.every((s) => s.points.length === 0) && options.emptyText)
    svg.append(emptyLabel(plot, options.emptyText));
  svg.setAttribute('aria-label', chartSummary(options, series, plot));
  return svg;
}
