import type { IsingBatch } from '../types.js';

/**
 * The symmetric `stride × stride` coupling matrix (zero diagonal) from the strict upper
 * triangle of `batch.couplings`, over the first `used` spins (the rest stays zero). Every
 * problem's prefix block of it is that problem's symmetric coupling matrix.
 */
export function symmetricCouplings(batch: IsingBatch, used: number): Float64Array {
  const { stride, couplings } = batch;
  const sym = new Float64Array(stride * stride);
  for (let j = 0; j < used; j++) {
    for (let k = j + 1; k < used; k++) {
      const v = couplings[j * stride + k]!;
      sym[j * stride + k] = v;
      sym[k * stride + j] = v;
    }
  }
  return sym;
}
