import { IsingError } from '../errors.js';
import type { IsingBatch } from '../types.js';

/**
 * Checks an upstream gradient ∂L/∂m against the batch layout: `size × stride` entries, finite
 * wherever a problem has a spin (entries beyond `spins[q]` are ignored, as in `fields`).
 *
 * @throws {IsingError} ISING_SHAPE_MISMATCH, ISING_NOT_FINITE
 */
export function assertGradMagnetization(batch: IsingBatch, grad: Float64Array, who: string): void {
  const { size, stride, spins } = batch;
  if (!(grad instanceof Float64Array) || grad.length !== size * stride) {
    const got = grad instanceof Float64Array ? `${grad.length} entries` : 'not a Float64Array';
    throw new IsingError(
      'ISING_SHAPE_MISMATCH',
      `${who}: gradMagnetization is ${got}; ${size} problems × stride ${stride} needs a Float64Array of ${size * stride}`,
    );
  }
  for (let q = 0; q < size; q++) {
    const n = spins[q]!;
    for (let j = 0; j < n; j++) {
      const v = grad[q * stride + j]!;
      if (!Number.isFinite(v)) {
        throw new IsingError(
          'ISING_NOT_FINITE',
          `${who}: gradMagnetization[${q * stride + j}] (problem ${q}, spin ${j}) is ${String(v)}`,
        );
      }
    }
  }
}

/** Largest spin count of any problem in the batch. */
export function maxSpinsOf(batch: IsingBatch): number {
  let max = 0;
  for (let q = 0; q < batch.size; q++) if (batch.spins[q]! > max) max = batch.spins[q]!;
  return max;
}
