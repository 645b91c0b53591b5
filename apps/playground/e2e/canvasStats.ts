import type { Page } from 'playwright-core';

export interface CanvasStats {
  readonly colored: number;
  readonly distinct: number;
  readonly image: string;
}

/** Colour statistics of a heatmap's cell area (its legend excluded), and the whole image. */
export function canvasStats(page: Page, id: string): Promise<CanvasStats> {
  return page.$eval(`#${id}`, (el) => {
    const canvas = el as HTMLCanvasElement;
    const scale = canvas.width / canvas.getBoundingClientRect().width;
    const [x, y, w, h] = (canvas.dataset.cells ?? '0,0,0,0')
      .split(',')
      .map((v) => Math.round(Number(v) * scale)) as [number, number, number, number];
    const { data } = canvas.getContext('2d')!.getImageData(x, y, Math.max(1, w), Math.max(1, h));
    let colored = 0;
    const distinct = new Set<number>();
    for (let i = 0; i < data.length; i += 4) {
      const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
      if (Math.max(r, g, b) - Math.min(r, g, b) > 40) colored++;
      distinct.add((r << 16) | (g << 8) | b);
    }
    return {
      colored: colored / (data.length / 4),
      distinct: distinct.size,
      image: canvas.toDataURL(),
    };
  });
}
