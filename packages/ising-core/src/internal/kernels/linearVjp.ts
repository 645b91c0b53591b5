// The VJP of the batched linear-domain transfer-matrix kernel (see transferLinear.ts) and the
// read-out of its band-gradient accumulators.
import { centeredDirection } from './centeredDirection.js';
import type { Direction } from './centeredDirection.js';
import type { BandTables, LinearScratch } from './transferLinear.js';

/** `Σ β_{−1}` and its tangent, left by {@link backwardMessages} (the kernel runs to completion on one thread). */
const backTotals = { sum: 0, sumT: 0 };

/**
 * The backward pass of {@link linearVjp}: the rescaled messages `β_t` and their tangents into block
 * `t + 1` of `scratch.back` / `backT` (block 0: `β_{−1}`), with each one's sum and tangent shift in
 * `backSum` / `backShift`. Leaves `Σ β_{−1}` and its tangent in `backTotals`.
 */
function backwardMessages(
  tables: BandTables,
  fields: Float64Array,
  fieldsAt: number,
  dir: Direction,
  n: number,
  scratch: LinearScratch,
): void {
  const { window: W, beta, table } = tables;
  const S = 1 << W;
  const H = S >> 1;
  const { back, backT, backSum, backShift } = scratch;
  back.fill(1, n * S, (n + 1) * S);
  backT.fill(0, n * S, (n + 1) * S);
  let sigma = S;
  let shift = 0;
  let sum = 0;
  let sumT = 0;
  for (let t = n - 1; t >= 0; t--) {
    const e = Math.exp(beta * fields[fieldsAt + t]!);
    const fp = e / sigma;
    const fm = 1 / (e * sigma);
    backSum[t] = sigma;
    backShift[t] = shift;
    const gl = -dir.down[t]! - shift;
    const gh = dir.up[t]! - shift;
    const inAt = (t + 1) * S;
    const outAt = inAt - S;
    const k = 2 * t * S;
    sum = 0;
    sumT = 0;
    for (let j = 0; j < H; j++) {
      const pl = back[inAt + j]!;
      const ph = back[inAt + j + H]!;
      const bl = fm * pl;
      const bh = fp * ph;
      const dl = fm * (backT[inAt + j]! + gl * pl);
      const dh = fp * (backT[inAt + j + H]! + gh * ph);
      const q = k + 4 * j;
      const d0 = table[q]!;
      const d1 = table[q + 1]!;
      const u0 = table[q + 2]!;
      const u1 = table[q + 3]!;
      const v0 = d0 * bl + u0 * bh;
      const v1 = d1 * bl + u1 * bh;
      const w0 = d0 * dl + u0 * dh;
      const w1 = d1 * dl + u1 * dh;
      back[outAt + 2 * j] = v0;
      back[outAt + 2 * j + 1] = v1;
      backT[outAt + 2 * j] = w0;
      backT[outAt + 2 * j + 1] = w1;
      sum += v0 + v1;
      sumT += w0 + w1;
    }
    sigma = sum;
    shift = sumT / sum;
  }
  backTotals.sum = sum;
  backTotals.sumT = sumT;
}

/**
 * The VJP of one problem in the direction `g = grad[gradAt + t]` (forward mode, as `runChain`):
 * writes `β Cov(G, s_t)` into `fieldGrad[fgAt + t]` and **adds** the band gradient's window sums
 * into the batch accumulators (read out by {@link foldBandGrad}): `acc0[t] += β Cov(G, s_{t−W} s_t)`
 * and `acc[t·S + x'] += d/dε (p_t(x') s_t)`, the tangent of the signed marginal of the state at `t`,
 * whose bit sums give `β Cov(G, s_{t−W+b} s_t)` for `b ≥ 1`. Summing over problems before the
 * bit sums is exact (they are linear) and costs one add per state. With `center` (the forward's
 * `P(s = +1)`, the layout of `grad`) the direction is centered (`centeredDirection`).
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: the forward sweep stays one loop nest: its step as a function of its own measured 10–14 % slower at W = 4 (n = 16, 64, 256; JS kernel, interleaved A/B, min of 61 rounds), the backward pass split out cost nothing measurable (−0.1 … +2.8 %).
export function linearVjp(
  tables: BandTables,
  fields: Float64Array,
  fieldsAt: number,
  grad: Float64Array,
  gradAt: number,
  n: number,
  scratch: LinearScratch,
  fieldGrad: Float64Array,
  fgAt: number,
  acc: Float64Array,
  acc0: Float64Array,
  center?: Float64Array,
): void {
  const { window: W, beta, table } = tables;
  const S = 1 << W;
  const H = S >> 1;
  // Block t + 1 of back / backT holds β_t and its tangent; block 0 holds β_{−1} (only its sums are used).
  const { back, backT, backSum, backShift } = scratch;
  const dir = centeredDirection(beta, grad, gradAt, n, center, gradAt);
  backwardMessages(tables, fields, fieldsAt, dir, n, scratch);

  let a = scratch.alpha;
  let aT = scratch.alphaT;
  let next = scratch.alphaNext;
  let nextT = scratch.alphaNextT;
  a.fill(1);
  aT.fill(0);
  let sigma = S;
  let shift = 0;
  // Z_{t−1} = Σ_x α_{t−1}(x) β_{t−1}(x) and its tangent, for t = 0 from β_{−1} (α_{−1} = 1, α'_{−1} = 0).
  let zPrev = backTotals.sum;
  let zTPrev = backTotals.sumT;
  for (let t = 0; t < n; t++) {
    const e = Math.exp(beta * fields[fieldsAt + t]!);
    const fp = e / sigma;
    const fm = 1 / (e * sigma);
    const up = dir.up[t]!;
    const down = dir.down[t]!;
    // The window normalization of this step and its tangent ratio, known before the loop:
    // Z_t = (Σβ_t / Σα_{t−1}) Z_{t−1} and Z'_t / Z_t = Z'_{t−1} / Z_{t−1} + c^β_t − c^α_{t−1}
    // (the tangent shifts of the two messages), so the accumulators are updated in the one loop.
    const zHat = (backSum[t]! / sigma) * zPrev;
    const kappaHat = zTPrev / zPrev + backShift[t]! - shift;
    const invZHat = 1 / zHat;
    const kz = kappaHat * invZHat;
    const gl = down + shift;
    const gh = up - shift;
    const bAt = (t + 1) * S;
    const cAt = t * S;
    const k = 2 * t * S;
    let sumA = 0;
    let sumAT = 0;
    let sl = 0;
    let sh = 0;
    let slT = 0;
    let shT = 0;
    // Σ_j of (pp1 − pp0)·β_t(j + H), (pm1 − pm0)·β_t(j), their tangent-side partners: the pair (t − W, t).
    let r1 = 0;
    let r2 = 0;
    let r3 = 0;
    let r4 = 0;
    let r5 = 0;
    let r6 = 0;
    for (let j = 0; j < H; j++) {
      const a0 = a[2 * j]!;
      const a1 = a[2 * j + 1]!;
      const c0 = aT[2 * j]!;
      const c1 = aT[2 * j + 1]!;
      const q = k + 4 * j;
      const d0 = table[q]!;
      const d1 = table[q + 1]!;
      const u0 = table[q + 2]!;
      const u1 = table[q + 3]!;
      const pm0 = a0 * d0;
      const pm1 = a1 * d1;
      const pp0 = a0 * u0;
      const pp1 = a1 * u1;
      const qm0 = c0 * d0;
      const qm1 = c1 * d1;
      const qp0 = c0 * u0;
      const qp1 = c1 * u1;
      const lo = fm * (pm0 + pm1);
      const hi = fp * (pp0 + pp1);
      // Tangents of the shifted input α' − c α: T(α' − cα) = Tα' − c·(lo, hi).
      const loT = fm * (qm0 + qm1) - gl * lo;
      const hiT = fp * (qp0 + qp1) + gh * hi;
      next[j] = lo;
      next[j + H] = hi;
      nextT[j] = loT;
      nextT[j + H] = hiT;
      sumA += lo + hi;
      sumAT += loT + hiT;
      const pl = back[bAt + j]!;
      const ph = back[bAt + j + H]!;
      const pTl = backT[bAt + j]!;
      const pTh = backT[bAt + j + H]!;
      const el = lo * pl;
      const eh = hi * ph;
      const elT = loT * pl + lo * pTl;
      const ehT = hiT * ph + hi * pTh;
      sl += el;
      sh += eh;
      slT += elT;
      shT += ehT;
      // d/dε (p_t(x') s_t) = (s_t (α β)'(x') − κ s_t (αβ)(x')) / Z.
      acc[cAt + j]! += kz * el - invZHat * elT;
      acc[cAt + j + H]! += invZHat * ehT - kz * eh;
      const dpp = pp1 - pp0;
      const dpm = pm1 - pm0;
      r1 += dpp * ph;
      r2 += dpm * pl;
      r3 += (qp1 - qp0) * ph;
      r4 += (qm1 - qm0) * pl;
      r5 += dpp * pTh;
      r6 += dpm * pTl;
    }
    const z = sl + sh;
    const zT = slT + shT;
    const m = sh - sl;
    const mT = shT - slT;
    // Window weights w(x, −) = α(x) k₋(x) f₋ β_t(x'), w(x, +) = α(x) k₊(x) f₊ β_t(x') and their
    // tangents (f'± = ±γ f±, α' shifted by −c α); Σ_x s_0(x) (w(x, +) − w(x, −)) and its tangent.
    const dv = fp * r1 - fm * r2;
    const du =
      fp * (r3 - shift * r1) -
      fm * (r4 - shift * r2) +
      fp * r5 -
      fm * r6 +
      up * fp * r1 +
      down * fm * r2;
    const invZ = 1 / z;
    const kappa = zT * invZ;
    fieldGrad[fgAt + t] = (mT - kappa * m) * invZ;
    acc0[t]! += (du - kappa * dv) * invZ;
    zPrev = z;
    zTPrev = zT;
    sigma = sumA;
    shift = sumAT / sumA;
    let swap = a;
    a = next;
    next = swap;
    swap = aT;
    aT = nextT;
    nextT = swap;
  }
}

/**
 * Reads the band gradient out of the accumulators of {@link linearVjp}:
 * `bandGrad[t·W] = acc0[t]` and, for `b ≥ 1`, `bandGrad[t·W + b] = Σ_{x'} acc_t(x') s_{b−1}(x')`
 * (`2 · Σ_{bit b−1 set} − Σ`), by the fold of `foldBitSums` (destroys `acc`). Entries of virtual
 * spins (`t − W + b < 0`) are written too; the caller ignores them.
 */
export function foldBandGrad(
  acc: Float64Array,
  acc0: Float64Array,
  n: number,
  W: number,
  bandGrad: Float64Array,
): void {
  const S = 1 << W;
  const sums = new Float64Array(W);
  for (let t = 0; t < n; t++) {
    const at = t * S;
    bandGrad[t * W] = acc0[t]!;
    for (let k = W - 1; k >= 0; k--) {
      const half = 1 << k;
      let upper = 0;
      for (let s = 0; s < half; s++) {
        const v = acc[at + s + half]!;
        upper += v;
        acc[at + s]! += v;
      }
      sums[k] = upper;
    }
    const total = acc[at]!;
    for (let b = 1; b < W; b++) bandGrad[t * W + b] = 2 * sums[b - 1]! - total;
  }
}
