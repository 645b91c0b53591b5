import { css, diverging, sequential } from './color.js';
import { formatNumber } from './scale.js';
import { createFigure, onWidthChange } from './svg.js';

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

const LEFT = 34;
const TOP = 30;
const LEGEND = 44;

/**
 * A square-cell heatmap on a canvas (fast enough to redraw on every training update), with
 * tick labels, axis titles, undefined cells hatched and a colour bar with its value range.
 */
export function createHeatmap(parent: HTMLElement, options: HeatmapOptions): Heatmap {
  const { body } = createFigure(parent, options.title, []);
  const canvas = document.createElement('canvas');
  canvas.id = options.id;
  canvas.setAttribute('role', 'img');
  canvas.className = 'heatmap';
  body.append(canvas);
  let data: HeatmapData | undefined;
  let width = 0;

  const draw = (): void => {
    if (width <= 0) return;
    const size = Math.min(width, options.maxSize ?? 380);
    const cellSpace = size - LEFT - 8;
    const dpr = globalThis.devicePixelRatio || 1;
    const height = TOP + cellSpace + LEGEND;
    canvas.width = Math.round(size * dpr);
    canvas.height = Math.round(height * dpr);
    canvas.style.width = `${size}px`;
    canvas.style.height = `${height}px`;
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, size, height);
    ctx.font = '11px system-ui, sans-serif';
    ctx.fillStyle = '#334155';
    if (!data) {
      ctx.textAlign = 'center';
      ctx.fillText('waiting for data…', size / 2, TOP + cellSpace / 2);
      canvas.setAttribute('aria-label', `${options.title}: no data yet`);
      return;
    }
    const { rows, cols, values, defined } = data;
    const cell = cellSpace / Math.max(rows, cols);
    let max = data.domain ?? 0;
    if (data.domain === undefined) {
      for (let r = 0; r < rows; r++)
        for (let c = 0; c < cols; c++)
          if (defined(r, c)) max = Math.max(max, Math.abs(values[r * cols + c]!));
    }
    if (!(max > 0)) max = 1;
    const color = (v: number): string =>
      css(options.scale === 'diverging' ? diverging(0.5 + v / (2 * max)) : sequential(v / max));
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const x = LEFT + c * cell;
        const y = TOP + r * cell;
        if (defined(r, c)) {
          ctx.fillStyle = color(values[r * cols + c]!);
          ctx.fillRect(x, y, Math.ceil(cell), Math.ceil(cell));
        } else {
          ctx.fillStyle = '#eef1f5';
          ctx.fillRect(x, y, Math.ceil(cell), Math.ceil(cell));
        }
      }
    }
    ctx.strokeStyle = '#94a3b8';
    ctx.lineWidth = 1;
    ctx.strokeRect(LEFT + 0.5, TOP + 0.5, cols * cell - 1, rows * cell - 1);
    if (data.outlined) {
      ctx.strokeStyle = '#16a34a';
      ctx.lineWidth = 2;
      for (let r = 0; r < rows; r++)
        for (let c = 0; c < cols; c++)
          if (data.outlined(r, c))
            ctx.strokeRect(LEFT + c * cell + 1.5, TOP + r * cell + 1.5, cell - 3, cell - 3);
    }
    // Ticks: every label when they fit, else every k-th.
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
    // Colour bar.
    const barY = TOP + rows * cell + 12;
    const barW = cols * cell;
    for (let i = 0; i < barW; i++) {
      const t = i / Math.max(1, barW - 1);
      ctx.fillStyle = color(options.scale === 'diverging' ? (2 * t - 1) * max : t * max);
      ctx.fillRect(LEFT + i, barY, 1.5, 10);
    }
    ctx.fillStyle = '#334155';
    ctx.textBaseline = 'top';
    ctx.textAlign = 'left';
    ctx.fillText(options.scale === 'diverging' ? `−${formatNumber(max)}` : '0', LEFT, barY + 13);
    ctx.textAlign = 'right';
    ctx.fillText(formatNumber(max), LEFT + barW, barY + 13);
    ctx.textAlign = 'center';
    ctx.fillText(
      options.scale === 'diverging' ? `${options.valueLabel} = 0` : options.valueLabel,
      LEFT + barW / 2,
      barY + 13,
    );
    canvas.setAttribute('aria-label', `${options.title}. ${data.summary}`);
    canvas.dataset.cells = [LEFT, TOP, cols * cell, rows * cell].map((v) => v.toFixed(1)).join(',');
  };

  onWidthChange(body, (w) => {
    width = w;
    draw();
  });
  return {
    canvas,
    update(next) {
      data = next;
      draw();
    },
  };
}
