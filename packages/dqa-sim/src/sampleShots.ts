import { echo } from '@boltzmann/ising-core/internal';
import type { Rng, SampleSet } from '@boltzmann/ising-core';
import { DqaError } from './errors.js';

/**
 * Most shots one problem may take: 2^24 = 16,777,216 (the sorted uniforms alone take 8 bytes per
 * shot, 128 MiB at the limit).
 *
 * A larger count failed with a raw `RangeError` or exhausted memory.
 * @category Annealing
 */
export const DQA_MAX_SHOTS = 2 ** 24;

/**
 * Throws DQA_INVALID_ARGUMENT unless `shots` is an integer in `[min, DQA_MAX_SHOTS]`.
 *
 * @param min 1 for {@link sampleShots}; 0 for the sampler option (0 = the exact distribution).
 */
export function assertShots(shots: unknown, min: 0 | 1): asserts shots is number {
  if (
    typeof shots !== 'number' ||
    !Number.isInteger(shots) ||
    shots < min ||
    shots > DQA_MAX_SHOTS
  ) {
    throw new DqaError(
      'DQA_INVALID_ARGUMENT',
      `shots must be an integer in [${min}, ${DQA_MAX_SHOTS.toLocaleString('en-US')}] (at most 2^24 per problem), got ${echo(shots)}`,
    );
  }
}

/**
 * Draws `shots` measurements from a dense distribution over `n` spins (index bit j set ⇔
 * `s_j = +1`) and merges repeats: each distinct state appears once, with its count as weight,
 * in increasing index order. Sorting the uniforms lets one pass over the cumulative sum serve
 * every shot: O(2^n + shots · log shots).
 *
 * @summary Draws `shots` measurements from a dense distribution over `n` spins (index bit j set ⇔ `s_j = +1`) and merges repeats.
 * @param probabilities `2^n` non-negative weights (normalized internally).
 * @param n spin count.
 * @param shots number of measurements, an integer in `[1, 2^24]` ({@link DQA_MAX_SHOTS}).
 * @param rng seeded generator (`createRng` from `@boltzmann/ising-core`).
 * @returns a sample set whose weights sum to `shots`.
 * @throws {DqaError} DQA_INVALID_ARGUMENT on a bad shot count (not an integer, < 1 or > 2^24) or a distribution of the wrong length
 *   or without positive mass; DQA_NOT_FINITE on a negative or non-finite probability.
 * @example
 * import { createRng } from '@boltzmann/ising-core';
 * import { annealDistribution, sampleShots } from '@boltzmann/dqa-sim';
 *
 * const set = sampleShots(annealDistribution({ fields: [0.4] }), 1, 1000, createRng(1));
 * console.log(set.weights); // how often each distinct state came up
 * @category Annealing
 */
export function sampleShots(
  probabilities: Float64Array,
  n: number,
  shots: number,
  rng: Rng,
): SampleSet {
  assertShots(shots, 1);
  if (!Number.isInteger(n) || n < 1 || probabilities.length !== 2 ** n) {
    throw new DqaError(
      'DQA_INVALID_ARGUMENT',
      `a distribution over ${echo(n)} spins needs 2^${echo(n)} entries, got ${echo(probabilities?.length)}`,
    );
  }
  let total = 0;
  for (let s = 0; s < probabilities.length; s++) {
    const p = probabilities[s]!;
    if (!(p >= 0) || !Number.isFinite(p))
      throw new DqaError(
        'DQA_NOT_FINITE',
        `probabilities[${s}] is ${echo(p)}; it must be finite and ≥ 0`,
      );
    total += p;
  }
  if (!(total > 0))
    throw new DqaError('DQA_INVALID_ARGUMENT', 'the distribution has no positive mass');
  const u = new Float64Array(shots);
  for (let i = 0; i < shots; i++) u[i] = rng.next() * total;
  u.sort();
  const indices: number[] = [];
  const counts: number[] = [];
  let cumulative = 0;
  let i = 0;
  const last = probabilities.length - 1;
  for (let s = 0; s <= last && i < shots; s++) {
    cumulative += probabilities[s]!;
    let c = 0;
    // The last state takes any shots left over by rounding in the cumulative sum.
    while (i < shots && (u[i]! < cumulative || s === last)) {
      c++;
      i++;
    }
    if (c > 0) {
      indices.push(s);
      counts.push(c);
    }
  }
  const states = new Int8Array(indices.length * n);
  for (let r = 0; r < indices.length; r++) {
    const s = indices[r]!;
    for (let j = 0; j < n; j++) states[r * n + j] = (s >>> j) & 1 ? 1 : -1;
  }
  return { spins: n, states, weights: Float64Array.from(counts) };
}
