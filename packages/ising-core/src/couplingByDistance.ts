/**
 * The mean learned coupling at each distance: `out[d − 1]` is the mean of `J[j][j + d]` over
 * `j = 0 … length − 1 − d`, for `d = 1 … length − 1` (the strict upper triangle, where the causal
 * model's couplings live). One head's matrix, e.g. an entry of the attention package's `model.couplings()`.
 *
 * @param couplings a row-major matrix with rows `stride` apart.
 * @param length T: the top-left `T × T` block is read.
 * @param stride the row length (default `length`; `maxLength` for a model's full matrix).
 * @returns `length − 1` means (empty for `length ≤ 1`).
 * @example
 * const [layer0head0] = model.couplings();
 * const profile = meanCouplingByDistance(layer0head0, 16, model.config.maxLength); // J at d = 1 … 15
 */
export function meanCouplingByDistance(
  couplings: ArrayLike<number>,
  length: number,
  stride = length,
): Float64Array {
  const out = new Float64Array(Math.max(0, length - 1));
  for (let d = 1; d < length; d++) {
    let sum = 0;
    for (let j = 0; j + d < length; j++) sum += couplings[j * stride + j + d]!;
    out[d - 1] = sum / (length - d);
  }
  return out;
}
