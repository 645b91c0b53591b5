import { assertBeta, assertSpinLimit, createIsingBatch } from './batch.js';
import { echo } from './echo.js';
import { IsingError } from './errors.js';
import { estimateExact } from './estimateExact.js';
import { resolveMaxSpins } from './internal/kernels/exactBatch.js';
import { assertExactRange } from './internal/kernels/exactRange.js';
import { walshHadamard } from './internal/kernels/fold.js';
import { extendCouplingTable, linearTable } from './internal/kernels/tables.js';
import type { Rng } from './rng.js';
import { drawDense } from './sampling/draws.js';
import type { IsingBatch, RealArray, SampleSet } from './types.js';

/**
 * Options of the single-model exact functions.
 *
 * @category Exact
 */
export interface ExactModelOptions {
  /** Inverse temperature (default 1). */
  readonly beta?: number;
  /** Spin count `n` (default `fields.length`); `couplings` may be any square matrix of side ≥ n. */
  readonly spins?: number;
  /** Largest spin count to enumerate (default 24). */
  readonly maxSpins?: number;
}

/** Validates one model and returns it as a one-problem batch (fields padded to the coupling side). */
function modelBatch(
  fields: RealArray,
  couplings: RealArray,
  options: ExactModelOptions,
  who: string,
): IsingBatch {
  const n = options.spins ?? fields.length;
  if (!Number.isInteger(n) || n < 1)
    throw new IsingError(
      'ISING_INVALID_ARGUMENT',
      `${who}: the spin count must be a positive integer, got ${echo(n)}`,
    );
  assertSpinLimit(n, resolveMaxSpins(options.maxSpins), who);
  const side = Math.round(Math.sqrt(couplings.length));
  if (side * side !== couplings.length || side < n) {
    throw new IsingError(
      'ISING_SHAPE_MISMATCH',
      `${who}: couplings has ${couplings.length} entries; it must be a square matrix of side ≥ ${n}`,
    );
  }
  if (fields.length < n)
    throw new IsingError(
      'ISING_SHAPE_MISMATCH',
      `${who}: fields has ${fields.length} entries; ${n} spins need ${n}`,
    );
  const padded = new Float64Array(side);
  for (let j = 0; j < n; j++) padded[j] = fields[j]!;
  const batch = createIsingBatch({
    fields: padded,
    couplings,
    spins: [n],
    stride: side,
    beta: options.beta ?? 1,
  });
  assertExactRange(batch, who);
  return batch;
}

/**
 * The energy `E(s) = −Σ_j h_j s_j − Σ_{j<k} J_jk s_j s_k` of all `2^n` states (bit `j` of the
 * index set ⇔ `s_j = +1`), by two doubling DPs: one add per state for each term.
 *
 * @param fields `h`, at least `n` entries.
 * @param couplings square row-major matrix of side ≥ `n`; the strict upper triangle of its top-left block is used.
 * @param n spin count (default `fields.length`, at most 24).
 * @returns `Float64Array` of `2^n` energies.
 * @throws {IsingError} ISING_SHAPE_MISMATCH, ISING_NOT_FINITE, ISING_TOO_MANY_SPINS
 * @example
 * import { energies } from '@boltzmann/ising-core';
 *
 * console.log(energies(Float64Array.of(1, 0), Float64Array.of(0, 0.5, 0, 0))); // [0.5, −0.5, 1.5, −1.5]
 * @category Exact
 */
export function energies(fields: RealArray, couplings: RealArray, n?: number): Float64Array {
  const batch = modelBatch(fields, couplings, n === undefined ? {} : { spins: n }, 'energies');
  const size = batch.spins[0]!;
  const states = 2 ** size;
  const table = new Float64Array(states);
  const scratch = new Float64Array(states);
  for (let k = 0; k < size; k++)
    extendCouplingTable(table, k, batch.couplings, batch.stride, scratch);
  linearTable(scratch, batch.fields, 0, size, 1, 0);
  for (let s = 0; s < states; s++) table[s] = -(scratch[s]! + table[s]!);
  return table;
}

/**
 * `log Z = log Σ_s exp(−β E(s))`, overflow-free for any finite model.
 *
 * @throws {IsingError} ISING_SHAPE_MISMATCH, ISING_NOT_FINITE, ISING_TOO_MANY_SPINS, ISING_INVALID_ARGUMENT
 * @example
 * import { logPartition } from '@boltzmann/ising-core';
 *
 * console.log(logPartition(Float64Array.of(0.5), Float64Array.of(0))); // log(2 cosh 0.5)
 * @category Exact
 */
export function logPartition(
  fields: RealArray,
  couplings: RealArray,
  options: ExactModelOptions = {},
): number {
  return estimateExact(modelBatch(fields, couplings, options, 'logPartition'), options)
    .logPartition[0]!;
}

/**
 * The magnetizations `⟨s_j⟩` of one model (length `n`).
 *
 * @throws {IsingError} ISING_SHAPE_MISMATCH, ISING_NOT_FINITE, ISING_TOO_MANY_SPINS, ISING_INVALID_ARGUMENT
 * @example
 * import { magnetizations } from '@boltzmann/ising-core';
 *
 * // ⟨s_0⟩ = tanh(0.5), ⟨s_1⟩ = tanh(0.5) tanh(1)
 * console.log(magnetizations(Float64Array.of(0.5, 0), Float64Array.of(0, 1, 0, 0)));
 * @category Exact
 */
export function magnetizations(
  fields: RealArray,
  couplings: RealArray,
  options: ExactModelOptions = {},
): Float64Array {
  const batch = modelBatch(fields, couplings, options, 'magnetizations');
  return estimateExact(batch, options).magnetization.slice(0, batch.spins[0]!);
}

/**
 * The Boltzmann probabilities `p(s) = exp(−β E(s)) / Z` of all `2^n` states (bit `j` ⇔ `s_j = +1`).
 *
 * @throws {IsingError} ISING_SHAPE_MISMATCH, ISING_NOT_FINITE, ISING_TOO_MANY_SPINS, ISING_INVALID_ARGUMENT
 * @example
 * import { boltzmannDistribution } from '@boltzmann/ising-core';
 *
 * const p = boltzmannDistribution(Float64Array.of(0.2, -0.1), Float64Array.of(0, 0.4, 0, 0), { beta: 2 });
 * console.log(p); // 4 probabilities, one per state, summing to 1
 * @category Exact
 */
export function boltzmannDistribution(
  fields: RealArray,
  couplings: RealArray,
  options: ExactModelOptions = {},
): Float64Array {
  const beta = options.beta ?? 1;
  assertBeta(beta);
  const e = energies(fields, couplings, options.spins ?? fields.length);
  let low = Infinity;
  for (let s = 0; s < e.length; s++) if (e[s]! < low) low = e[s]!;
  let z = 0;
  for (let s = 0; s < e.length; s++) {
    const w = Math.exp(-beta * (e[s]! - low));
    e[s] = w;
    z += w;
  }
  for (let s = 0; s < e.length; s++) e[s] = e[s]! / z;
  return e;
}

/**
 * The pair correlations `⟨s_j s_k⟩` as an `n × n` row-major matrix (ones on the diagonal), all
 * read off one Walsh–Hadamard transform of the distribution (`O(n 2^n)`).
 *
 * @throws {IsingError} ISING_SHAPE_MISMATCH, ISING_NOT_FINITE, ISING_TOO_MANY_SPINS, ISING_INVALID_ARGUMENT
 * @example
 * import { correlations } from '@boltzmann/ising-core';
 *
 * console.log(correlations(Float64Array.of(0, 0), Float64Array.of(0, 1, 0, 0))); // off-diagonal tanh(1)
 * @category Exact
 */
export function correlations(
  fields: RealArray,
  couplings: RealArray,
  options: ExactModelOptions = {},
): Float64Array {
  const n = options.spins ?? fields.length;
  const p = boltzmannDistribution(fields, couplings, options);
  walshHadamard(p, n);
  const out = new Float64Array(n * n);
  for (let j = 0; j < n; j++) {
    out[j * n + j] = 1;
    for (let k = j + 1; k < n; k++) {
      const v = p[(1 << j) | (1 << k)]!;
      out[j * n + k] = v;
      out[k * n + j] = v;
    }
  }
  return out;
}

/**
 * Most samples one {@link sampleExact} call draws: 2^24, i.e. at most 16 MiB per spin of states
 * plus 128 MiB of weights.
 *
 * Larger counts would fail with a raw `RangeError` or exhaust memory; draw them in several calls
 * (the generator's stream continues).
 * @category Exact
 */
export const MAX_EXACT_SAMPLES = 2 ** 24;

/**
 * Draws `count` independent exact samples from the Boltzmann distribution (inverse CDF with a
 * binary search over the `2^n` cumulative probabilities).
 *
 * @param rng a seeded generator (`createRng(seed)`); the result is a function of its stream.
 * @returns a {@link SampleSet} of `count` states (±1 rows), each with weight 1.
 * @param count samples to draw, an integer in `[0, 2^24]`.
 * @throws {IsingError} ISING_INVALID_ARGUMENT on a bad count (negative, fractional or above 2^24 = 16,777,216);
 *   as {@link boltzmannDistribution} otherwise.
 * @example
 * import { createRng, sampleExact } from '@boltzmann/ising-core';
 *
 * const set = sampleExact(Float64Array.of(0.3, 0.1), Float64Array.of(0, 0.5, 0, 0), 1000, createRng(7));
 * console.log(set.states.length / set.spins); // 1000 rows
 * @category Exact
 */
export function sampleExact(
  fields: RealArray,
  couplings: RealArray,
  count: number,
  rng: Rng,
  options: ExactModelOptions = {},
): SampleSet {
  if (!Number.isInteger(count) || count < 0 || count > MAX_EXACT_SAMPLES) {
    throw new IsingError(
      'ISING_INVALID_ARGUMENT',
      `sampleExact: count must be an integer in [0, ${MAX_EXACT_SAMPLES.toLocaleString('en-US')}] (2^24 samples per call; draw more in several calls), got ${echo(count)}`,
    );
  }
  const n = options.spins ?? fields.length;
  const { states } = drawDense(boltzmannDistribution(fields, couplings, options), n, count, rng);
  return { spins: n, states, weights: new Float64Array(count).fill(1) };
}
