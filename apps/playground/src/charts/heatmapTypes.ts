/** The types of the canvas heatmap: its options, the data of one frame, and the live map. */

export interface HeatmapOptions {
  readonly title: string;
  /** Axis titles: rows (left) and columns (top). */
  readonly rowTitle: string;
  readonly colTitle: string;
  /** `diverging`: symmetric around 0 (J); `sequential`: 0 … max (attention weights). */
  readonly scale: 'diverging' | 'sequential';
  /** What the colour bar measures, e.g. `J` or `weight`. */
  readonly valueLabel: string;
  /** Canvas id (for tests and labels). */
  readonly id: string;
  readonly maxSize?: number;
}

export interface HeatmapData {
  readonly rows: number;
  readonly cols: number;
  /** rows × cols row-major. */
  readonly values: ArrayLike<number>;
  /** Cells that are not part of the matrix (drawn hatched): above the diagonal, below it, … */
  readonly defined: (row: number, col: number) => boolean;
  /** Cells to outline (e.g. the true opener of each closing bracket). */
  readonly outlined?: (row: number, col: number) => boolean;
  readonly rowTicks?: readonly string[];
  readonly colTicks?: readonly string[];
  /** Colour domain: `[−d, d]` (diverging) or `[0, d]` (sequential); the data's largest |value| by default. */
  readonly domain?: number;
  /** Text alternative: what the map shows now. */
  readonly summary: string;
}

export interface Heatmap {
  readonly canvas: HTMLCanvasElement;
  update(data: HeatmapData): void;
}
