import { createIsingBatch, createRng, estimateBatch } from '@boltzmann/ising-core';
import type { BatchEstimate, IsingBatch, Sampler } from '@boltzmann/ising-core';
import { compareSampler } from './compareEstimates.js';
import type { EstimateError } from './compareEstimates.js';

/** One cell of the random-problem study: a sampler at one size and coupling strength. */
export interface RandomRow extends EstimateError {
  readonly n: number;
  readonly sigmaJ: number;
  readonly sampler: string;
  /** Problems of the cell whose fixed point missed its tolerance. */
  readonly missed: number;
  readonly problems: number;
}

/** `problems` independent problems of `n` spins, h ~ N(0, σ_h²), J_jk ~ N(0, σ_J²) (j < k). */
export function randomBatch(
  n: number,
  problems: number,
  sigmaH: number,
  sigmaJ: number,
  seed: number,
): IsingBatch {
  const rng = createRng(seed);
  const fields = Float64Array.from({ length: problems * n }, () => rng.normal() * sigmaH);
  const couplings = new Float64Array(n * n);
  for (let j = 0; j < n; j++)
    for (let k = j + 1; k < n; k++) couplings[j * n + k] = rng.normal() * sigmaJ;
  return createIsingBatch({
    fields,
    couplings,
    spins: new Array<number>(problems).fill(n),
    stride: n,
  });
}

/**
 * Runs every approximate sampler against `exact` on random problems over a grid of sizes and
 * coupling strengths (METHOD.md §6's accuracy question: where does each break down).
 */
export function randomStudy(
  exact: Sampler,
  samplers: readonly Sampler[],
  grid: {
    sizes: readonly number[];
    sigmaJs: readonly number[];
    sigmaH: number;
    problems: number;
    seed: number;
  },
): RandomRow[] {
  const rows: RandomRow[] = [];
  for (const n of grid.sizes) {
    for (const sigmaJ of grid.sigmaJs) {
      const seed = grid.seed + 1000 * n + Math.round(1e4 * sigmaJ);
      const batch = randomBatch(n, grid.problems, grid.sigmaH, sigmaJ, seed);
      const grng = createRng(seed + 1);
      const grad = Float64Array.from({ length: batch.size * batch.stride }, () => grng.normal());
      for (const sampler of samplers) {
        const error = compareSampler(batch, exact, sampler, grad);
        const d = (estimateBatch(sampler, batch) as BatchEstimate).diagnostics;
        rows.push({
          n,
          sigmaJ,
          sampler: sampler.name,
          ...error,
          missed: d?.missed ?? 0,
          problems: batch.size,
        });
      }
    }
  }
  return rows;
}
