/** Colour ramps and the variants' colours (Okabe–Ito, distinguishable with colour-blindness). */

export const VARIANT_COLORS = { softmax: '#0072B2', boltzmann: '#D55E00' } as const;

type Rgb = readonly [number, number, number];

function hex(color: string): Rgb {
  const n = Number.parseInt(color.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function ramp(stops: readonly string[]): (t: number) => Rgb {
  const rgb = stops.map(hex);
  return (t) => {
    const x = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0)) * (rgb.length - 1);
    const i = Math.min(rgb.length - 2, Math.floor(x));
    const f = x - i;
    const a = rgb[i]!;
    const b = rgb[i + 1]!;
    return [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f];
  };
}

/** ColorBrewer RdBu reversed: negative blue, zero near-white, positive red. `t ∈ [0, 1]`, 0.5 = zero. */
export const diverging = ramp([
  '#2166ac',
  '#67a9cf',
  '#d1e5f0',
  '#f7f7f7',
  '#fddbc7',
  '#ef8a62',
  '#b2182b',
]);

/** ColorBrewer Purples-like sequential ramp for weights in [0, 1]. */
export const sequential = ramp(['#fcfbfd', '#dadaeb', '#9e9ac8', '#6a51a3', '#3f007d']);

export function css(rgb: Rgb): string {
  return `rgb(${Math.round(rgb[0])} ${Math.round(rgb[1])} ${Math.round(rgb[2])})`;
}
