import { linearScale, logScale } from './scale.js';
import type { Scale } from './scale.js';
import { appendAxisTitles, createFigure, onWidthChange, svgEl } from './svg.js';

/** One series: a line through its points, dots at its points, or both. */
export interface Series {
  readonly label: string;
  readonly color: string;
  readonly points: ReadonlyArray<readonly [number, number]>;
  readonly mode?: 'line' | 'points' | 'line+points';
  readonly dashed?: boolean;
  /** Leave out of the legend (e.g. a faint raw curve under its smoothed one). */
  readonly hideInLegend?: boolean;
  readonly opacity?: number;
  /** Line width in px (default 2): a wider line under a narrower one keeps both visible where they overlap. */
  readonly width?: number;
}

export interface LineChartOptions {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly xLog?: boolean;
  /** Explicit x ticks (e.g. the τ values of a sweep) instead of computed ones. */
  readonly xTicks?: readonly number[];
  readonly yLog?: boolean;
  /** Fixed domain ends; the data's extent otherwise. */
  readonly xDomain?: readonly [number | undefined, number | undefined];
  readonly yDomain?: readonly [number | undefined, number | undefined];
  readonly height?: number;
  /** Shown when there is no data yet. */
  readonly emptyText?: string;
}

export interface LineChart {
  readonly element: HTMLElement;
  update(series: readonly Series[], marker?: { x: number; label: string }): void;
}

const MARGIN = { top: 10, right: 14, bottom: 42, left: 56 };

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

/**
 * An SVG line chart drawn at the container's pixel width (redrawn on resize), with axis titles,
 * ticks, an HTML legend and a text alternative in `aria-label`.
 */
export function createLineChart(parent: HTMLElement, options: LineChartOptions): LineChart {
  const { figure, body, setLegend } = createFigure(parent, options.title, []);
  const height = options.height ?? 230;
  let current: readonly Series[] = [];
  let marker: { x: number; label: string } | undefined;

  const render = (width: number): void => {
    const svg = svgEl('svg', { width, height, viewBox: `0 0 ${width} ${height}`, role: 'img' });
    const plotW = Math.max(40, width - MARGIN.left - MARGIN.right);
    const plotH = height - MARGIN.top - MARGIN.bottom;
    const xs = current.flatMap((s) => s.points.map((p) => p[0]));
    const ys = current.flatMap((s) => s.points.map((p) => p[1]));
    if (marker) xs.push(marker.x);
    const [x0, x1] = extent(xs, options.xLog === true, options.xDomain);
    const [y0, y1] = extent(ys, options.yLog === true, options.yDomain);
    const x: Scale = options.xLog
      ? logScale(x0, x1, MARGIN.left, MARGIN.left + plotW)
      : linearScale(x0, x1, MARGIN.left, MARGIN.left + plotW, Math.max(2, Math.floor(plotW / 70)));
    const y: Scale = options.yLog
      ? logScale(y0, y1, MARGIN.top + plotH, MARGIN.top)
      : linearScale(y0, y1, MARGIN.top + plotH, MARGIN.top, 5);
    const grid = svgEl('g', { class: 'grid' });
    for (const t of y.ticks) {
      grid.append(svgEl('line', { x1: MARGIN.left, x2: MARGIN.left + plotW, y1: y(t), y2: y(t) }));
      grid.append(
        svgEl(
          'text',
          { x: MARGIN.left - 6, y: y(t) + 4, 'text-anchor': 'end', class: 'tick' },
          y.format(t),
        ),
      );
    }
    const xTicks =
      options.xTicks?.filter((t) => t >= Math.min(x0, x1) && t <= Math.max(x0, x1)) ?? x.ticks;
    for (const t of xTicks) {
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
    grid.append(
      svgEl('rect', { x: MARGIN.left, y: MARGIN.top, width: plotW, height: plotH, class: 'frame' }),
    );
    svg.append(grid);
    appendAxisTitles(
      svg,
      { margin: MARGIN, plotW, plotH, height },
      options.xLabel,
      options.yLabel,
      6,
    );
    const clipId = `clip-${Math.random().toString(36).slice(2)}`;
    const clip = svgEl('clipPath', { id: clipId });
    clip.append(
      svgEl('rect', { x: MARGIN.left, y: MARGIN.top - 2, width: plotW, height: plotH + 4 }),
    );
    svg.append(clip);
    const plot = svgEl('g', { 'clip-path': `url(#${clipId})` });
    for (const s of current) {
      const mode = s.mode ?? 'line';
      const pts = s.points.filter(
        (p) => Number.isFinite(p[1]) && (!options.yLog || p[1] > 0) && (!options.xLog || p[0] > 0),
      );
      if (mode !== 'points' && pts.length > 1) {
        const d = pts
          .map((p, i) => `${i ? 'L' : 'M'}${x(p[0]).toFixed(1)},${y(p[1]).toFixed(1)}`)
          .join('');
        plot.append(
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
      if (mode !== 'line') {
        for (const p of pts)
          plot.append(
            svgEl('circle', {
              cx: x(p[0]),
              cy: y(p[1]),
              r: 3,
              fill: s.color,
              'fill-opacity': s.opacity ?? 1,
            }),
          );
      }
    }
    if (marker) {
      const mx = x(marker.x);
      plot.append(
        svgEl('line', { x1: mx, x2: mx, y1: MARGIN.top, y2: MARGIN.top + plotH, class: 'marker' }),
      );
      svg.append(
        svgEl(
          'text',
          {
            x: Math.min(mx + 4, MARGIN.left + plotW - 4),
            y: MARGIN.top + 12,
            'text-anchor': mx + 80 > MARGIN.left + plotW ? 'end' : 'start',
            class: 'marker-label',
          },
          marker.label,
        ),
      );
    }
    svg.append(plot);
    if (current.every((s) => s.points.length === 0) && options.emptyText) {
      svg.append(
        svgEl(
          'text',
          {
            x: MARGIN.left + plotW / 2,
            y: MARGIN.top + plotH / 2,
            'text-anchor': 'middle',
            class: 'empty',
          },
          options.emptyText,
        ),
      );
    }
    const summary = current
      .filter((s) => !s.hideInLegend && s.points.length > 0)
      .map(
        (s) =>
          `${s.label}: last ${options.yLabel} ${y.format(s.points[s.points.length - 1]![1])} at ${options.xLabel} ${x.format(s.points[s.points.length - 1]![0])}`,
      );
    svg.setAttribute(
      'aria-label',
      `${options.title}. ${summary.join('; ') || options.emptyText || 'no data'}`,
    );
    body.replaceChildren(svg);
  };

  let width = 0;
  onWidthChange(body, (w) => {
    width = w;
    render(w);
  });
  return {
    element: figure,
    update(series, newMarker) {
      current = series;
      marker = newMarker;
      setLegend(
        series
          .filter((s) => !s.hideInLegend)
          .map((s) => ({
            label: s.label,
            color: s.color,
            dashed: s.dashed === true,
            dot: s.mode === 'points',
          })),
      );
      if (width > 0) render(width);
    },
  };
}
