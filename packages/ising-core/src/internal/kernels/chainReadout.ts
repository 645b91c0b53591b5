// The read-outs of runChain (transferKernel.ts) at one position, from its window marginal's weights:
// the moments, and in the VJP the window marginal's tangent with its bit sums.
import { foldBitSums } from './fold.js';

/** The buffers of the tangent read-out at one position (`S` entries each, `bitSums` `max(W, 1)`). */
export interface GradientScratch {
  readonly r: Float64Array;
  readonly tauMinus: Float64Array;
  readonly tauPlus: Float64Array;
  readonly bitSums: Float64Array;
}

/**
 * The VJP read-out at position `t` from its window weights (sum `z`): the window marginal's
 * tangent `τ(y) − τ̄` weighted by `s_t` gives `fieldGrad[t]`, and its bit sums the band gradient
 * `bandGrad[t·W + b]` (bits of virtual spins, `t − W + b < 0`, stay 0).
 */
export function windowGradient(
  t: number,
  W: number,
  gu: number,
  gd: number,
  ta: Float64Array,
  segT: Float64Array,
  at: number,
  minus: Float64Array,
  plus: Float64Array,
  z: number,
  scratch: GradientScratch,
  fieldGrad: Float64Array,
  bandGrad: Float64Array,
): void {
  const S = 1 << W;
  const { r, tauMinus, tauPlus, bitSums } = scratch;
  let mean = 0;
  for (let x = 0; x < S; x++) {
    const tm = ta[x]! - gd + segT[at + (x >> 1)]!;
    const tp = ta[x]! + gu + segT[at + ((x | S) >> 1)]!;
    tauMinus[x] = tm;
    tauPlus[x] = tp;
    mean += minus[x]! * tm + plus[x]! * tp;
  }
  mean /= z;
  let total = 0;
  const invZ = 1 / z;
  for (let x = 0; x < S; x++) {
    r[x] = (plus[x]! * (tauPlus[x]! - mean) - minus[x]! * (tauMinus[x]! - mean)) * invZ;
    total += r[x]!;
  }
  fieldGrad[t] = total;
  if (W > 0) {
    foldBitSums(r, W, bitSums, 0);
    // Σ_x r(x) s_b(x) = 2 Σ_{bit b set} r − Σ r; bits of virtual spins (t − W + b < 0) stay 0.
    for (let b = Math.max(0, W - t); b < W; b++) bandGrad[t * W + b] = 2 * bitSums[b]! - total;
  }
}

/**
 * The window marginal's moments at position `t` from its weights: `m_t` and `P(s_t = +1)` (a
 * ratio of its own sums, exact where `(1 + m)/2` rounds to 0) into the outputs; returns the sum `z`.
 */
export function readWindow(
  S: number,
  minus: Float64Array,
  plus: Float64Array,
  t: number,
  magnetization: Float64Array,
  probabilityUp: Float64Array,
): number {
  let z = 0;
  let m = 0;
  let zh = 0;
  for (let x = 0; x < S; x++) {
    z += minus[x]! + plus[x]!;
    m += plus[x]! - minus[x]!;
    zh += plus[x]!;
  }
  magnetization[t] = m / z;
  probabilityUp[t] = zh / z;
  return z;
}
