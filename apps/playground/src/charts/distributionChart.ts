import { appendYTicks, plotFrame } from './plotGrid.js';
import { linearScale } from './scale.js';
import type { Scale } from './scale.js';
import { appendAxisTitles, createFigure, onWidthChange, svgEl } from './svg.js';
import type { PlotArea } from './svg.js';

export interface DistributionData {
  /** Probabilities of each configuration, in display order. */
  readonly target: ArrayLike<number>;
  readonly current: ArrayLike<number>;
  /** Label of each configuration (spins as ↑/↓), shown as a tooltip and, when few, as ticks. */
  readonly labels: readonly string[];
  readonly targetLabel: string;
  readonly currentLabel: string;
  readonly summary: string;
}

export interface DistributionChart {
  update(data: DistributionData): void;
}

const MARGIN = { top: 10, right: 12, bottom: 46, left: 56 };
export const TARGET_COLOR = '#9aa5b1';

/** The plot area, the probability scale (0 to a little over the largest bar) and each bar's slot width. */
interface BarPlot extends PlotArea {
  readonly y: Scale;
  readonly slot: number;
}

function barPlot(data: DistributionData, width: number, height: number): BarPlot {
  const n = data.labels.length;
  const plotW = Math.max(40, width - MARGIN.left - MARGIN.right);
  const plotH = height - MARGIN.top - MARGIN.bottom;
  let max = 0;
  for (let i = 0; i < n; i++) max = Math.max(max, data.target[i]!, data.current[i]!);
  const y = linearScale(0, max > 0 ? max * 1.05 : 1, MARGIN.top + plotH, MARGIN.top, 5);
  return { margin: MARGIN, plotW, plotH, height, y, slot: plotW / n };
}

/** Configuration `i`: a wide target bar, a narrow current bar inside it, and (for n ≤ 64) a tooltip. */
function barPair(
  data: DistributionData,
  i: number,
  plot: BarPlot,
  currentColor: string,
): SVGGElement {
  const { y, slot } = plot;
  const x = MARGIN.left + i * slot;
  const g = svgEl('g');
  const t = data.target[i]!;
  const c = data.current[i]!;
  g.append(
    svgEl('rect', {
      x: x + slot * 0.05,
      y: y(t),
      width: Math.max(0.6, slot * 0.9),
      height: Math.max(0, y(0) - y(t)),
      fill: TARGET_COLOR,
    }),
  );
  g.append(
    svgEl('rect', {
      x: x + slot * 0.3,
      y: y(c),
      width: Math.max(0.6, slot * 0.4),
      height: Math.max(0, y(0) - y(c)),
      fill: currentColor,
    }),
  );
  if (data.labels.length <= 64)
    g.append(
      svgEl(
        'title',
        {},
        `${data.labels[i]}: ${data.targetLabel} ${t.toFixed(4)}, ${data.currentLabel} ${c.toFixed(4)}`,
      ),
    );
  return g;
}

/**
 * The x ticks (every k-th configuration as they fit) and both axis titles: the spins themselves
 * when there are few configurations and room, else their energy rank.
 */
function appendConfigurationAxis(svg: SVGSVGElement, data: DistributionData, plot: BarPlot): void {
  const n = data.labels.length;
  const { plotW, plotH, slot } = plot;
  const tickEvery = Math.max(1, Math.ceil(n / Math.max(1, Math.floor(plotW / 40))));
  const showSpins = n <= 16 && slot >= 26;
  for (let i = 0; i < n; i += tickEvery) {
    svg.append(
      svgEl(
        'text',
        {
          x: MARGIN.left + (i + 0.5) * slot,
          y: MARGIN.top + plotH + 14,
          'text-anchor': 'middle',
          class: 'tick',
        },
        showSpins ? data.labels[i]! : String(i + 1),
      ),
    );
  }
  appendAxisTitles(
    svg,
    plot,
    showSpins
      ? 'configuration (lowest energy first)'
      : 'configuration rank by energy (1 = ground state)',
    'probability',
    8,
  );
}

/** The chart at `width` × `height` px: grid, one bar pair per configuration, the configuration axis. */
function drawDistribution(
  data: DistributionData,
  title: string,
  currentColor: string,
  width: number,
  height: number,
): SVGSVGElement {
  const plot = barPlot(data, width, height);
  const svg = svgEl('svg', {
    width,
    height,
    viewBox: `0 0 ${width} ${height}`,
    role: 'img',
    'aria-label': `${title}. ${data.summary}`,
  });
  const grid = svgEl('g', { class: 'grid' });
  appendYTicks(grid, plot.y, plot);
  grid.append(plotFrame(plot));
  svg.append(grid);
  const bars = svgEl('g');
  for (let i = 0; i < data.labels.length; i++) bars.append(barPair(data, i, plot, currentColor));
  svg.append(bars);
  appendConfigurationAxis(svg, data, plot);
  return svg;
}

/**
 * Two distributions over the same configurations: the target as wide grey bars and the current
 * one as narrow coloured bars inside them, so where they disagree is visible at a glance.
 *
 * @param parent - the element the chart's figure is appended to
 * @param title - the figure's caption
 * @param currentColor - the colour of the current distribution's bars
 * @returns `update`, which redraws the chart with new distributions and legend
 */
export function createDistributionChart(
  parent: HTMLElement,
  title: string,
  currentColor: string,
): DistributionChart {
  const { body, setLegend } = createFigure(parent, title, []);
  let data: DistributionData | undefined;
  let width = 0;
  const height = 250;

  const render = (): void => {
    if (!data || width <= 0) return;
    body.replaceChildren(drawDistribution(data, title, currentColor, width, height));
  };

  onWidthChange(body, (w) => {
    width = w;
    render();
  });
  return {
    update(next) {
      data = next;
      setLegend([
        { label: next.targetLabel, color: TARGET_COLOR },
        { label: next.currentLabel, color: currentColor },
      ]);
      render();
    },
  };
}
