import { createIsingBatch, createRng } from '@boltzmann/ising-core';
import type { SampleResult } from '@boltzmann/ising-core';

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

/** The distribution of problem q's sample set, indexed like dqa-sim (bit j set ⇔ s_j = +1). */
export function empirical(result: SampleResult, n: number, q = 0): Float64Array {
  if (result.kind !== 'samples') throw new Error('expected samples');
  const set = result.sets[q]!;
  const p = new Float64Array(2 ** n);
  let total = 0;
  set.weights.forEach((w, i) => {
    let index = 0;
    for (let j = 0; j < n; j++) if (set.states[i * n + j] === 1) index |= 1 << j;
    p[index] = p[index]! + w;
    total += w;
  });
  return p.map((x) => x / total);
}
