/**
 * Solves the dense system `A x = b` (`A` is `n × n` row-major) by Gaussian elimination with
 * partial pivoting, in place on copies. Returns `undefined` when a pivot is zero or so small
 * relative to its column that the system is numerically singular.
 */
export function solveLinear(
  matrix: Float64Array,
  rhs: Float64Array,
  n: number,
): Float64Array | undefined {
  const a = Float64Array.from(matrix.subarray(0, n * n));
  const x = Float64Array.from(rhs.subarray(0, n));
  let scale = 0;
  for (let i = 0; i < n * n; i++) scale = Math.max(scale, Math.abs(a[i]!));
  const tiny = scale * n * Number.EPSILON;
  for (let col = 0; col < n; col++) {
    let pivotRow = col;
    let pivotAbs = Math.abs(a[col * n + col]!);
    for (let r = col + 1; r < n; r++) {
      const v = Math.abs(a[r * n + col]!);
      if (v > pivotAbs) {
        pivotAbs = v;
        pivotRow = r;
      }
    }
    if (!(pivotAbs > tiny)) return undefined;
    if (pivotRow !== col) {
      for (let c = col; c < n; c++) {
        const t = a[col * n + c]!;
        a[col * n + c] = a[pivotRow * n + c]!;
        a[pivotRow * n + c] = t;
      }
      const t = x[col]!;
      x[col] = x[pivotRow]!;
      x[pivotRow] = t;
    }
    const pivot = a[col * n + col]!;
    for (let r = col + 1; r < n; r++) {
      const factor = a[r * n + col]! / pivot;
      if (factor === 0) continue;
      for (let c = col + 1; c < n; c++) a[r * n + c]! -= factor * a[col * n + c]!;
      a[r * n + col] = 0;
      x[r]! -= factor * x[col]!;
    }
  }
  for (let r = n - 1; r >= 0; r--) {
    let v = x[r]!;
    for (let c = r + 1; c < n; c++) v -= a[r * n + c]! * x[c]!;
    x[r] = v / a[r * n + r]!;
  }
  return x;
}
