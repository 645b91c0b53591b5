/** Small helpers to build SVG without a framework. */

const NS = 'http://www.w3.org/2000/svg';

export function svgEl<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number> = {},
  text?: string,
): SVGElementTagNameMap[K] {
  const el = document.createElementNS(NS, tag);
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, String(value));
  if (text !== undefined) el.textContent = text;
  return el;
}

/** Where a chart's plot area sits: its margins and size, and the SVG's height. */
export interface PlotArea {
  readonly margin: { readonly top: number; readonly left: number };
  readonly plotW: number;
  readonly plotH: number;
  readonly height: number;
}

/** Appends the x-axis title (centred under the plot, `xBaseline` above the bottom) and the rotated y-axis title. */
export function appendAxisTitles(
  svg: SVGSVGElement,
  area: PlotArea,
  xLabel: string,
  yLabel: string,
  xBaseline: number,
): void {
  const { margin, plotW, plotH, height } = area;
  const yMid = margin.top + plotH / 2;
  svg.append(
    svgEl(
      'text',
      {
        x: margin.left + plotW / 2,
        y: height - xBaseline,
        'text-anchor': 'middle',
        class: 'axis-title',
      },
      xLabel,
    ),
    svgEl(
      'text',
      {
        x: 14,
        y: yMid,
        'text-anchor': 'middle',
        class: 'axis-title',
        transform: `rotate(-90 14 ${yMid})`,
      },
      yLabel,
    ),
  );
}

/** Calls `render(width)` now and whenever the container's width changes. */
export function onWidthChange(container: HTMLElement, render: (width: number) => void): void {
  let last = -1;
  const run = (): void => {
    const width = Math.floor(container.clientWidth);
    if (width > 0 && width !== last) {
      last = width;
      render(width);
    }
  };
  new ResizeObserver(run).observe(container);
  run();
}

/** One legend entry: a line (solid or dotted) or a dot, in the series' colour. */
export interface LegendItem {
  readonly label: string;
  readonly color: string;
  readonly dashed?: boolean;
  readonly dot?: boolean;
}

/** A figure with a caption and an HTML legend, the chart itself appended by the caller. */
export function createFigure(
  parent: HTMLElement,
  title: string,
  legend: ReadonlyArray<LegendItem>,
): {
  figure: HTMLElement;
  body: HTMLElement;
  setLegend(items: ReadonlyArray<LegendItem>): void;
} {
  const figure = document.createElement('figure');
  figure.className = 'chart';
  const caption = document.createElement('figcaption');
  caption.textContent = title;
  const legendEl = document.createElement('ul');
  legendEl.className = 'legend';
  const body = document.createElement('div');
  body.className = 'chart-body';
  figure.append(caption, legendEl, body);
  parent.append(figure);
  const setLegend = (items: ReadonlyArray<LegendItem>): void => {
    legendEl.replaceChildren(
      ...items.map((item) => {
        const li = document.createElement('li');
        const swatch = document.createElement('span');
        swatch.className = item.dot
          ? 'swatch dot-swatch'
          : item.dashed
            ? 'swatch dashed'
            : 'swatch';
        swatch.style.setProperty('--swatch', item.color);
        li.append(swatch, document.createTextNode(item.label));
        return li;
      }),
    );
    legendEl.hidden = items.length === 0;
  };
  setLegend(legend);
  return { figure, body, setLegend };
}
