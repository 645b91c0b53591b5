import { centeredDirection, centeredTable } from './centeredDirection.js';
import { foldBitSums, walshHadamard } from './fold.js';
import { LOW_BITS, scratchFor } from './exactScratch.js';
import type { Scratch } from './exactScratch.js';
import { splitBackwardFast, splitForwardFast } from './wasmKernels.js';
import {
  expFieldHalfTable,
  expTable,
  extendCouplingTable,
  linearTable,
  tableRange,
} from './tables.js';

/**
 * The problems one thread enumerates: compact arrays (`size × stride` fields) sharing one
 * `stride × stride` coupling matrix. This is also the message a worker receives.
 */
export interface ExactProblems {
  readonly stride: number;
  readonly beta: number;
  readonly couplings: Float64Array;
  readonly spins: Int32Array;
  readonly fields: Float64Array;
}

/** Forward output: `P(s_j = +1)` per problem (layout of `fields`), `log Z`, and the scaled `Z` the backward pass reuses. */
export interface ExactForwardResult {
  readonly up: Float64Array;
  readonly logZ: Float64Array;
  readonly norm: Float64Array;
}

/**
 * Above this dynamic range `β (max − min)` of the unnormalized log-weights the products of the
 * two shared exponential tables could leave the normal float64 range (e^-708); such problems
 * take the log-domain pass (one `exp` per state) instead.
 */
export const FAST_PATH_RANGE = 600;

/** Problem indices sorted by spin count (counting sort), so the coupling table grows monotonically. */
function orderBySpins(spins: Int32Array, stride: number): Int32Array {
  const counts = new Int32Array(stride + 2);
  for (let q = 0; q < spins.length; q++) counts[spins[q]! + 1]!++;
  for (let n = 1; n < counts.length; n++) counts[n]! += counts[n - 1]!;
  const order = new Int32Array(spins.length);
  for (let q = 0; q < spins.length; q++) order[counts[spins[q]!]!++] = q;
  return order;
}

/**
 * Walks the problems by ascending spin count, keeping `C_n` and `E_n = exp(β(C_n − max C_n))`
 * current. `E` is extended with the coupling table, by multiplication instead of `2^n` calls
 * to `Math.exp`: the new spin's local field `λ(s) = Σ_{j<n} J_jn s_j` gives
 * `E_{n+1}(s ∓ …) = E_n(s) · exp(∓βλ(s)) · exp(β(max C_n − max C_{n+1}))`, and
 * `exp(β(λ(s) − Σ|J_jn|))` is a field table `D` of factors ≤ 1 with `exp(−βλ(s))` = `D` read
 * backwards (flipping every spin negates λ). When the products could leave the normal float64
 * range, `E` is recomputed with `exp` on demand.
 */
class CouplingState {
  built = 0;
  lo = 0;
  hi = 0;
  private expFor = 0;
  private readonly column: Float64Array;
  constructor(
    private readonly p: ExactProblems,
    private readonly s: Scratch,
  ) {
    s.table[0] = 0;
    s.expCoupling[0] = 1;
    this.column = new Float64Array(Math.max(p.stride, 1));
  }
  grow(n: number): void {
    const { table, expCoupling: E, work, field: D } = this.s;
    const { beta, couplings, stride } = this.p;
    while (this.built < n) {
      const k = this.built;
      const [lo, hi] = [this.lo, this.hi];
      extendCouplingTable(table, k, couplings, stride, work);
      this.built++;
      [this.lo, this.hi] = tableRange(table, 1 << this.built);
      if (this.expFor !== k) continue;
      for (let j = 0; j < k; j++) this.column[j] = couplings[j * stride + k]!;
      const S = expFieldHalfTable(D, this.column, 0, k, beta);
      if (beta * (hi - lo + 2 * S) > FAST_PATH_RANGE) continue;
      const K = Math.exp(beta * (S + hi - this.hi));
      const half = 1 << k;
      const last = half - 1;
      for (let st = 0; st < half; st++) {
        const e = E[st]! * K;
        E[st + half] = e * D[st]!;
        E[st] = e * D[last - st]!;
      }
      this.expFor = this.built;
    }
  }
  expTable(n: number): Float64Array {
    if (this.expFor !== n) {
      expTable(this.s.expCoupling, this.s.table, 1 << n, this.p.beta, this.hi);
      this.expFor = n;
    }
    return this.s.expCoupling;
  }
}

/** Low-bit count of the split: about n/2 (small tables are rebuilt per query), at most LOW_BITS, and at least one high bit when n ≥ 2 so the kernels can pair rows. */
function lowBitsFor(n: number): number {
  return n >= 2 ? Math.min(n - 1, LOW_BITS, Math.max(1, Math.ceil(n / 2) + 1)) : n;
}

function sumAbs(fields: Float64Array, start: number, n: number): number {
  let t = 0;
  for (let j = 0; j < n; j++) t += Math.abs(fields[start + j]!);
  return t;
}

/** True when the problem's weights stay in the normal float64 range as products of the shared tables. */
function fastPath(beta: number, abs: number, cs: CouplingState): boolean {
  return beta * (2 * abs + cs.hi - cs.lo) <= FAST_PATH_RANGE;
}

/**
 * Log-domain pass (one `exp` per state) for problems whose dynamic range is too large for the
 * table products: `out[s] = exp(β(F(s) + C(s)) − top)` for `s < 2^n`; returns `top`.
 * Deterministic, so the backward pass reproduces the forward's values bit for bit.
 */
function logDomainWeights(
  s: Scratch,
  fields: Float64Array,
  start: number,
  n: number,
  beta: number,
  out: Float64Array,
): number {
  const { field, table } = s;
  const states = 1 << n;
  linearTable(field, fields, start, n, beta, 0);
  let top = -Infinity;
  for (let st = 0; st < states; st++) {
    const v = field[st]! + beta * table[st]!;
    if (v > top) top = v;
  }
  for (let st = 0; st < states; st++) out[st] = Math.exp(field[st]! + beta * table[st]! - top);
  return top;
}

/**
 * Exact `P(s_j = +1)` and `log Z` of every problem in `O(2^n)` per problem (see METHOD.md §2).
 */
export function exactForward(p: ExactProblems): ExactForwardResult {
  const { stride, beta, fields, spins } = p;
  const size = spins.length;
  const order = orderBySpins(spins, stride);
  const maxN = size === 0 ? 1 : spins[order[size - 1]!]!;
  const s = scratchFor(maxN, false);
  const cs = new CouplingState(p, s);
  const up = new Float64Array(size * stride);
  const logZ = new Float64Array(size);
  const norm = new Float64Array(size);
  const { work, low, high, col, row } = s;
  for (let i = 0; i < size; i++) {
    const q = order[i]!;
    const n = spins[q]!;
    if (cs.built !== n) cs.grow(n);
    const start = q * stride;
    const abs = sumAbs(fields, start, n);
    let z: number;
    let shift: number;
    if (fastPath(beta, abs, cs)) {
      const m = lowBitsFor(n);
      expFieldHalfTable(low, fields, start, m, beta);
      expFieldHalfTable(high, fields, start + m, n - m, beta);
      splitForwardFast(cs.expTable(n), low, high, m, n - m, col, row);
      z = foldBitSums(col, m, up, start);
      foldBitSums(row, n - m, up, start + m);
      shift = beta * (abs + cs.hi);
    } else {
      shift = logDomainWeights(s, fields, start, n, beta, work);
      z = foldBitSums(work, n, up, start);
    }
    const inv = 1 / z;
    for (let j = 0; j < n; j++) up[start + j] = up[start + j]! * inv;
    logZ[q] = Math.log(z) + shift;
    norm[q] = z;
  }
  return { up, logZ, norm };
}

/**
 * The VJP of {@link exactForward}: `∂L/∂h_k = β Cov(G, s_k)` per problem and
 * `∂L/∂J_kl = β Σ_q Cov_q(G, s_k s_l)` with `G = Σ_j g_j s_j`, recomputing the probabilities
 * (nothing of size `2^n` is kept between passes). `forward` must be this batch's forward result.
 *
 * @returns `∂L/∂h` (layout of `fields`) and `∂L/∂J` (`stride × stride`, strict upper triangle).
 */
export function exactBackward(
  p: ExactProblems,
  forward: { readonly up: Float64Array; readonly norm: Float64Array },
  gradM: Float64Array,
): { fields: Float64Array; couplings: Float64Array } {
  const { stride, beta, fields, spins } = p;
  const size = spins.length;
  const order = orderBySpins(spins, stride);
  const maxN = size === 0 ? 1 : spins[order[size - 1]!]!;
  const s = scratchFor(maxN, true);
  const cs = new CouplingState(p, s);
  const gFields = new Float64Array(size * stride);
  const gCouplings = new Float64Array(stride * stride);
  const { work, low, high, lowB, highB, col, row } = s;
  const acc = s.acc!;
  const { up, norm } = forward;
  let current = 0;
  const flush = (n: number): void => {
    walshHadamard(acc, n);
    for (let k = 0; k < n; k++) {
      for (let l = k + 1; l < n; l++) gCouplings[k * stride + l]! += acc[(1 << k) | (1 << l)]!;
    }
  };
  for (let i = 0; i < size; i++) {
    const q = order[i]!;
    const n = spins[q]!;
    const states = 1 << n;
    if (n !== current) {
      if (current > 0) flush(current);
      cs.grow(n);
      acc.fill(0, 0, states);
      current = n;
    }
    const start = q * stride;
    // With p = p̃/Z and c = β/Z: x(s) = c p̃(s)(G(s) − E[G]) = β p(s)(G(s) − E[G]), G − E[G] =
    // Σ_j g_j (s_j − m_j) built centered (centeredTable), not as G(s) minus its mean.
    const c = beta / norm[q]!;
    const dir = centeredDirection(c, gradM, start, n, up, start);
    const abs = sumAbs(fields, start, n);
    if (fastPath(beta, abs, cs)) {
      const m = lowBitsFor(n);
      const hb = n - m;
      expFieldHalfTable(low, fields, start, m, beta);
      expFieldHalfTable(high, fields, start + m, hb, beta);
      // x = E·L·H·(c(G_lo − E[G_lo]) + c(G_hi − E[G_hi])) = E·(A[l]·H[r] + L[l]·(H·c(G_hi − E[G_hi]))[r]),
      // the low and high spins' parts of the centered direction.
      centeredTable(lowB, dir, m);
      for (let l = 0; l < 1 << m; l++) lowB[l] = lowB[l]! * low[l]!;
      centeredTable(highB, { up: dir.up.subarray(m), down: dir.down.subarray(m) }, hb);
      for (let r = 0; r < 1 << hb; r++) highB[r] = highB[r]! * high[r]!;
      splitBackwardFast(cs.expTable(n), lowB, low, high, highB, m, hb, acc, col, row);
      const tl = foldBitSums(col, m, gFields, start);
      const th = foldBitSums(row, hb, gFields, start + m);
      for (let k = 0; k < m; k++) gFields[start + k] = 2 * gFields[start + k]! - tl;
      for (let k = m; k < n; k++) gFields[start + k] = 2 * gFields[start + k]! - th;
    } else {
      logDomainWeights(s, fields, start, n, beta, work);
      const g = s.field;
      centeredTable(g, dir, n);
      for (let st = 0; st < states; st++) {
        const x = work[st]! * g[st]!;
        work[st] = x;
        acc[st]! += x;
      }
      const total = foldBitSums(work, n, gFields, start);
      for (let k = 0; k < n; k++) gFields[start + k] = 2 * gFields[start + k]! - total;
    }
  }
  if (current > 0) flush(current);
  return { fields: gFields, couplings: gCouplings };
}
