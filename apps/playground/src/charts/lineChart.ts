import { drawLineChart } from './lineChartSvg.js';
import type { ChartMarker, LineChart, LineChartOptions, Series } from './lineChartTypes.js';
import { createFigure, onWidthChange } from './svg.js';

/**
 * An SVG line chart drawn at the container's pixel width (redrawn on resize), with axis titles,
 * ticks, an HTML legend and a text alternative in `aria-label`.
 *
 * @param parent - the element the chart's figure is appended to
 * @param options - titles, axes, domains and height
 * @returns the chart's figure and `update`, which redraws it with new series and marker
 */
export function createLineChart(parent: HTMLElement, options: LineChartOptions): LineChart {
  const { figure, body, setLegend } = createFigure(parent, options.title, []);
  const height = options.height ?? 230;
  let current: readonly Series[] = [];
  let marker: ChartMarker | undefined;
  const render = (width: number): void => {
    body.replaceChildren(drawLineChart(width, height, options, current, marker));
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
