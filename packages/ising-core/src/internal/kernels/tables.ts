/**
 * Per-state tables over `2^n` spin configurations (bit `j` of an index set ⇔ `s_j = +1`).
 * Every builder is a doubling DP: the entries with bit `b` set are the entries below `2^b`
 * shifted by one term, so each state costs one add or one multiply.
 */

/**
 * Fills `out[s] = offset + scale · Σ_{j<n} c_j s_j` for `s < 2^n`, with `c_j = coeffs[start + j]`.
 * One add per state.
 */
export function linearTable(
  out: Float64Array,
  coeffs: Float64Array,
  start: number,
  n: number,
  scale: number,
  offset: number,
): void {
  let base = offset;
  for (let j = 0; j < n; j++) base -= scale * coeffs[start + j]!;
  out[0] = base;
  for (let b = 0; b < n; b++) {
    const half = 1 << b;
    const step = 2 * scale * coeffs[start + b]!;
    for (let s = 0; s < half; s++) out[s + half] = out[s]! + step;
  }
}

/**
 * Extends the coupling table from `n` to `n + 1` spins in place:
 * `C_{n+1}(s + σ 2^n) = C_n(s) + σ Σ_{j<n} J_{j,n} s_j` with `σ = ±1`.
 * `scratch` receives the local field of the new spin (`2^n` entries).
 */
export function extendCouplingTable(
  table: Float64Array,
  n: number,
  couplings: Float64Array,
  stride: number,
  scratch: Float64Array,
): void {
  const half = 1 << n;
  let base = 0;
  for (let j = 0; j < n; j++) base -= couplings[j * stride + n]!;
  scratch[0] = base;
  for (let b = 0; b < n; b++) {
    const h = 1 << b;
    const step = 2 * couplings[b * stride + n]!;
    for (let s = 0; s < h; s++) scratch[s + h] = scratch[s]! + step;
  }
  for (let s = 0; s < half; s++) {
    const c = table[s]!;
    const l = scratch[s]!;
    table[s + half] = c + l;
    table[s] = c - l;
  }
}

/** `[min, max]` of `table[0 .. size)`. */
export function tableRange(table: Float64Array, size: number): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (let s = 0; s < size; s++) {
    const v = table[s]!;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return [lo, hi];
}

/** `out[s] = exp(β (table[s] − top))` for `s < size`: the coupling weights shared by one prefix length. */
export function expTable(
  out: Float64Array,
  table: Float64Array,
  size: number,
  beta: number,
  top: number,
): void {
  for (let s = 0; s < size; s++) out[s] = Math.exp(beta * (table[s]! - top));
}

/**
 * Fills `out[s] = exp(β (Σ_{j<n} h_j s_j − Σ_{j<n} |h_j|))` for `s < 2^n` (`h_j = fields[start + j]`),
 * in state order: every value is a product of factors `exp(−2β|h_j|) ≤ 1`, one per spin that
 * disagrees with the sign of its field, so the table's maximum is 1. Costs `2^{n+1}` multiplies,
 * meant for the small half-tables of the split kernels.
 *
 * @returns `Σ_{j<n} |h_j|`.
 */
export function expFieldHalfTable(
  out: Float64Array,
  fields: Float64Array,
  start: number,
  n: number,
  beta: number,
): number {
  let total = 0;
  out[0] = 1;
  for (let b = 0; b < n; b++) {
    const h = fields[start + b]!;
    const a = Math.abs(h);
    total += a;
    const factor = Math.exp(-2 * beta * a);
    const up = h > 0 ? 1 : factor;
    const down = h > 0 ? factor : 1;
    const half = 1 << b;
    for (let s = 0; s < half; s++) {
      const v = out[s]!;
      out[s + half] = v * up;
      out[s] = v * down;
    }
  }
  return total;
}
