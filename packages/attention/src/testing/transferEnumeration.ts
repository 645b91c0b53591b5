/**
 * The enumeration checks of the transfer-matrix kernels (every backend's, beside transferChecks.ts):
 * w of every short row by summing all 2^n states, and ∂L/∂h, ∂L/∂J by central differences of the
 * enumerated loss L = Σ gw·w over the rows the kernels kept. The sums are shifted by the largest
 * energy of the states that count (any spin up), so fields of 1e3 neither overflow nor underflow.
 */
import { expect } from 'vitest';
import type { TransferCase, TransferRunner } from './transferKernels.js';

/** Causal weights of one row by enumerating its 2^n states (float64): w_t = P(s_t = +1) / Σ_k P(s_k = +1). */
function enumerateRow(
  h: ArrayLike<number>,
  j: ArrayLike<number>,
  jAt: number,
  t: number,
  n: number,
  beta: number,
): Float64Array {
  // β·E of every state; the all-down state (s = 0) adds to no P(s_k = +1), and Z cancels in w.
  const energy = new Float64Array(1 << n);
  let top = Number.NEGATIVE_INFINITY;
  for (let s = 1; s < 1 << n; s++) {
    let e = 0;
    for (let a = 0; a < n; a++) {
      const sa = (s >> a) & 1 ? 1 : -1;
      e += h[a]! * sa;
      for (let b = a + 1; b < n; b++) e += j[jAt + a * t + b]! * sa * ((s >> b) & 1 ? 1 : -1);
    }
    energy[s] = beta * e;
    top = Math.max(top, energy[s]!);
  }
  const up = new Float64Array(n);
  for (let s = 1; s < 1 << n; s++) {
    const p = Math.exp(energy[s]! - top);
    for (let a = 0; a < n; a++) if ((s >> a) & 1) up[a]! += p;
  }
  let sum = 0;
  for (let a = 0; a < n; a++) sum += up[a]!;
  return up.map((u) => u / sum);
}

/** Row p's weights by enumeration. */
function rowWeights(c: TransferCase, h: ArrayLike<number>, j: ArrayLike<number>, p: number) {
  const t = c.length;
  const i = p % t;
  const row = Array.from({ length: i + 1 }, (_, k) => h[p * t + k]!);
  return enumerateRow(row, j, (Math.floor(p / t) % c.heads) * t * t, t, i + 1, c.beta);
}

/** L = Σ gw · w over the rows `kept` (float64, by enumeration). */
function enumeratedLoss(
  c: TransferCase,
  h: ArrayLike<number>,
  j: ArrayLike<number>,
  gw: ArrayLike<number>,
  kept: (p: number) => boolean,
): number {
  const t = c.length;
  let loss = 0;
  for (let p = 0; p < c.batch * c.heads * t; p++) {
    if (!kept(p)) continue;
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

/**
 * `base` with every field in −40 … −110 (β = 0.9: each P(s_t = +1) about e^−72 to e^−198, Σα below
 * e^−32 in every row): the float32 kernels leave these rows, the native float64 pass takes them.
 */
export function tinyTotals(base: TransferCase): TransferCase {
  const prepare = ({ h }: { h: Float32Array }) => {
    h.forEach((v, at) => {
      h[at] = -75 + 35 * Math.sin(at * 12.9898 + v);
    });
  };
  return { ...base, prepare };
}

/**
 * w of the rows the kernels kept by enumeration, ∂L/∂h and ∂L/∂J by central differences of L =
 * Σ gw·w over them; `minKept` of the rows at least.
 */
export function checkEnumeration(
  run: TransferRunner,
  c: TransferCase = ENUMERATED_CASE,
  minKept = 1,
): void {
  const out = run(c, 4242);
  const t = c.length;
  const rows = c.batch * c.heads * t;
  const kept = (p: number) => out.sums[p] !== -1;
  expect(Array.from({ length: rows }, (_, p) => p).filter(kept).length).toBeGreaterThanOrEqual(
    Math.ceil(minKept * rows),
  );
  const h = Float64Array.from(out.h);
  const j = Float64Array.from(out.j);
  for (let p = 0; p < rows; p++) {
    if (!kept(p)) continue;
    const ref = rowWeights(c, h, j, p);
    for (let k = 0; k < t; k++) expect(out.w[p * t + k]!).toBeCloseTo(k <= p % t ? ref[k]! : 0, 6);
  }
  const eps = 1e-4;
  const diff = (x: Float64Array, at: number) => {
    const keep = x[at]!;
    x[at] = keep + eps;
    const plus = enumeratedLoss(c, h, j, out.gw, kept);
    x[at] = keep - eps;
    const minus = enumeratedLoss(c, h, j, out.gw, kept);
    x[at] = keep;
    return (plus - minus) / (2 * eps);
  };
  for (let p = 0; p < rows; p++) {
    if (!kept(p)) continue;
    for (let k = 0; k <= p % t; k++) expect(out.gh[p * t + k]!).toBeCloseTo(diff(h, p * t + k), 5);
  }
  for (let at = 0; at < c.heads * t * t; at++) {
    const r = Math.floor(at / t) % t;
    const k = at % t;
    const inBand = k > r && k - r <= c.window;
    expect(out.gj[at]!).toBeCloseTo(inBand ? diff(j, at) : 0, 5);
  }
}
