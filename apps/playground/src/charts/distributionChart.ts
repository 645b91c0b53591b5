import { linearScale } from './scale.js';
import { appendAxisTitles, createFigure, onWidthChange, svgEl } from './svg.js';

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

/**
 * Two distributions over the same configurations: the target as wide grey bars and the current
 * one as narrow coloured bars inside them, so where they disagree is visible at a glance.
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
    const n = data.labels.length;
    const plotW = Math.max(40, width - MARGIN.left - MARGIN.right);
    const plotH = height - MARGIN.top - MARGIN.bottom;
    let max = 0;
    for (let i = 0; i < n; i++) max = Math.max(max, data.target[i]!, data.current[i]!);
    const y = linearScale(0, max > 0 ? max * 1.05 : 1, MARGIN.top + plotH, MARGIN.top, 5);
    const slot = plotW / n;
    const svg = svgEl('svg', {
      width,
      height,
      viewBox: `0 0 ${width} ${height}`,
      role: 'img',
      'aria-label': `${title}. ${data.summary}`,
    });
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
    grid.append(
      svgEl('rect', { x: MARGIN.left, y: MARGIN.top, width: plotW, height: plotH, class: 'frame' }),
    );
    svg.append(grid);
    const bars = svgEl('g');
    for (let i = 0; i < n; i++) {
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
      if (n <= 64)
        g.append(
          svgEl(
            'title',
            {},
            `${data.labels[i]}: ${data.targetLabel} ${t.toFixed(4)}, ${data.currentLabel} ${c.toFixed(4)}`,
          ),
        );
      bars.append(g);
    }
    svg.append(bars);
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
      { margin: MARGIN, plotW, plotH, height },
      showSpins
        ? 'configuration (lowest energy first)'
        : 'configuration rank by energy (1 = ground state)',
      'probability',
      8,
    );
    body.replaceChildren(svg);
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
