/** One frame of the heatmap painted on its canvas: cells, outlines, ticks, axis titles, colour bar. */
import { css, diverging, sequential } from './color.js';
import type { HeatmapData, HeatmapOptions } from './heatmapTypes.js';
import { formatNumber } from './scale.js';

const LEFT = 34;
const TOP = 30;
const LEGEND = 44;

/** The cells' layout and colours for one frame. */
interface CellGrid {
  readonly ctx: CanvasRenderingContext2D;
  readonly rows: number;
  readonly cols: number;
  /** A cell's side in CSS px. */
  readonly cell: number;
  /** The colour domain's end: `[−max, max]` or `[0, max]`. */
  readonly max: number;
  readonly color: (value: number) => string;
}

/**
 * Sizes the canvas for `width` (capped at `maxSize`, in device pixels) and clears it to white.
 * Returns its context, already set for the frame's text, or `undefined` when there is none.
 */
function clearedCanvas(canvas: HTMLCanvasElement, width: number, maxSize: number) {
  const size = Math.min(width, maxSize);
  const cellSpace = size - LEFT - 8;
  const dpr = globalThis.devicePixelRatio || 1;
  const height = TOP + cellSpace + LEGEND;
  canvas.width = Math.round(size * dpr);
  canvas.height = Math.round(height * dpr);
  canvas.style.width = `${size}px`;
  canvas.style.height = `${height}px`;
  const ctx = canvas.getContext('2d');
  if (!ctx) return undefined;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, size, height);
  ctx.font = '11px system-ui, sans-serif';
  ctx.fillStyle = '#334155';
  return { ctx, size, cellSpace };
}

/** The colour domain's end: the data's own, else its largest |value| over defined cells (1 if none). */
function colourDomain(data: HeatmapData): number {
  const { rows, cols, values, defined } = data;
  let max = data.domain ?? 0;
  if (data.domain === undefined) {
    for (let r = 0; r < rows; r++)
      for (let c = 0; c < cols; c++)
        if (defined(r, c)) max = Math.max(max, Math.abs(values[r * cols + c]!));
  }
  return max > 0 ? max : 1;
}

/** Fills each cell with its value's colour (cells outside the matrix pale grey) and frames them. */
function paintCells(grid: CellGrid, data: HeatmapData): void {
  const { ctx, rows, cols, cell, color } = grid;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const x = LEFT + c * cell;
      const y = TOP + r * cell;
      ctx.fillStyle = data.defined(r, c) ? color(data.values[r * cols + c]!) : '#eef1f5';
      ctx.fillRect(x, y, Math.ceil(cell), Math.ceil(cell));
    }
  }
  ctx.strokeStyle = '#94a3b8';
  ctx.lineWidth = 1;
  ctx.strokeRect(LEFT + 0.5, TOP + 0.5, cols * cell - 1, rows * cell - 1);
  if (!data.outlined) return;
  ctx.strokeStyle = '#16a34a';
  ctx.lineWidth = 2;
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++)
      if (data.outlined(r, c))
        ctx.strokeRect(LEFT + c * cell + 1.5, TOP + r * cell + 1.5, cell - 3, cell - 3);
}

/** Row and column tick labels (every label when they fit, else every k-th) and both axis titles. */
function paintAxes(grid: CellGrid, data: HeatmapData, options: HeatmapOptions): void {
  const { ctx, rows, cols, cell } = grid;
  ctx.fillStyle = '#334155';
  const every = Math.max(1, Math.ceil(12 / cell));
  ctx.textAlign = 'center';
  ctx.textBaseline = 'bottom';
  for (let c = 0; c < cols; c += every)
    ctx.fillText(data.colTicks?.[c] ?? String(c), LEFT + (c + 0.5) * cell, TOP - 3);
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (let r = 0; r < rows; r += every)
    ctx.fillText(data.rowTicks?.[r] ?? String(r), LEFT - 4, TOP + (r + 0.5) * cell);
  ctx.textBaseline = 'alphabetic';
  ctx.textAlign = 'left';
  ctx.fillStyle = '#64748b';
  ctx.fillText(`${options.colTitle} →`, LEFT, 11);
  ctx.save();
  ctx.translate(10, TOP + rows * cell);
  ctx.rotate(-Math.PI / 2);
  ctx.fillText(`${options.rowTitle} →`, 0, 0);
  ctx.restore();
}

/** The colour bar under the cells, with its two ends and what it measures. */
function paintColourBar(grid: CellGrid, options: HeatmapOptions): void {
  const { ctx, rows, cols, cell, max, color } = grid;
  const diverges = options.scale === 'diverging';
  const barY = TOP + rows * cell + 12;
  const barW = cols * cell;
  for (let i = 0; i < barW; i++) {
    const t = i / Math.max(1, barW - 1);
    ctx.fillStyle = color(diverges ? (2 * t - 1) * max : t * max);
    ctx.fillRect(LEFT + i, barY, 1.5, 10);
  }
  ctx.fillStyle = '#334155';
  ctx.textBaseline = 'top';
  ctx.textAlign = 'left';
  ctx.fillText(diverges ? `−${formatNumber(max)}` : '0', LEFT, barY + 13);
  ctx.textAlign = 'right';
  ctx.fillText(formatNumber(max), LEFT + barW, barY + 13);
  ctx.textAlign = 'center';
  ctx.fillText(
    diverges ? `${options.valueLabel} = 0` : options.valueLabel,
    LEFT + barW / 2,
    barY + 13,
  );
}

/**
 * Paints one frame on `canvas` at `width` CSS px (capped at the options' `maxSize`, 380 by
 * default): "waiting for data…" while there is none, else the cells, outlines, ticks, axis titles
 * and colour bar. Sets the text alternative (`aria-label`) and, with data, `data-cells`: the
 * cell area's x, y, width and height.
 *
 * @param canvas - the heatmap's canvas
 * @param width - the container's width in CSS px
 * @param options - titles, colour scale and size cap
 * @param data - the matrix to show, or `undefined` before the first
 */
export function paintHeatmap(
  canvas: HTMLCanvasElement,
  width: number,
  options: HeatmapOptions,
  data: HeatmapData | undefined,
): void {
  const cleared = clearedCanvas(canvas, width, options.maxSize ?? 380);
  if (!cleared) return;
  const { ctx, size, cellSpace } = cleared;
  if (!data) {
    ctx.textAlign = 'center';
    ctx.fillText('waiting for data…', size / 2, TOP + cellSpace / 2);
    canvas.setAttribute('aria-label', `${options.title}: no data yet`);
    return;
  }
  const { rows, cols } = data;
  const cell = cellSpace / Math.max(rows, cols);
  const max = colourDomain(data);
  const color = (v: number): string =>
    css(options.scale === 'diverging' ? diverging(0.5 + v / (2 * max)) : sequential(v / max));
  const grid: CellGrid = { ctx, rows, cols, cell, max, color };
  paintCells(grid, data);
  paintAxes(grid, data, options);
  paintColourBar(grid, options);
  canvas.setAttribute('aria-label', `${options.title}. ${data.summary}`);
  canvas.dataset.cells = [LEFT, TOP, cols * cell, rows * cell].map((v) => v.toFixed(1)).join(',');
}
