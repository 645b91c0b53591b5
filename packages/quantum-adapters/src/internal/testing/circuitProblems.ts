import { createIsingBatch, createRng } from '@boltzmann/ising-core';

// What the gate-model sampler tests (braket, ibm) run: a short anneal and random one-problem
// batches. Test-only.

/** A short second-order anneal without calibration, so dqa-sim's distribution is the reference. */
export const anneal = { tau: 4, steps: 8, order: 2 as const, calibrate: false as const };

/** One random problem of n spins (normal fields, couplings 0.7 × normal), β = 0.8. */
export function problem(seed: number, n: number) {
  const rng = createRng(seed);
  const fields = Float64Array.from({ length: n }, () => rng.normal());
  const couplings = Float64Array.from({ length: n * n }, (_, i) =>
    Math.floor(i / n) < i % n ? 0.7 * rng.normal() : 0,
  );
  return createIsingBatch({ fields, couplings, spins: [n], stride: n, beta: 0.8 });
}
