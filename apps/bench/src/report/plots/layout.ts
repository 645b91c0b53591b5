// How big a report's panels are: computed from how many sit in a row, so that a row of panels
// fills the page (report.html then scales each figure down to a narrower window).

/**
 * The width a report's figures are laid out for, in px: a 1280 px window less report.html's
 * 2rem (32 px) margins on each side, less a scroll bar's 16.
 */
export const PAGE_WIDTH = 1200;
/** Vega-Lite's default gap between facet panels (config.facet.spacing). */
const FACET_SPACING = 20;
/** What each panel's y axis (labels and title) takes beside it. */
const Y_AXIS = 72;

/** The shape of a plot's panels. */
export interface PanelShape {
  /** Panels in a row at most. */
  readonly maxColumns: number;
  /** Height over width. */
  readonly aspect: number;
  /** What a legend beside the panels takes, px (0: none, or a legend above them). */
  readonly legend?: number;
  /** A panel is never wider than this (a square heatmap with few cells), px. */
  readonly maxWidth?: number;
  /** Nor taller than this, px (a single wide panel stays a strip). */
  readonly maxHeight?: number;
}

/** The columns and panel size of a faceted plot. */
export interface PanelLayout {
  readonly columns: number;
  readonly width: number;
  readonly height: number;
}

/**
 * The layout of `panels` panels: as many in a row as there are (up to `maxColumns`), each as
 * wide as the row allows on {@link PAGE_WIDTH} after the axes, gaps and a legend beside them.
 *
 * @example
 * panelLayout(1, { maxColumns: 3, aspect: 0.5, maxHeight: 320 }); // { columns: 1, width: 1136, height: 320 }
 */
export function panelLayout(panels: number, shape: PanelShape): PanelLayout {
  const columns = Math.max(1, Math.min(shape.maxColumns, panels));
  const room = PAGE_WIDTH - (shape.legend ?? 0) - (columns - 1) * FACET_SPACING;
  const width = Math.min(shape.maxWidth ?? Infinity, Math.floor(room / columns - Y_AXIS));
  const height = Math.round(Math.min(shape.maxHeight ?? Infinity, width * shape.aspect));
  return { columns, width, height };
}

/** How many distinct values `field` takes in `values` (a faceted plot's panel count). */
export function panelCount<T extends Record<string, unknown>>(
  values: readonly T[],
  field: keyof T & string,
): number {
  return new Set(values.map((v) => String(v[field]))).size;
}

/** Curves and metric-against-length panels: up to 3 in a row, a strip for one alone. */
export const CURVE_PANELS = { maxColumns: 3, aspect: 0.62, maxHeight: 300 } as const;
