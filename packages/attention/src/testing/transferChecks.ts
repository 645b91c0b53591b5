/**
 * The checks every backend's transfer-matrix kernels pass (transferNative.test.ts on each native
 * ISA, transferWat.test.ts on the WAT module), on a {@link TransferRunner}: weights, ∂L/∂h and
 * ∂L/∂J against ising-core's float64 sampler on seeded random problems (batches of 1, 3, 12 and
 * 17 sequences give lane groups of one length, of mixed lengths and with padding lanes on every
 * vector width; windows 1–10, lengths up to 64); the VJP from checkpointed segments against the
 * whole sweep; w by enumeration and the gradients by central differences of enumerated losses;
 * and rows beyond the float32 range left to the caller (sums = −1, the row untouched).
 */
import { expect } from 'vitest';
import { isingReference, relativeError } from './transferKernels.js';
import type { TransferCase, TransferRunner } from './transferKernels.js';

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
 * Every case against ising-core: every entry, the zeros above each row's keys too. Float32
 * against float64, with the kernels' blocked sums (measured natively over W = 1 … 10: w ≤ 2.0e-7,
 * gh ≤ 1.4e-6, gJ ≤ 1.5e-6); times `slack` for ill-conditioned cases.
 */
export function checkAgainstIsing(
  run: TransferRunner,
  label: string,
  cases: readonly TransferCase[] = TRANSFER_CASES,
  slack = 1,
): void {
  for (const [n, c] of cases.entries()) {
    const out = run(c, 1000 + 17 * n);
    expect(out.left, 'rows left to the caller').toBe(0);
    const tt = c.length * c.length;
    for (let hd = 0; hd < c.heads; hd++) {
      const ref = isingReference(c, out, hd);
      const rows = (src: Float32Array) => {
        const r = new Float64Array(c.batch * tt);
        for (let b = 0; b < c.batch; b++)
          r.set(src.subarray((b * c.heads + hd) * tt, (b * c.heads + hd + 1) * tt), b * tt);
        return r;
      };
      const at = `${label} case ${n} (B ${c.batch}, T ${c.length}, W ${c.window}) head ${hd}`;
      expect(relativeError(rows(out.w), ref.weights), `w ${at}`).toBeLessThan(5e-7 * slack);
      expect(relativeError(rows(out.gh), ref.fields), `gh ${at}`).toBeLessThan(4e-6 * slack);
      const gj = out.gj.subarray(hd * tt, (hd + 1) * tt);
      expect(relativeError(gj, ref.couplings), `gJ ${at}`).toBeLessThan(4e-6 * slack);
    }
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

/** Causal weights of one row by enumerating its 2^n states (float64): w_t = P(s_t = +1) / Σ_k P(s_k = +1). */
function enumerateRow(
  h: ArrayLike<number>,
  j: ArrayLike<number>,
  jAt: number,
  t: number,
  n: number,
  beta: number,
): Float64Array {
  const up = new Float64Array(n);
  let z = 0;
  for (let s = 0; s < 1 << n; s++) {
    let e = 0;
    for (let a = 0; a < n; a++) {
      const sa = (s >> a) & 1 ? 1 : -1;
      e += h[a]! * sa;
      for (let b = a + 1; b < n; b++) e += j[jAt + a * t + b]! * sa * ((s >> b) & 1 ? 1 : -1);
    }
    const p = Math.exp(beta * e);
    z += p;
    for (let a = 0; a < n; a++) if ((s >> a) & 1) up[a]! += p;
  }
  let sum = 0;
  for (let a = 0; a < n; a++) sum += up[a]! / z;
  return up.map((u) => u / z / sum);
}

/** Row p's weights by enumeration. */
function rowWeights(c: TransferCase, h: ArrayLike<number>, j: ArrayLike<number>, p: number) {
  const t = c.length;
  const i = p % t;
  const row = Array.from({ length: i + 1 }, (_, k) => h[p * t + k]!);
  return enumerateRow(row, j, (Math.floor(p / t) % c.heads) * t * t, t, i + 1, c.beta);
}

/** L = Σ gw · w over every row, by enumeration (float64). */
function enumeratedLoss(
  c: TransferCase,
  h: ArrayLike<number>,
  j: ArrayLike<number>,
  gw: ArrayLike<number>,
): number {
  const t = c.length;
  let loss = 0;
  for (let p = 0; p < c.batch * c.heads * t; p++) {
    const w = rowWeights(c, h, j, p);
    for (let k = 0; k <= p % t; k++) loss += gw[p * t + k]! * w[k]!;
  }
  return loss;
}

/** The small case of the enumeration checks. */
export const ENUMERATED_CASE: TransferCase = {
  batch: 2,
  heads: 2,
  length: 9,
  window: 3,
  beta: 0.9,
  fieldScale: 1.5,
  couplingScale: 0.6,
};

/** w by enumeration, ∂L/∂h and ∂L/∂J by central differences of L = Σ gw·w. */
export function checkEnumeration(run: TransferRunner, c: TransferCase = ENUMERATED_CASE): void {
  const out = run(c, 4242);
  const t = c.length;
  const h = Float64Array.from(out.h);
  const j = Float64Array.from(out.j);
  for (let p = 0; p < c.batch * c.heads * t; p++) {
    const ref = rowWeights(c, h, j, p);
    for (let k = 0; k < t; k++) expect(out.w[p * t + k]!).toBeCloseTo(k <= p % t ? ref[k]! : 0, 6);
  }
  const eps = 1e-4;
  const diff = (x: Float64Array, at: number) => {
    const keep = x[at]!;
    x[at] = keep + eps;
    const plus = enumeratedLoss(c, h, j, out.gw);
    x[at] = keep - eps;
    const minus = enumeratedLoss(c, h, j, out.gw);
    x[at] = keep;
    return (plus - minus) / (2 * eps);
  };
  for (let p = 0; p < c.batch * c.heads * t; p++)
    for (let k = 0; k <= p % t; k++) expect(out.gh[p * t + k]!).toBeCloseTo(diff(h, p * t + k), 5);
  for (let at = 0; at < c.heads * t * t; at++) {
    const r = Math.floor(at / t) % t;
    const k = at % t;
    const inBand = k > r && k - r <= c.window;
    expect(out.gj[at]!).toBeCloseTo(inBand ? diff(j, at) : 0, 5);
  }
}

/** Rows beyond the float32 range (|h| up to 1e3) are left to the caller, untouched. */
export function checkLeftRows(run: TransferRunner): void {
  const big: TransferCase = { ...ENUMERATED_CASE, fieldScale: 1e3 };
  const out = run(big, 77);
  const rows = big.batch * big.heads * big.length;
  const left = Array.from(out.sums).filter((s) => s === -1).length;
  expect(out.left).toBe(left);
  expect(left).toBeGreaterThan(rows / 2);
  const t = big.length;
  for (let p = 0; p < rows; p++) {
    if (out.sums[p] !== -1) continue;
    expect(Array.from(out.w.subarray(p * t, (p + 1) * t))).toEqual(new Array(t).fill(7));
    expect(Array.from(out.gh.subarray(p * t, (p + 1) * t))).toEqual(new Array(t).fill(0));
  }
}
