/**
 * The per-query inner loops of the fast path. A state `s` of `n` spins is split into its low
 * `m` bits `l` and high bits `r` (`s = r·2^m + l`); the field weight factorizes as
 * `exp(βF(s)) ∝ L[l]·H[r]` with two small tables, so with the shared coupling weights
 * `E[s] = exp(β(C(s) − max C))` the unnormalized probability is `E[s]·L[l]·H[r]`: two loads and
 * two multiplies per state, sequential in `E`, with `L` resident in L1.
 */

/**
 * Forward sums of `p̃(s) = E[s]·L[l]·H[r]`: writes the column sums `Σ_r p̃` into `col[l]` and
 * the row sums `Σ_l p̃` into `row[r]`; returns nothing (the caller folds both).
 */
export function splitForward(E: Float64Array, L: Float64Array, H: Float64Array, m: number, highBits: number, col: Float64Array, row: Float64Array): void {
  const lowN = 1 << m;
  const highN = 1 << highBits;
  col.fill(0, 0, lowN);
  for (let r = 0; r < highN; r++) {
    const h = H[r]!;
    const base = r << m;
    let acc = 0;
    for (let l = 0; l < lowN; l++) {
      const e = E[base + l]!;
      acc += e * L[l]!;
      col[l]! += h * e;
    }
    row[r] = h * acc;
  }
  for (let l = 0; l < lowN; l++) col[l] = col[l]! * L[l]!;
}

/**
 * Backward sums of `x(s) = E[s]·(A[l]·a[r] + B[l]·b[r])` (= `β p(s)(G(s) − E[G])` for the
 * tables the caller built): accumulates `x` into `acc` (the per-length table of the ∂J
 * transform) and writes its column sums into `col[l]` and row sums into `row[r]`.
 */
export function splitBackward(
  E: Float64Array,
  A: Float64Array,
  B: Float64Array,
  a: Float64Array,
  b: Float64Array,
  m: number,
  highBits: number,
  acc: Float64Array,
  col: Float64Array,
  row: Float64Array,
): void {
  const lowN = 1 << m;
  const highN = 1 << highBits;
  col.fill(0, 0, lowN);
  for (let r = 0; r < highN; r++) {
    const ar = a[r]!;
    const br = b[r]!;
    const base = r << m;
    let sum = 0;
    for (let l = 0; l < lowN; l++) {
      const x = E[base + l]! * (A[l]! * ar + B[l]! * br);
      acc[base + l]! += x;
      col[l]! += x;
      sum += x;
    }
    row[r] = sum;
  }
}
