/**
 * The checks every backend's transfer-matrix kernels pass (transferNative.test.ts on each native
 * ISA, transferWat.test.ts on the WAT module), on a {@link TransferRunner}: weights, ∂L/∂h and
 * ∂L/∂J against ising-core's float64 sampler on seeded random problems (batches of 1, 3, 12 and
 * 17 sequences give lane groups of one length, of mixed lengths and with padding lanes on every
 * vector width; windows 1–10, lengths up to 64), also with fields up to |h| = 1e3; the VJP from
 * checkpointed segments against the whole sweep; and the rows the kernels leave to the caller
 * (sums = −1, the row untouched): rows with a key whose couplings pass the float32 step bound,
 * non-finite fields, and rows whose Σα is below e^−32. Enumeration: transferEnumeration.ts.
 */
import { expect } from 'vitest';
import { isingReference, relativeError } from './transferKernels.js';
import type { TransferCase, TransferRun, TransferRunner } from './transferKernels.js';

export const TRANSFER_CASES: readonly TransferCase[] = [
  ...[1, 2, 3, 4, 5, 6, 8, 10].map((window) => ({
    batch: 3,
    heads: 2,
    length: 16,
    window,
    beta: 1,
    fieldScale: 2,
    couplingScale: 0.5,
  })),
  ...[4, 6, 8, 10].map((window) => ({
    batch: 12,
    heads: 1,
    length: 64,
    window,
    beta: 0.7,
    fieldScale: 2,
    couplingScale: 0.4,
  })),
  { batch: 17, heads: 2, length: 24, window: 8, beta: 1.3, fieldScale: 1.5, couplingScale: 0.3 },
  { batch: 1, heads: 1, length: 64, window: 8, beta: 1, fieldScale: 3, couplingScale: 0.5 },
];

/**
 * One run against ising-core: the rows the kernels left (sums = −1) untouched (w the stale 7s, gh
 * 0), every other entry of w and gh, zeros above each row's keys too, and ∂L/∂J of the kept rows.
 * Float32 against float64, with the kernels' blocked sums (measured on TRANSFER_CASES, W = 1 …
 * 10, every backend: w ≤ 2.0e-7, gh ≤ 1.3e-6, gJ ≤ 7.6e-7).
 */
export function checkRun(c: TransferCase, out: TransferRun, label: string): void {
  const t = c.length;
  const tt = t * t;
  const kept = (p: number) => out.sums[p] !== -1;
  for (let p = 0; p < c.batch * c.heads * t; p++) {
    if (kept(p)) continue;
    const at = `${label}: left row ${p}`;
    expect(Array.from(out.w.subarray(p * t, (p + 1) * t)), at).toEqual(new Array(t).fill(7));
    expect(Array.from(out.gh.subarray(p * t, (p + 1) * t)), at).toEqual(new Array(t).fill(0));
  }
  for (let hd = 0; hd < c.heads; hd++) {
    const ref = isingReference(c, out, hd, kept);
    // Head hd's rows, the left ones as the reference's (they were checked above).
    const rows = (src: Float32Array, want: Float64Array) => {
      const r = new Float64Array(c.batch * tt);
      for (let b = 0; b < c.batch; b++) {
        r.set(src.subarray((b * c.heads + hd) * tt, (b * c.heads + hd + 1) * tt), b * tt);
        for (let i = 0; i < t; i++)
          if (!kept((b * c.heads + hd) * t + i))
            r.set(want.subarray(b * tt + i * t, b * tt + (i + 1) * t), b * tt + i * t);
      }
      return r;
    };
    const at = `${label} (B ${c.batch}, T ${t}, W ${c.window}) head ${hd}`;
    const w = relativeError(rows(out.w, ref.weights), ref.weights);
    expect(w, `w ${at}`).toBeLessThan(5e-7);
    const gh = relativeError(rows(out.gh, ref.fields), ref.fields);
    expect(gh, `gh ${at}`).toBeLessThan(4e-6);
    const gj = out.gj.subarray(hd * tt, (hd + 1) * tt);
    expect(relativeError(gj, ref.couplings), `gJ ${at}`).toBeLessThan(4e-6);
  }
}

/** Every case against ising-core ({@link checkRun}), none of its rows left to the caller. */
export function checkAgainstIsing(
  run: TransferRunner,
  label: string,
  cases: readonly TransferCase[] = TRANSFER_CASES,
): void {
  for (const [n, c] of cases.entries()) {
    const out = run(c, 1000 + 17 * n);
    expect(out.left, 'rows left to the caller').toBe(0);
    checkRun(c, out, `${label} case ${n}`);
  }
}

/** The largest field of each row's keys (problem p = (b·H + hd)·T + i has keys 0 … i). */
function rowMaxima(c: TransferCase, h: ArrayLike<number>): number[] {
  const t = c.length;
  return Array.from({ length: c.batch * c.heads * t }, (_, p) => {
    let m = Number.NEGATIVE_INFINITY;
    for (let k = 0; k <= p % t; k++) m = Math.max(m, h[p * t + k]!);
    return m;
  });
}

/**
 * Fields to ±`scale` where no row is near the e^−32 edge of Σα: a row whose largest field lies in
 * (`low`, `high`) gets `high − low` added to it, so every row either has a field above `high`
 * (Σα ≥ e^−2β(−high + Σ|J|), with the defaults and weak couplings well inside the float32
 * kernels' e^−32) or all below `low` (Σα far below e^−32: left to the caller).
 */
export function largeFields(base: TransferCase, scale: number, low = -40, high = -3): TransferCase {
  const prepare = ({ h }: { h: Float32Array }) => {
    rowMaxima(base, h).forEach((m, p) => {
      if (!(m > low && m < high)) return;
      const t = base.length;
      const row = h.subarray(p * t, p * t + (p % t) + 1);
      row[row.indexOf(m)] = m + high - low;
    });
  };
  return { ...base, fieldScale: scale, prepare, leftBelow: low };
}

/** Each key's Σ|J| over its band both ways (head hd of `j`, T × T). */
function couplingRows(c: TransferCase, j: Float32Array, hd: number): Float64Array {
  const t = c.length;
  const rows = new Float64Array(t);
  for (let r = 0; r < t; r++)
    for (let k = r + 1; k <= Math.min(t - 1, r + c.window); k++) {
      const v = Math.abs(j[(hd * t + r) * t + k]!);
      rows[r]! += v;
      rows[k]! += v;
    }
  return rows;
}

/**
 * Couplings scaled up, head by head, to the kernels' bounds: the largest key's β Σ|J| (both ways)
 * to `reach` ≤ 16, unless a window's 2β Σ would pass 249 first. ising-core's own float32 bound
 * counts the fields too, so with these it runs every row in float64.
 */
export function strongCouplings(
  base: TransferCase,
  reach: number,
  windowReach = 249,
): TransferCase {
  const prepare = ({ h, j }: { h: Float32Array; j: Float32Array }) => {
    base.prepare?.({ h, j });
    const t = base.length;
    for (let hd = 0; hd < base.heads; hd++) {
      const rows = couplingRows(base, j, hd);
      let window = 0;
      for (let k = 0; k < t; k++) {
        let sum = 0;
        for (let u = Math.max(0, k - base.window); u <= k; u++) sum += rows[u]!;
        window = Math.max(window, sum);
      }
      const scale = Math.min(reach / Math.max(...rows), windowReach / (2 * window)) / base.beta;
      j.subarray(hd * t * t, (hd + 1) * t * t).forEach((v, at, row) => {
        row[at] = v * scale;
      });
    }
  };
  return { ...base, prepare };
}

/** A case of `batch × heads` rows of T = `length`, window W, β and the couplings' scale; fields 0 until set. */
export const shape = (dims: [number, number, number, number, number, number]): TransferCase => {
  const [batch, heads, length, window, beta, couplingScale] = dims;
  return { batch, heads, length, window, beta, fieldScale: 0, couplingScale };
};

/**
 * Cases with fields up to |h| = 1e3 and 60 (step factors to e^±2000, far past float32's range),
 * and two with strong couplings (largest key's β Σ|J| 11.9, within every backend's bound, with
 * fields to 1e3; 10 with fields to 3); rows whose fields are all at most `leftBelow` are left.
 */
export function largeFieldCases(leftBelow: number): TransferCase[] {
  return [
    largeFields(shape([3, 2, 32, 8, 1, 0.2]), 1e3, leftBelow),
    largeFields(shape([5, 1, 64, 6, 0.8, 0.3]), 60, leftBelow),
    largeFields(shape([6, 1, 24, 10, 1, 0.1]), 1e3, leftBelow),
    largeFields(shape([17, 2, 24, 4, 1.2, 0.3]), 1e3, leftBelow),
    strongCouplings(
      largeFields(shape([4, 1, 48, 8, 1, 1]), 1e3, Math.min(-60, leftBelow), 16),
      11.9,
    ),
    strongCouplings({ ...shape([4, 2, 32, 6, 0.9, 1]), fieldScale: 3 }, 10),
  ];
}

/**
 * Strong couplings in the native kernels: past their float32 pass's bound (12) to their float64
 * pass's (40, and windows to 600), W = 4, 6 and 8, fields to 1e3 and to 3.
 */
export const NATIVE_STRONG_CASES: readonly TransferCase[] = [
  strongCouplings(largeFields(shape([4, 1, 48, 8, 1, 1]), 1e3, -180, 16), 15.9),
  strongCouplings(largeFields(shape([4, 1, 48, 8, 1, 1]), 1e3, -180, 16), 39, 599),
  strongCouplings({ ...shape([4, 2, 40, 6, 1, 1]), fieldScale: 3 }, 25, 599),
  strongCouplings({ ...shape([4, 2, 40, 4, 1, 1]), fieldScale: 3 }, 39, 599),
];

/**
 * Fields up to |h| = 1e3 against ising-core ({@link checkRun}); the rows left to the caller are
 * exactly those whose fields are all at most the case's `leftBelow` (Σα far below e^−32), and
 * every other row is kept.
 * The same tolerances hold (measured on every backend: w 5.8e-8, gh 2.7e-7, gJ 3.9e-7 of the
 * largest).
 */
export function checkLargeFields(
  run: TransferRunner,
  label: string,
  cases: readonly TransferCase[],
): void {
  for (const [n, c] of cases.entries()) {
    const out = run(c, 500 + 13 * n);
    const low = c.leftBelow ?? Number.NEGATIVE_INFINITY;
    const expected = rowMaxima(c, out.h).map((m) => m <= low);
    const left = Array.from(out.sums, (s) => s === -1);
    expect(left, `${label} large-field case ${n}: the rows left`).toEqual(expected);
    expect(out.left).toBe(expected.filter(Boolean).length);
    expect(out.left, 'some rows kept, some left').toBeLessThan(left.length);
    checkRun(c, out, `${label} large-field case ${n}`);
  }
}

/**
 * The VJP keeps every backward message of a lane group while they fit its budget (all the cases
 * above); wider windows recompute them in segments from checkpoints. Every segment length must
 * give the answer of the whole sweep.
 */
export function checkSegments(run: TransferRunner): void {
  const c: TransferCase = {
    batch: 5,
    heads: 2,
    length: 40,
    window: 6,
    beta: 1.1,
    fieldScale: 2,
    couplingScale: 0.4,
  };
  const whole = run(c, 99);
  for (const segment of [1, 2, 5, 13]) {
    const cut = run(c, 99, segment);
    expect(relativeError(cut.gh, whole.gh), `gh, segments of ${segment}`).toBeLessThan(1e-6);
    expect(relativeError(cut.gj, whole.gj), `gJ, segments of ${segment}`).toBeLessThan(1e-6);
  }
}
