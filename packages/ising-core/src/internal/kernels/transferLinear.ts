/**
 * The batched linear-domain transfer-matrix kernel: the fast path of `estimateTransferMatrix` for
 * problems whose dynamic-range bound rules out underflow (see `runChain`, which stays the
 * reference and the log-domain fallback).
 *
 * All problems of a batch share the couplings, and position `t` is key `t` in every problem, so
 * the coupling part of the factor of spin `t`, `exp(±β c_t(x))` with
 * `c_t(x) = Σ_b J_{t−W+b,t} s_b(x)`, is one table per position for the whole batch
 * ({@link bandTables}, built once, no exponential in the per-problem loops). The field part
 * `exp(±β h_t)` depends only on the new spin, so it is two scalars per position and problem.
 * Window states are as in `runChain`: `W` bits, bit `b` ⇔ spin `t − W + b` is +1, with `W`
 * virtual spins before spin 0 (no field, no coupling: a factor `2^W` in `Z`, nothing else), so
 * problems shorter than `W + 1` spins need no special case. Adding spin `t` maps state `x` to
 * `x' = (x >> 1) | (s_t ? 2^{W−1} : 0)`: the pair `x = 2j, 2j + 1` feeds `x' = j` (s_t = −1) and
 * `x' = j + 2^{W−1}` (s_t = +1), so every loop walks the tables and messages sequentially.
 *
 * Messages are divided by their sum at every step (folded into the two field scalars of the
 * next step). Tangents are linear (`dα/dε`, not `d log α/dε`): the product rule gives
 * `α'_t = T_t α'_{t−1} + (s_t β g_t) α_t`, the same transfer as the values, and adding a multiple
 * of a message to its tangent (here its weighted mean, to keep tangents small) cancels in every
 * normalized moment, so it is folded into the next step as well. No division per state.
 */

/** The coupling factors of a batch: `table[t·2S + 4j + {0, 1, 2, 3}] = exp(−βc_t(2j)), exp(−βc_t(2j+1)), exp(βc_t(2j)), exp(βc_t(2j+1))`. */
export interface BandTables {
  /** `W ≥ 1`: window states have `W` bits (`S = 2^W`). */
  readonly window: number;
  /** Positions covered (`t < length`). */
  readonly length: number;
  readonly beta: number;
  readonly table: Float64Array;
}

/**
 * Builds the coupling factors of every position by a multiplicative doubling DP (one multiply per
 * entry, `W` exponentials per position). `band[t·W + b] = J_{t−W+b, t}`, zero where `t − W + b < 0`.
 */
export function bandTables(
  band: Float64Array,
  length: number,
  W: number,
  beta: number,
): BandTables {
  if (!Number.isInteger(W) || W < 1)
    throw new RangeError(`bandTables needs a window ≥ 1, got ${W}`);
  const S = 1 << W;
  const table = new Float64Array(length * 2 * S);
  const up = new Float64Array(S);
  const down = new Float64Array(S);
  for (let t = 0; t < length; t++) {
    let c0 = 0;
    for (let b = 0; b < W; b++) c0 -= band[t * W + b]!;
    up[0] = Math.exp(beta * c0);
    down[0] = Math.exp(-beta * c0);
    for (let b = 0; b < W; b++) {
      const half = 1 << b;
      const f = Math.exp(2 * beta * band[t * W + b]!);
      const g = Math.exp(-2 * beta * band[t * W + b]!);
      for (let x = 0; x < half; x++) {
        up[x + half] = up[x]! * f;
        down[x + half] = down[x]! * g;
      }
    }
    const at = t * 2 * S;
    for (let j = 0; j < S >> 1; j++) {
      table[at + 4 * j] = down[2 * j]!;
      table[at + 4 * j + 1] = down[2 * j + 1]!;
      table[at + 4 * j + 2] = up[2 * j]!;
      table[at + 4 * j + 3] = up[2 * j + 1]!;
    }
  }
  return { window: W, length, beta, table };
}

/** Reusable buffers of the batched kernel for problems of up to `length` spins. */
export interface LinearScratch {
  /** Backward messages `β_t` (at `t·S` in the forward pass, `(t + 1)·S` in the VJP), and their tangents. */
  readonly back: Float64Array;
  readonly backT: Float64Array;
  /** Forward message, its tangent, and the next ones (`S` each). */
  readonly alpha: Float64Array;
  readonly alphaT: Float64Array;
  readonly alphaNext: Float64Array;
  readonly alphaNextT: Float64Array;
  /** Per position: the sum of `β_t` and the tangent shift applied to it (`n` each). */
  readonly backSum: Float64Array;
  readonly backShift: Float64Array;
}

/** Buffers for {@link linearForward} / {@link linearVjp}; `tangent` adds the tangent ones. */
export function linearScratch(tables: BandTables, tangent: boolean): LinearScratch {
  const S = 1 << tables.window;
  const n = tables.length;
  return {
    back: new Float64Array((n + 1) * S),
    backT: new Float64Array(tangent ? (n + 1) * S : 0),
    alpha: new Float64Array(S),
    alphaT: new Float64Array(tangent ? S : 0),
    alphaNext: new Float64Array(S),
    alphaNextT: new Float64Array(tangent ? S : 0),
    backSum: new Float64Array(tangent ? n : 0),
    backShift: new Float64Array(tangent ? n : 0),
  };
}

/**
 * Magnetizations and `log Z` of one problem of `n ≤ tables.length` spins with fields
 * `fields[fieldsAt + t]`, into `magnetization[magAt + t]`. The caller guarantees the linear
 * domain is exact (the dynamic-range bound of `runChain`). Two sweeps over `n · 2^W` states:
 * backward messages (stored), then forward messages with the readout
 * `m_t = Σ_{x'} α_t β_t s_t / Σ_{x'} α_t β_t` fused in, and `P(s_t = +1)` into
 * `probabilityUp[magAt + t]` when given.
 *
 * @returns `log Z`.
 */
export function linearForward(
  tables: BandTables,
  fields: Float64Array,
  fieldsAt: number,
  n: number,
  scratch: LinearScratch,
  magnetization: Float64Array,
  magAt: number,
  probabilityUp?: Float64Array,
): number {
  const { window: W, beta, table } = tables;
  const S = 1 << W;
  const H = S >> 1;
  const { back } = scratch;
  back.fill(1, (n - 1) * S, n * S);
  let sigma = S;
  for (let t = n - 1; t >= 1; t--) {
    const e = Math.exp(beta * fields[fieldsAt + t]!);
    const fp = e / sigma;
    const fm = 1 / (e * sigma);
    const inAt = t * S;
    const outAt = inAt - S;
    const k = 2 * inAt;
    let sum = 0;
    for (let j = 0; j < H; j++) {
      const bl = fm * back[inAt + j]!;
      const bh = fp * back[inAt + j + H]!;
      const q = k + 4 * j;
      const v0 = table[q]! * bl + table[q + 2]! * bh;
      const v1 = table[q + 1]! * bl + table[q + 3]! * bh;
      back[outAt + 2 * j] = v0;
      back[outAt + 2 * j + 1] = v1;
      sum += v0 + v1;
    }
    sigma = sum;
  }

  let a = scratch.alpha;
  let next = scratch.alphaNext;
  a.fill(1);
  sigma = S;
  let logScale = 0;
  for (let t = 0; t < n; t++) {
    const e = Math.exp(beta * fields[fieldsAt + t]!);
    logScale += Math.log(sigma);
    const fp = e / sigma;
    const fm = 1 / (e * sigma);
    const bAt = t * S;
    const k = 2 * bAt;
    let sum = 0;
    let sl = 0;
    let sh = 0;
    for (let j = 0; j < H; j++) {
      const a0 = a[2 * j]!;
      const a1 = a[2 * j + 1]!;
      const q = k + 4 * j;
      const lo = fm * (a0 * table[q]! + a1 * table[q + 1]!);
      const hi = fp * (a0 * table[q + 2]! + a1 * table[q + 3]!);
      next[j] = lo;
      next[j + H] = hi;
      sum += lo + hi;
      sl += lo * back[bAt + j]!;
      sh += hi * back[bAt + j + H]!;
    }
    magnetization[magAt + t] = (sh - sl) / (sh + sl);
    if (probabilityUp !== undefined) probabilityUp[magAt + t] = sh / (sh + sl);
    sigma = sum;
    const swap = a;
    a = next;
    next = swap;
  }
  return logScale + Math.log(sigma) - W * Math.LN2;
}
