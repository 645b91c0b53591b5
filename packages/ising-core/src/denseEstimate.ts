import { IsingError } from './errors.js';
import { validateExactBatch } from './internal/kernels/exactBatch.js';
import { assertGradMagnetization } from './internal/vjpInput.js';
import { foldBitSums, walshHadamard } from './internal/kernels/fold.js';
import { centeredDirection, centeredTable } from './internal/kernels/centeredDirection.js';
import type { BatchEstimate, IsingBatch, IsingGradients } from './types.js';

// Dense distributions are indexed by 32-bit state numbers.
const DENSE_SPIN_LIMIT = 30;

function normalized(batch: IsingBatch, distributions: readonly Float64Array[]): Float64Array[] {
  if (!Array.isArray(distributions) || distributions.length !== batch.size) {
    const got = Array.isArray(distributions)
      ? `${distributions.length} distributions`
      : 'not an array';
    throw new IsingError(
      'ISING_SHAPE_MISMATCH',
      `estimateFromDense: got ${got}; the batch has ${batch.size} problems`,
    );
  }
  return distributions.map((d, q) => {
    const states = 2 ** batch.spins[q]!;
    if (!(d instanceof Float64Array) || d.length !== states) {
      const got = d instanceof Float64Array ? `${d.length} entries` : 'not a Float64Array';
      throw new IsingError(
        'ISING_SHAPE_MISMATCH',
        `estimateFromDense: distribution ${q} is ${got}; ${batch.spins[q]} spins need 2^${batch.spins[q]} = ${states}`,
      );
    }
    let largest = 0;
    for (let s = 0; s < states; s++) {
      const v = d[s]!;
      if (!Number.isFinite(v))
        throw new IsingError(
          'ISING_NOT_FINITE',
          `estimateFromDense: distribution ${q} has ${v} at state ${s}`,
        );
      if (v < 0)
        throw new IsingError(
          'ISING_INVALID_ARGUMENT',
          `estimateFromDense: distribution ${q} has the negative probability ${v} at state ${s}`,
        );
      if (v > largest) largest = v;
    }
    if (!(largest > 0))
      throw new IsingError(
        'ISING_INVALID_ARGUMENT',
        `estimateFromDense: distribution ${q} sums to 0; it needs positive mass`,
      );
    // Scaling by the largest entry first keeps the total finite for weights near the float64 limit
    // (two entries of 1.7e308 summed to Infinity and every p to 0).
    const p = new Float64Array(states);
    let total = 0;
    for (let s = 0; s < states; s++) {
      p[s] = d[s]! / largest;
      total += p[s]!;
    }
    for (let s = 0; s < states; s++) p[s]! /= total;
    return p;
  });
}

/**
 * Moments and VJP of a batch from one dense distribution per problem (`2^n` probabilities,
 * bit `j` of the index set ⇔ `s_j = +1`), e.g. the exact output distribution of a simulated
 * anneal. Distributions are normalized (copies; inputs are not modified). The VJP uses the
 * covariance formulas of METHOD.md §2 with the given distribution in place of the Boltzmann one:
 * `∂L/∂h_k = β Cov(G, s_k)`, `∂L/∂J_kl = β Σ_q Cov_q(G, s_k s_l)`, `G = Σ_j g_j s_j` (taken
 * centered on the distribution's own `P(s = +1)`, returned as `probabilityUp`), with the pair
 * terms of each spin count read off one Walsh–Hadamard transform.
 *
 * @summary Moments and VJP of a batch from one dense distribution per problem.
 * @param batch the problems the distributions belong to (their spin counts and β are used).
 * @param distributions one `Float64Array` of `2^{spins[q]}` non-negative weights per problem.
 * @returns magnetizations, `P(s = +1)` and `vjp(∂L/∂m) → { fields, couplings }`.
 * @throws {IsingError} ISING_SHAPE_MISMATCH (count or lengths), ISING_NOT_FINITE, ISING_INVALID_ARGUMENT (negative or zero mass)
 * @example
 * import { createIsingBatch, estimateFromDense } from '@boltzmann/ising-core';
 *
 * const batch = createIsingBatch({ fields: Float64Array.of(0.1), couplings: Float64Array.of(0), spins: [1], stride: 1 });
 * const est = estimateFromDense(batch, [Float64Array.of(0.25, 0.75)]);
 * console.log(est.magnetization); // [0.5]
 * @category Exact
 */
export function estimateFromDense(
  batch: IsingBatch,
  distributions: readonly Float64Array[],
): BatchEstimate {
  const checked = validateExactBatch(batch, DENSE_SPIN_LIMIT, 'estimateFromDense');
  const probs = normalized(checked, distributions);
  const { size, stride, spins, beta } = checked;
  let maxN = 1;
  for (let q = 0; q < size; q++) maxN = Math.max(maxN, spins[q]!);
  const magnetization = new Float64Array(size * stride);
  const probabilityUp = new Float64Array(size * stride);
  const work = new Float64Array(2 ** maxN);
  for (let q = 0; q < size; q++) {
    const n = spins[q]!;
    work.set(probs[q]!);
    foldBitSums(work, n, probabilityUp, q * stride);
    for (let j = 0; j < n; j++)
      magnetization[q * stride + j] = 2 * probabilityUp[q * stride + j]! - 1;
  }
  const order = Array.from(spins.keys()).sort((a, b) => spins[a]! - spins[b]! || a - b);
  return {
    magnetization,
    probabilityUp,
    vjp(gradMagnetization: Float64Array): IsingGradients {
      assertGradMagnetization(checked, gradMagnetization, 'estimateFromDense vjp');
      const fields = new Float64Array(size * stride);
      const couplings = new Float64Array(stride * stride);
      const acc = new Float64Array(2 ** maxN);
      const x = new Float64Array(2 ** maxN);
      let current = 0;
      const flush = (n: number): void => {
        walshHadamard(acc, n);
        for (let k = 0; k < n; k++)
          for (let l = k + 1; l < n; l++) couplings[k * stride + l]! += acc[(1 << k) | (1 << l)]!;
      };
      for (const q of order) {
        const n = spins[q]!;
        const states = 2 ** n;
        if (n !== current) {
          if (current > 0) flush(current);
          acc.fill(0, 0, states);
          current = n;
        }
        const start = q * stride;
        // β (G − E[G]) per state, built centered (centeredTable: rows of tiny α keep their digits).
        centeredTable(
          x,
          centeredDirection(beta, gradMagnetization, start, n, probabilityUp, start),
          n,
        );
        const p = probs[q]!;
        for (let s = 0; s < states; s++) {
          const v = p[s]! * x[s]!;
          x[s] = v;
          acc[s]! += v;
        }
        const total = foldBitSums(x, n, fields, start);
        for (let k = 0; k < n; k++) fields[start + k] = 2 * fields[start + k]! - total;
      }
      if (current > 0) flush(current);
      return { fields, couplings };
    },
  };
}
