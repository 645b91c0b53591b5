/**
 * The mean learned coupling at each distance: `out[d − 1]` is the mean of `J[j][j + d]` over
 * `j = 0 … length − 1 − d`, for `d = 1 … length − 1` (the strict upper triangle, where the causal
 * model's couplings live). One head's matrix, e.g. an entry of the attention package's `model.couplings()`.
 *
 * @summary The mean learned coupling at each distance.
 * @param couplings a row-major matrix with rows `stride` apart.
 * @param length T: the top-left `T × T` block is read.
 * @param stride the row length (default `length`; `maxLength` for a model's full matrix).
 * @returns `length − 1` means (empty for `length ≤ 1`).
 * @example
 * import { meanCouplingByDistance } from '@boltzmann/ising-core';
 *
 * // One head's couplings, e.g. an entry of the attention package's `model.couplings()`.
 * const length = 4;
 * const J = Float64Array.of(0, 0.5, -0.2, 0.1, 0, 0, 0.3, 0, 0, 0, 0, 0.1, 0, 0, 0, 0);
 * console.log(meanCouplingByDistance(J, length)); // J at d = 1, 2, 3: [0.3, -0.1, 0.1]
 * @category Exact
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
