import { echo } from './echo.js';
import { IsingError } from './errors.js';
import type { IsingBatch, RealArray } from './types.js';

/**
 * Default largest spin count for exact enumeration (2^24 states ≈ 128 MiB of float64 scratch).
 *
 * @category Problems
 */
export const DEFAULT_EXACT_SPIN_LIMIT = 24;

/**
 * Shape of a causal attention call: `batch` sequences of `length` positions.
 *
 * @category Problems
 */
export interface CausalShape {
  readonly batch: number;
  readonly length: number;
}

function assertPositiveInt(value: number, what: string): void {
  if (!Number.isInteger(value) || value < 1) {
    throw new IsingError(
      'ISING_INVALID_ARGUMENT',
      `${what} must be a positive integer, got ${echo(value)}`,
    );
  }
}

/**
 * Throws `ISING_NOT_FINITE` naming the first non-finite entry among the first `count` of `values`,
 * optionally only at the indices `isUsed` accepts.
 */
export function assertFinite(
  values: ArrayLike<number>,
  what: string,
  isUsed?: (index: number) => boolean,
): void {
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (!Number.isFinite(v) && (isUsed === undefined || isUsed(i))) {
      throw new IsingError(
        'ISING_NOT_FINITE',
        `${what}[${i}] is ${String(v)}; every used entry must be finite`,
      );
    }
  }
}

/**
 * Throws `ISING_INVALID_ARGUMENT` unless `beta` is finite and positive.
 *
 * @category Problems
 */
export function assertBeta(beta: number): void {
  if (!Number.isFinite(beta) || beta <= 0) {
    throw new IsingError(
      'ISING_INVALID_ARGUMENT',
      `beta must be a finite positive number, got ${echo(beta)}`,
    );
  }
}

/**
 * Throws `ISING_TOO_MANY_SPINS` when `spins` exceeds `limit`, pointing at approximate samplers.
 * @category Problems
 */
export function assertSpinLimit(spins: number, limit: number, who = 'exact enumeration'): void {
  if (spins > limit) {
    throw new IsingError(
      'ISING_TOO_MANY_SPINS',
      `${who} refuses ${spins} spins (limit ${limit}; 2^${spins} states). ` +
        `Raise the limit with { maxSpins } if memory allows, or use an approximate sampler: 'mean-field', 'gibbs' or 'dqa'.`,
    );
  }
}

/**
 * Builds and validates an {@link IsingBatch}.
 *
 * @param input.fields `size × stride` row-major fields (Float32Array or Float64Array).
 * @param input.couplings `stride × stride` row-major couplings; strict upper triangle used.
 * @param input.spins spin count of each problem, `1 ≤ spins[q] ≤ stride`.
 * @param input.beta inverse temperature (default 1).
 * @throws {IsingError} ISING_SHAPE_MISMATCH, ISING_NOT_FINITE, ISING_INVALID_ARGUMENT
 * @category Problems
 */
export function createIsingBatch(input: {
  fields: RealArray;
  couplings: RealArray;
  spins: ArrayLike<number>;
  stride: number;
  beta?: number;
}): IsingBatch {
  const { stride } = input;
  assertPositiveInt(stride, 'stride');
  const size = input.spins.length;
  const beta = input.beta ?? 1;
  assertBeta(beta);
  if (input.fields.length !== size * stride) {
    throw new IsingError(
      'ISING_SHAPE_MISMATCH',
      `fields has ${input.fields.length} entries; ${size} problems × stride ${stride} needs ${size * stride}`,
    );
  }
  if (input.couplings.length !== stride * stride) {
    throw new IsingError(
      'ISING_SHAPE_MISMATCH',
      `couplings has ${input.couplings.length} entries; a ${stride} × ${stride} matrix needs ${stride * stride}`,
    );
  }
  // Check the values as given: Int32Array.from wraps 2^32 + 1 to 1 and truncates 2.5 to 2.
  const spins = new Int32Array(size);
  let maxUsed = 0;
  for (let q = 0; q < size; q++) {
    const n: unknown = input.spins[q];
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > stride) {
      throw new IsingError(
        'ISING_SHAPE_MISMATCH',
        `spins[${q}] is ${echo(n)}; it must be an integer in [1, ${stride}]`,
      );
    }
    spins[q] = n;
    if (n > maxUsed) maxUsed = n;
  }
  assertFinite(input.fields, 'fields', (i) => i % stride < spins[Math.floor(i / stride)]!);
  assertFinite(input.couplings, 'couplings', (i) => {
    const j = Math.floor(i / stride);
    const k = i % stride;
    return j < k && k < maxUsed;
  });
  return {
    size,
    stride,
    spins,
    fields: input.fields instanceof Float64Array ? input.fields : Float64Array.from(input.fields),
    couplings:
      input.couplings instanceof Float64Array
        ? input.couplings
        : Float64Array.from(input.couplings),
    beta,
  };
}

/**
 * Validates a batch a caller passed in, as `createIsingBatch` does (shapes, finite entries, β),
 * whatever object it is: the samplers' entry check.
 *
 * @param who the caller, for the message (e.g. `'transfer-matrix'`).
 * @throws {IsingError} ISING_INVALID_ARGUMENT when it is not an IsingBatch; ISING_SHAPE_MISMATCH
 *   when its `size` disagrees with its spin counts; and what `createIsingBatch` throws.
 */
export function revalidateBatch(batch: IsingBatch, who: string): IsingBatch {
  if (batch === null || typeof batch !== 'object' || !(batch.spins instanceof Int32Array)) {
    throw new IsingError(
      'ISING_INVALID_ARGUMENT',
      `${who} needs an IsingBatch (build it with createIsingBatch or causalBatch)`,
    );
  }
  const checked = createIsingBatch({
    fields: batch.fields,
    couplings: batch.couplings,
    spins: batch.spins,
    stride: batch.stride,
    beta: batch.beta,
  });
  if (checked.size !== batch.size) {
    throw new IsingError(
      'ISING_SHAPE_MISMATCH',
      `batch.size is ${batch.size} but it lists ${checked.size} spin counts`,
    );
  }
  return checked;
}

/**
 * The batch of one causal attention call: query `i` of sequence `b` is problem `b*length + i`
 * with the `i + 1` spins of keys `0..i` and fields `fields[(b*length + i)*length + j]`.
 *
 * @throws {IsingError} ISING_SHAPE_MISMATCH, ISING_NOT_FINITE, ISING_INVALID_ARGUMENT
 * @category Problems
 */
export function causalBatch(
  fields: RealArray,
  couplings: RealArray,
  shape: CausalShape,
  beta = 1,
): IsingBatch {
  assertPositiveInt(shape.batch, 'shape.batch');
  assertPositiveInt(shape.length, 'shape.length');
  const { batch, length } = shape;
  const spins = new Int32Array(batch * length);
  for (let q = 0; q < spins.length; q++) spins[q] = (q % length) + 1;
  return createIsingBatch({ fields, couplings, spins, stride: length, beta });
}
