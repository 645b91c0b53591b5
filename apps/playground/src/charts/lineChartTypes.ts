/** The types of the SVG line chart: its series, options and marker. */

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

/** A vertical rule at `x`, labelled (e.g. the chosen anneal time). */
export interface ChartMarker {
  readonly x: number;
  readonly label: string;
}

export interface LineChart {
  readonly element: HTMLElement;
  update(series: readonly Series[], marker?: ChartMarker): void;
}
