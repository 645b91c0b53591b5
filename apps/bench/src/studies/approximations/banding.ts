import type { IsingBatch } from '@boltzmann/ising-core';

/** Largest spin count of any problem: the used block of the shared couplings. */
const usedSide = (batch: IsingBatch): number => batch.spins.reduce((m, n) => Math.max(m, n), 0);

/** A copy of `batch` with every coupling of distance `k − j > w` set to zero (bandwidth `w`). */
export function bandedBatch(batch: IsingBatch, w: number): IsingBatch {
  const couplings = Float64Array.from(batch.couplings);
  const { stride } = batch;
  for (let j = 0; j < stride; j++)
    for (let k = j + w + 1; k < stride; k++) couplings[j * stride + k] = 0;
  return { ...batch, couplings };
}

/**
 * The share of coupling mass a bandwidth-`w` approximation drops: `Σ_{k−j>w} |J_jk| / Σ_{j<k} |J_jk|`
 * over the used block (0 when J is zero).
 */
export function discardedMass(batch: IsingBatch, w: number): number {
  const side = usedSide(batch);
  let out = 0;
  let all = 0;
  for (let j = 0; j < side; j++) {
    for (let k = j + 1; k < side; k++) {
      const a = Math.abs(batch.couplings[j * batch.stride + k]!);
      all += a;
      if (k - j > w) out += a;
    }
  }
  return all === 0 ? 0 : out / all;
}
