import { createRng } from '../../index.js';

/**
 * Test helper of the causalBoltzmann tests: seeded random causal inputs, fields uniform in
 * [−hScale, hScale], couplings in [−jScale, jScale] and an upstream gradient in [−1, 1].
 * Not part of the public API (only the package's own tests import it).
 */
export function randomInputs(
  seed: number,
  batch: number,
  length: number,
  hScale: number,
  jScale: number,
) {
  const rng = createRng(seed);
  return {
    fields: Float64Array.from(
      { length: batch * length * length },
      () => hScale * (2 * rng.next() - 1),
    ),
    couplings: Float64Array.from({ length: length * length }, () => jScale * (2 * rng.next() - 1)),
    upstream: Float64Array.from({ length: batch * length * length }, () => 2 * rng.next() - 1),
  };
}
