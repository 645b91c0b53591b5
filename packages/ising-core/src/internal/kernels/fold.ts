/**
 * Folds `values[0 .. 2^n)` onto index 0 and writes, for every bit `k < n`, the sum of the
 * entries with bit `k` set into `out[outStart + k]`. The top bit's sum is the upper half;
 * adding the upper half onto the lower half leaves a table over `n − 1` bits whose bit sums
 * are unchanged, so all `n` sums cost `2^n` adds. Destroys `values`.
 *
 * @returns the total `Σ_s values[s]`.
 */
export function foldBitSums(
  values: Float64Array,
  n: number,
  out: Float64Array,
  outStart: number,
): number {
  for (let k = n - 1; k >= 0; k--) {
    const half = 1 << k;
    let upper = 0;
    for (let s = 0; s < half; s++) {
      const v = values[s + half]!;
      upper += v;
      values[s] = values[s]! + v;
    }
    out[outStart + k] = upper;
  }
  return values[0]!;
}

/**
 * In-place fast Walsh–Hadamard transform of `values[0 .. 2^n)`:
 * `out[u] = Σ_s values[s] (−1)^{popcount(s & u)}`. With bit set ⇔ `s_j = +1`,
 * `Σ_s W(s) s_k s_l` is the entry at `(1 << k) | (1 << l)`. `O(n 2^n)`.
 */
export function walshHadamard(values: Float64Array, n: number): void {
  const size = 1 << n;
  let half = 1;
  if (n >= 2) {
    // The two innermost levels as one radix-4 step: short butterfly loops are all overhead.
    for (let s = 0; s < size; s += 4) {
      const a = values[s]!;
      const b = values[s + 1]!;
      const c = values[s + 2]!;
      const d = values[s + 3]!;
      const ab = a + b;
      const amb = a - b;
      const cd = c + d;
      const cmd = c - d;
      values[s] = ab + cd;
      values[s + 1] = amb + cmd;
      values[s + 2] = ab - cd;
      values[s + 3] = amb - cmd;
    }
    half = 4;
  }
  for (; half < size; half <<= 1) {
    for (let block = 0; block < size; block += half << 1) {
      const end = block + half;
      for (let s = block; s < end; s++) {
        const a = values[s]!;
        const b = values[s + half]!;
        values[s] = a + b;
        values[s + half] = a - b;
      }
    }
  }
}
