import { IsingError } from '../errors.js';
import type { BatchEstimate, IsingBatch, IsingGradients } from '../types.js';

/**
 * Largest spin count the brute-force references enumerate (2^16 states × n² work each).
 *
 * @category Exact reference
 */
export const BRUTE_FORCE_SPIN_LIMIT = 16;

/**
 * Exact moments of one Ising problem, computed by plain enumeration.
 *
 * @category Exact reference
 */
export interface BruteForceMoments {
  /** `⟨s_j⟩`, length `n`. */
  readonly magnetization: Float64Array;
  /** `⟨s_k s_l⟩` as an `n × n` row-major matrix (ones on the diagonal). */
  readonly correlation: Float64Array;
  /** `log Z` with `Z = Σ_s exp(-β E(s))`. */
  readonly logPartition: number;
  /** Probability of every state, index bit `j` set ⇔ `s_j = +1`. */
  readonly probabilities: Float64Array;
}

/** `s_j` of state index `state` (bit j set ⇔ +1). */
export const spinOf = (state: number, j: number): number => ((state >>> j) & 1 ? 1 : -1);

/**
 * The obviously-correct reference for plugin authors' tests: enumerates all `2^n` states,
 * evaluates `-β E(s) = β(Σ_j h_j s_j + Σ_{j<k} J_jk s_j s_k)` term by term, and normalizes
 * in the log domain.
 *
 * @summary The obviously-correct reference for plugin authors' tests.
 * @param fields at least `n` fields; the first `n` are used.
 * @param couplings a square row-major matrix of side ≥ `n`; the strict upper triangle of its
 *   top-left `n × n` block is used (the layout of `IsingBatch.couplings`).
 * @param n spin count, `1 ≤ n ≤ 16`.
 * @param beta inverse temperature.
 * @returns magnetizations, pair correlations, `log Z` and the state probabilities.
 * @throws {IsingError} ISING_TOO_MANY_SPINS above 16 spins, ISING_SHAPE_MISMATCH on short inputs.
 * @example
 * import { bruteForceMoments } from '@boltzmann/ising-core/testing';
 *
 * const { magnetization } = bruteForceMoments(Float64Array.of(0.3, -0.1), Float64Array.of(0, 0.8, 0, 0), 2, 1);
 * console.log(magnetization);
 * @category Exact reference
 */
export function bruteForceMoments(
  fields: ArrayLike<number>,
  couplings: ArrayLike<number>,
  n: number,
  beta: number,
): BruteForceMoments {
  if (!Number.isInteger(n) || n < 1)
    throw new IsingError(
      'ISING_INVALID_ARGUMENT',
      `n must be a positive integer, got ${String(n)}`,
    );
  if (n > BRUTE_FORCE_SPIN_LIMIT) {
    throw new IsingError(
      'ISING_TOO_MANY_SPINS',
      `bruteForceMoments refuses ${n} spins (limit ${BRUTE_FORCE_SPIN_LIMIT})`,
    );
  }
  const side = Math.round(Math.sqrt(couplings.length));
  if (fields.length < n || side * side !== couplings.length || side < n) {
    throw new IsingError(
      'ISING_SHAPE_MISMATCH',
      `bruteForceMoments needs ≥ ${n} fields (got ${fields.length}) and a square couplings matrix of side ≥ ${n} (got ${couplings.length} entries)`,
    );
  }
  const states = 2 ** n;
  const logWeight = new Float64Array(states);
  let maxLog = -Infinity;
  for (let s = 0; s < states; s++) {
    let e = 0;
    for (let j = 0; j < n; j++) {
      e += fields[j]! * spinOf(s, j);
      for (let k = j + 1; k < n; k++) e += couplings[j * side + k]! * spinOf(s, j) * spinOf(s, k);
    }
    logWeight[s] = beta * e;
    if (logWeight[s]! > maxLog) maxLog = logWeight[s]!;
  }
  let z = 0;
  for (let s = 0; s < states; s++) z += Math.exp(logWeight[s]! - maxLog);
  const probabilities = new Float64Array(states);
  for (let s = 0; s < states; s++) probabilities[s] = Math.exp(logWeight[s]! - maxLog) / z;
  const magnetization = new Float64Array(n);
  const correlation = new Float64Array(n * n);
  for (let s = 0; s < states; s++) {
    const p = probabilities[s]!;
    for (let k = 0; k < n; k++) {
      magnetization[k]! += p * spinOf(s, k);
      for (let l = 0; l < n; l++) correlation[k * n + l]! += p * spinOf(s, k) * spinOf(s, l);
    }
  }
  return { magnetization, correlation, logPartition: maxLog + Math.log(z), probabilities };
}

/**
 * Exact moments and VJP of a whole batch by brute force (every problem ≤ 16 spins): the reference
 * a sampler's {@link BatchEstimate} is compared with.
 *
 * The VJP evaluates `β·Cov(G, s_k)` and `β·Σ_q Cov(G, s_k s_l)` literally, state by state.
 *
 * @param batch a validated batch (see `createIsingBatch`).
 * @returns an estimate whose magnetizations and gradients are exact up to rounding.
 * @throws {IsingError} ISING_TOO_MANY_SPINS when a problem has more than 16 spins.
 * @example
 * import { causalBatch } from '@boltzmann/ising-core';
 * import { bruteForceEstimate } from '@boltzmann/ising-core/testing';
 *
 * const fields = Float64Array.from({ length: 2 * 4 * 4 }, (_, i) => Math.sin(i));
 * const couplings = new Float64Array(16).fill(0.2);
 * const reference = bruteForceEstimate(causalBatch(fields, couplings, { batch: 2, length: 4 }));
 * console.log(reference.magnetization);
 * @category Exact reference
 */
export function bruteForceEstimate(batch: IsingBatch): BatchEstimate {
  const { size, stride, spins, beta } = batch;
  const moments: BruteForceMoments[] = [];
  const magnetization = new Float64Array(size * stride);
  for (let q = 0; q < size; q++) {
    const m = bruteForceMoments(
      batch.fields.subarray(q * stride, (q + 1) * stride),
      batch.couplings,
      spins[q]!,
      beta,
    );
    moments.push(m);
    magnetization.set(m.magnetization, q * stride);
  }
  const vjp = (grad: Float64Array): IsingGradients => {
    if (grad.length !== size * stride) {
      throw new IsingError(
        'ISING_SHAPE_MISMATCH',
        `gradMagnetization has ${grad.length} entries; needs ${size * stride}`,
      );
    }
    const fields = new Float64Array(size * stride);
    const couplings = new Float64Array(stride * stride);
    for (let q = 0; q < size; q++) {
      const n = spins[q]!;
      const { probabilities, magnetization: m } = moments[q]!;
      const g = (s: number): number => {
        let total = 0;
        for (let j = 0; j < n; j++) total += grad[q * stride + j]! * spinOf(s, j);
        return total;
      };
      let meanG = 0;
      for (let j = 0; j < n; j++) meanG += grad[q * stride + j]! * m[j]!;
      for (let k = 0; k < n; k++) {
        let cov = 0;
        for (let s = 0; s < probabilities.length; s++)
          cov += probabilities[s]! * (g(s) - meanG) * spinOf(s, k);
        fields[q * stride + k] = beta * cov;
        for (let l = k + 1; l < n; l++) {
          let covPair = 0;
          for (let s = 0; s < probabilities.length; s++)
            covPair += probabilities[s]! * (g(s) - meanG) * spinOf(s, k) * spinOf(s, l);
          couplings[k * stride + l]! += beta * covPair;
        }
      }
    }
    return { fields, couplings };
  };
  return { magnetization, vjp };
}
