import { paintHeatmap } from './heatmapPaint.js';
import type { Heatmap, HeatmapData, HeatmapOptions } from './heatmapTypes.js';
import { createFigure, onWidthChange } from './svg.js';

/**
 * A square-cell heatmap on a canvas (fast enough to redraw on every training update), with
 * tick labels, axis titles, undefined cells hatched and a colour bar with its value range.
 *
 * @param parent - the element the heatmap's figure is appended to
 * @param options - titles, colour scale, canvas id and size cap
 * @returns the canvas and `update`, which repaints it with a new matrix
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
    if (width > 0) paintHeatmap(canvas, width, options, data);
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
