// The learned couplings as heatmap images: a matrix's cells as square blocks of colour on a
// diverging scale, blue for negative J, white for 0, red for positive, symmetric about 0 (the
// largest |J| shown sets both ends). Cells without a value (NaN: J's diagonal and lower triangle)
// are grey.
import type { RgbImage } from './png.js';

const NEGATIVE = [33, 102, 172] as const;
const ZERO = [247, 247, 247] as const;
const POSITIVE = [178, 24, 43] as const;
const EMPTY = [160, 160, 160] as const;

/** The colour of `value` on the scale whose ends are ±`extent`. */
function colourOf(value: number, extent: number): readonly number[] {
  if (!Number.isFinite(value)) return EMPTY;
  const t = extent > 0 ? Math.max(-1, Math.min(1, value / extent)) : 0;
  const end = t < 0 ? NEGATIVE : POSITIVE;
  const a = Math.abs(t);
  return ZERO.map((z, i) => Math.round(z + (end[i]! - z) * a));
}

/**
 * A `rows × cols` row-major matrix as an image, each cell `scale × scale` pixels.
 *
 * @param scale pixels per cell side (the default makes the longer side about 256 px).
 */
export function heatmapImage(
  values: ArrayLike<number>,
  rows: number,
  cols: number,
  scale = Math.max(1, Math.floor(256 / Math.max(rows, cols))),
): RgbImage {
  let extent = 0;
  for (let i = 0; i < rows * cols; i++)
    if (Number.isFinite(values[i])) extent = Math.max(extent, Math.abs(values[i]!));
  const width = cols * scale;
  const height = rows * scale;
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const c = colourOf(values[Math.floor(y / scale) * cols + Math.floor(x / scale)]!, extent);
      rgb.set(c, (y * width + x) * 3);
    }
  return { width, height, rgb };
}

/** J (T × T, row-major) with only its strict upper triangle kept (the part the model uses). */
export function upperTriangle(couplings: readonly number[], T: number): number[] {
  return couplings.map((v, i) => (i % T > Math.floor(i / T) ? v : Number.NaN));
}
