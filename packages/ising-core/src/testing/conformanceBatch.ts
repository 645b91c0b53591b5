// The conformance suite's problems: the random causal batch, its upstream gradient, and the exact
// two-spin moments.
import { causalBatch } from '../batch.js';
import { createRng } from '../rng.js';
import type { IsingBatch } from '../types.js';

export const RANDOM_SHAPE = { batch: 2, length: 4 } as const;

/**
 * The B = 2, T = 4 causal batch; every coupling entry is random, so reading below the diagonal shows up.
 *
 * @category Conformance
 */
export function conformanceBatch(
  seed: number,
  fieldScale: number,
  couplingScale: number,
): IsingBatch {
  const rng = createRng(seed);
  const { batch, length } = RANDOM_SHAPE;
  const fields = Float64Array.from(
    { length: batch * length * length },
    () => rng.normal() * fieldScale,
  );
  const couplings = Float64Array.from(
    { length: length * length },
    () => rng.normal() * couplingScale,
  );
  return causalBatch(fields, couplings, RANDOM_SHAPE);
}

export function upstreamGradient(batch: IsingBatch, seed: number): Float64Array {
  const rng = createRng(seed + 7919);
  return Float64Array.from({ length: batch.size * batch.stride }, () => 2 * rng.next() - 1);
}

/** Exact moments of `h = (0.3, −0.1)`, `J_01 = 0.8`, β = 1, enumerated inline as a check on the check. */
export function twoSpinExact(): [number, number] {
  let z = 0;
  let m0 = 0;
  let m1 = 0;
  for (const s0 of [-1, 1]) {
    for (const s1 of [-1, 1]) {
      const w = Math.exp(0.3 * s0 - 0.1 * s1 + 0.8 * s0 * s1);
      z += w;
      m0 += w * s0;
      m1 += w * s1;
    }
  }
  return [m0 / z, m1 / z];
}
