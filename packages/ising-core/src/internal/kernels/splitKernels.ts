/**
 * The per-query inner loops of the fast path. A state `s` of `n` spins is split into its low
 * `m` bits `l` and high bits `r` (`s = r·2^m + l`); the field weight factorizes as
 * `exp(βF(s)) ∝ L[l]·H[r]` with two small tables, so with the shared coupling weights
 * `E[s] = exp(β(C(s) − max C))` the unnormalized probability is `E[s]·L[l]·H[r]`: two loads and
 * two multiplies per state, sequential in `E`, with `L` resident in L1.
 *
 * The loops are unrolled by 4 (when `2^m ≥ 4`): V8 does not unroll, and doing it by hand cut
 * the time per state by a third to a half in measurements on this machine.
 */

/**
 * Forward sums of `p̃(s) = E[s]·L[l]·H[r]`: writes the column sums `Σ_r p̃` into `col[l]` and
 * the row sums `Σ_l p̃` into `row[r]` (the caller folds both into marginals).
 */
export function splitForward(E: Float64Array, L: Float64Array, H: Float64Array, m: number, highBits: number, col: Float64Array, row: Float64Array): void {
  const lowN = 1 << m;
  const highN = 1 << highBits;
  col.fill(0, 0, lowN);
  for (let r = 0; r < highN; r++) {
    const h = H[r]!;
    const base = r << m;
    let a0 = 0;
    let a1 = 0;
    if (lowN >= 4) {
      for (let l = 0; l < lowN; l += 4) {
        const i = base + l;
        const e0 = E[i]!;
        const e1 = E[i + 1]!;
        const e2 = E[i + 2]!;
        const e3 = E[i + 3]!;
        a0 += e0 * L[l]! + e2 * L[l + 2]!;
        a1 += e1 * L[l + 1]! + e3 * L[l + 3]!;
        col[l]! += h * e0;
        col[l + 1]! += h * e1;
        col[l + 2]! += h * e2;
        col[l + 3]! += h * e3;
      }
    } else {
      for (let l = 0; l < lowN; l++) {
        const e = E[base + l]!;
        a0 += e * L[l]!;
        col[l]! += h * e;
      }
    }
    row[r] = h * (a0 + a1);
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
    let s0 = 0;
    let s1 = 0;
    if (lowN >= 4) {
      for (let l = 0; l < lowN; l += 4) {
        const i = base + l;
        const x0 = E[i]! * (A[l]! * ar + B[l]! * br);
        const x1 = E[i + 1]! * (A[l + 1]! * ar + B[l + 1]! * br);
        const x2 = E[i + 2]! * (A[l + 2]! * ar + B[l + 2]! * br);
        const x3 = E[i + 3]! * (A[l + 3]! * ar + B[l + 3]! * br);
        acc[i]! += x0;
        acc[i + 1]! += x1;
        acc[i + 2]! += x2;
        acc[i + 3]! += x3;
        col[l]! += x0;
        col[l + 1]! += x1;
        col[l + 2]! += x2;
        col[l + 3]! += x3;
        s0 += x0 + x2;
        s1 += x1 + x3;
      }
    } else {
      for (let l = 0; l < lowN; l++) {
        const x = E[base + l]! * (A[l]! * ar + B[l]! * br);
        acc[base + l]! += x;
        col[l]! += x;
        s0 += x;
      }
    }
    row[r] = s0 + s1;
  }
}
