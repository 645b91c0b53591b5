/** Linear and log scales with readable ticks, for the SVG charts. */

export interface Scale {
  (value: number): number;
  readonly ticks: readonly number[];
  readonly format: (value: number) => string;
}

function niceStep(span: number, count: number): number {
  const raw = span / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const m = raw / power;
  return (m > 7 ? 10 : m > 3 ? 5 : m > 1.4 ? 2 : 1) * power;
}

/** Short number formatting for tick labels. */
export function formatNumber(value: number): string {
  if (value === 0) return '0';
  const a = Math.abs(value);
  if (a >= 1e4 || a < 1e-3) return value.toExponential(0).replace('e+', 'e');
  if (a >= 100) return value.toFixed(0);
  return Number(value.toPrecision(3)).toString();
}

/** Maps `[d0, d1]` onto `[r0, r1]` with about `count` ticks; widens an empty domain. */
export function linearScale(d0: number, d1: number, r0: number, r1: number, count = 5): Scale {
  if (!(Number.isFinite(d0) && Number.isFinite(d1))) [d0, d1] = [0, 1];
  if (d0 === d1) [d0, d1] = d0 === 0 ? [-1, 1] : [d0 - Math.abs(d0) / 2, d1 + Math.abs(d1) / 2];
  const step = niceStep(d1 - d0, count);
  const ticks: number[] = [];
  for (let t = Math.ceil(d0 / step) * step; t <= d1 + step * 1e-9; t += step)
    ticks.push(Math.abs(t) < step * 1e-9 ? 0 : t);
  const scale = ((v: number) => r0 + ((v - d0) / (d1 - d0)) * (r1 - r0)) as Scale;
  return Object.assign(scale, { ticks, format: formatNumber });
}

/** Log10 scale over positive values; ticks at powers of ten (and 2, 5 when the span is short). */
export function logScale(d0: number, d1: number, r0: number, r1: number): Scale {
  const lo = Math.log10(Math.max(d0, 1e-300));
  let hi = Math.log10(Math.max(d1, 1e-300));
  if (!(hi > lo)) hi = lo + 1;
  const ticks: number[] = [];
  const multipliers = hi - lo <= 2 ? [1, 2, 5] : [1];
  for (let p = Math.floor(lo); p <= Math.ceil(hi); p++) {
    for (const m of multipliers) {
      const t = m * 10 ** p;
      const lt = Math.log10(t);
      if (lt >= lo - 1e-9 && lt <= hi + 1e-9) ticks.push(t);
    }
  }
  const scale = ((v: number) =>
    r0 + ((Math.log10(Math.max(v, 1e-300)) - lo) / (hi - lo)) * (r1 - r0)) as Scale;
  return Object.assign(scale, { ticks, format: formatNumber });
}
