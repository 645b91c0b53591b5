/** The parts of an SVG chart's grid that the line and distribution charts share. */
import type { Scale } from './scale.js';
import { svgEl } from './svg.js';
import type { PlotArea } from './svg.js';

/**
 * Appends to `grid` a horizontal rule across the plot and a right-aligned label left of it for
 * each of the y scale's ticks.
 *
 * @param grid - the chart's grid group
 * @param y - the y scale, whose ticks are drawn
 * @param area - where the plot area sits
 */
export function appendYTicks(grid: SVGGElement, y: Scale, area: PlotArea): void {
  const { margin, plotW } = area;
  for (const t of y.ticks) {
    grid.append(svgEl('line', { x1: margin.left, x2: margin.left + plotW, y1: y(t), y2: y(t) }));
    grid.append(
      svgEl(
        'text',
        { x: margin.left - 6, y: y(t) + 4, 'text-anchor': 'end', class: 'tick' },
        y.format(t),
      ),
    );
  }
}

/**
 * The frame drawn around the plot area.
 *
 * @param area - where the plot area sits
 * @returns the frame's `rect`
 */
export function plotFrame(area: PlotArea): SVGRectElement {
  const { margin, plotW, plotH } = area;
  return svgEl('rect', {
    x: margin.left,
    y: margin.top,
    width: plotW,
    height: plotH,
    class: 'frame',
  });
}
