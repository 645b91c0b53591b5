/**
 * Dense matrix–vector kernels of the fixed-point samplers: `J x` and `(J ∘ J) y` over the top-left
 * `n × n` block of a row-major `stride × stride` matrix. Four rows per pass, so each `x[k]` load
 * feeds four independent accumulators (V8 neither unrolls nor vectorizes; measured 1.5 GMAC/s
 * against 0.85 for the plain row loop at n = 256). Same sums as the plain loops, in the same order
 * per row, so the results are bit-identical to them.
 */

/** `out[j] = Σ_k J[j, k] x[k]` for `j < n`. */
export function matvec(
  sym: Float64Array,
  stride: number,
  n: number,
  x: Float64Array,
  out: Float64Array,
): void {
  let j = 0;
  for (; j + 3 < n; j += 4) {
    const r0 = j * stride;
    const r1 = r0 + stride;
    const r2 = r1 + stride;
    const r3 = r2 + stride;
    let a = 0;
    let b = 0;
    let c = 0;
    let d = 0;
    for (let k = 0; k < n; k++) {
      const xk = x[k]!;
      a += sym[r0 + k]! * xk;
      b += sym[r1 + k]! * xk;
      c += sym[r2 + k]! * xk;
      d += sym[r3 + k]! * xk;
    }
    out[j] = a;
    out[j + 1] = b;
    out[j + 2] = c;
    out[j + 3] = d;
  }
  for (; j < n; j++) {
    const row = j * stride;
    let s = 0;
    for (let k = 0; k < n; k++) s += sym[row + k]! * x[k]!;
    out[j] = s;
  }
}

/** `jx[j] = Σ_k J[j, k] x[k]` and `wy[j] = Σ_k J[j, k]² y[k]` for `j < n`, in one pass over `J`. */
export function matvecAndSquares(
  sym: Float64Array,
  stride: number,
  n: number,
  x: Float64Array,
  y: Float64Array,
  jx: Float64Array,
  wy: Float64Array,
): void {
  let j = 0;
  for (; j + 3 < n; j += 4) {
    const r0 = j * stride;
    const r1 = r0 + stride;
    const r2 = r1 + stride;
    const r3 = r2 + stride;
    let a = 0;
    let b = 0;
    let c = 0;
    let d = 0;
    let a2 = 0;
    let b2 = 0;
    let c2 = 0;
    let d2 = 0;
    for (let k = 0; k < n; k++) {
      const xk = x[k]!;
      const yk = y[k]!;
      const v0 = sym[r0 + k]!;
      const v1 = sym[r1 + k]!;
      const v2 = sym[r2 + k]!;
      const v3 = sym[r3 + k]!;
      a += v0 * xk;
      b += v1 * xk;
      c += v2 * xk;
      d += v3 * xk;
      a2 += v0 * v0 * yk;
      b2 += v1 * v1 * yk;
      c2 += v2 * v2 * yk;
      d2 += v3 * v3 * yk;
    }
    jx[j] = a;
    jx[j + 1] = b;
    jx[j + 2] = c;
    jx[j + 3] = d;
    wy[j] = a2;
    wy[j + 1] = b2;
    wy[j + 2] = c2;
    wy[j + 3] = d2;
  }
  for (; j < n; j++) {
    const row = j * stride;
    let s = 0;
    let t = 0;
    for (let k = 0; k < n; k++) {
      const v = sym[row + k]!;
      s += v * x[k]!;
      t += v * v * y[k]!;
    }
    jx[j] = s;
    wy[j] = t;
  }
}
