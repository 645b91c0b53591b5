// The direction of every exact VJP, centered on the forward's P(s = +1): per spin (the transfer
// matrix's kernels, weighted samples) or as a table over the 2^n states (enumeration, dense
// distributions). One home for the one construction.

/**
 * The VJP's direction per spin, centered: `up[t] = β g_t (1 − m̂_t)` weighs the branch `s_t = +1`
 * and `−down[t] = −β g_t (1 + m̂_t)` the branch `s_t = −1`, so `G = Σ_t g_t (s_t − m̂_t)`.
 */
export interface Direction {
  readonly up: Float64Array;
  readonly down: Float64Array;
}

/**
 * The direction from `g = ∂L/∂m` (scaled by `beta`) and the forward's `P(s_t = +1)` (`center`;
 * `undefined` centers nothing, m̂ = 0, and `up = down = β g` exactly). Constants added to `G`
 * change no covariance, so centering changes no result, but it keeps every term `O(|∂L/∂w|)`
 * where `g_t` itself is `~1/Σα` (rows of tiny `α`): uncentered, `Cov(G, ·)` cancels digits in
 * proportion. `1 ± m̂` come as `2(1 − P)` and `2P`, exact where `P` is tiny.
 */
export function centeredDirection(
  beta: number,
  grad: Float64Array,
  gradAt: number,
  n: number,
  center: Float64Array | undefined,
  centerAt: number,
): Direction {
  const up = new Float64Array(n);
  const down = new Float64Array(n);
  for (let t = 0; t < n; t++) {
    const g = beta * grad[gradAt + t]!;
    const p = center === undefined ? 0.5 : center[centerAt + t]!;
    up[t] = 2 * g * (1 - p);
    down[t] = 2 * g * p;
  }
  return { up, down };
}

/**
 * Fills `out[s] = Σ_{j<n} (s_j = +1 ? up_j : −down_j)` for `s < 2^n`: the centered direction of
 * every state (bit `j` of `s` ⇔ `s_j = +1`), so no entry carries a constant of size `Σ|g_j|` for
 * the VJP's sums to cancel. One add per state.
 */
export function centeredTable(out: Float64Array, dir: Direction, n: number): void {
  let base = 0;
  for (let j = 0; j < n; j++) base -= dir.down[j]!;
  out[0] = base;
  for (let b = 0; b < n; b++) {
    const half = 1 << b;
    const step = dir.up[b]! + dir.down[b]!;
    for (let s = 0; s < half; s++) out[s + half] = out[s]! + step;
  }
}
