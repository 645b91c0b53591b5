import { assertBeta } from '../batch.js';
import { echo } from '../echo.js';
import { IsingError } from '../errors.js';
import { MAX_EXACT_SAMPLES } from '../exact.js';
import type { Sampler } from '../types.js';
import type { SampleIsingOptions } from './types.js';

/** Default reads: dimod's reference samplers' `num_reads` default (dimod@aca7cc3 random_sampler.py). */
export const DEFAULT_READS = 10;

/** The checked inputs of one `sampleIsing` call. */
export interface CheckedProblem {
  readonly n: number;
  readonly fields: Float64Array;
  readonly couplings: Float64Array;
  readonly reads: number;
  readonly beta: number;
  readonly seed: number;
  readonly dense: 'draw' | 'enumerate';
}

function toFloat64(values: ArrayLike<number>, what: string): Float64Array {
  if (values === null || typeof values !== 'object' || typeof values.length !== 'number')
    throw new IsingError(
      'ISING_INVALID_ARGUMENT',
      `sampleIsing: ${what} must be an array of numbers`,
    );
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v: unknown = values[i];
    if (typeof v !== 'number' || !Number.isFinite(v))
      throw new IsingError(
        'ISING_NOT_FINITE',
        `sampleIsing: ${what}[${i}] is ${echo(v)}; every entry must be a finite number`,
      );
    out[i] = v;
  }
  return out;
}

/** `J` must be `n × n`, zero on the diagonal, and its lower triangle zero or the upper's mirror. */
function checkCouplings(couplings: Float64Array, n: number): void {
  if (couplings.length !== n * n)
    throw new IsingError(
      'ISING_SHAPE_MISMATCH',
      `sampleIsing: J has ${couplings.length} entries; ${n} spins need an ${n} × ${n} matrix (${n * n} entries, row-major)`,
    );
  for (let j = 0; j < n; j++) {
    if (couplings[j * n + j] !== 0)
      throw new IsingError(
        'ISING_INVALID_ARGUMENT',
        `sampleIsing: J[${j}][${j}] is ${couplings[j * n + j]}; the diagonal must be 0 (s_j² = 1 is a constant)`,
      );
    for (let k = 0; k < j; k++) {
      const lower = couplings[j * n + k]!;
      if (lower !== 0 && lower !== couplings[k * n + j])
        throw new IsingError(
          'ISING_INVALID_ARGUMENT',
          `sampleIsing: J[${j}][${k}] is ${lower} but J[${k}][${j}] is ${couplings[k * n + j]}; ` +
            'J_jk for j < k is read from the upper triangle: leave the lower triangle 0 or make J symmetric',
        );
    }
  }
}

function checkOptions(
  options: SampleIsingOptions,
): Omit<CheckedProblem, 'n' | 'fields' | 'couplings'> {
  if (options === null || typeof options !== 'object')
    throw new IsingError('ISING_INVALID_ARGUMENT', 'sampleIsing: options must be an object');
  const { reads = DEFAULT_READS, beta = 1, seed = 0, dense = 'draw' } = options;
  if (
    typeof reads !== 'number' ||
    !Number.isInteger(reads) ||
    reads < 1 ||
    reads > MAX_EXACT_SAMPLES
  )
    throw new IsingError(
      'ISING_INVALID_ARGUMENT',
      `sampleIsing: reads must be a positive integer up to 2^24 (${MAX_EXACT_SAMPLES}), got ${echo(reads)}`,
    );
  assertBeta(beta);
  if (typeof seed !== 'number' || !Number.isFinite(seed))
    throw new IsingError(
      'ISING_INVALID_ARGUMENT',
      `sampleIsing: seed must be finite, got ${echo(seed)}`,
    );
  if (dense !== 'draw' && dense !== 'enumerate')
    throw new IsingError(
      'ISING_INVALID_ARGUMENT',
      `sampleIsing: dense must be 'draw' or 'enumerate', got ${echo(dense)}`,
    );
  return { reads, beta, seed, dense };
}

/**
 * Checks a `sampleIsing` call: the sampler implements `sample` or `estimate`, `h` has `n ≥ 1`
 * finite entries, `J` is a finite `n × n` matrix (see `checkCouplings`), `n` is within the
 * sampler's `maxSpins`, and the options are valid.
 *
 * @throws {IsingError} ISING_INVALID_ARGUMENT, ISING_SHAPE_MISMATCH, ISING_NOT_FINITE, ISING_TOO_MANY_SPINS
 */
export function checkProblem(
  sampler: Sampler,
  h: ArrayLike<number>,
  J: ArrayLike<number>,
  options: SampleIsingOptions,
): CheckedProblem {
  if (
    sampler === null ||
    typeof sampler !== 'object' ||
    (typeof sampler.sample !== 'function' && typeof sampler.estimate !== 'function')
  )
    throw new IsingError(
      'ISING_INVALID_ARGUMENT',
      'sampleIsing: the sampler must be a created Sampler with sample(batch) or estimate(batch) (call plugin.create(options))',
    );
  const fields = toFloat64(h, 'h');
  const n = fields.length;
  if (n < 1)
    throw new IsingError('ISING_SHAPE_MISMATCH', 'sampleIsing: h is empty; give one field a spin');
  const couplings = toFloat64(J, 'J');
  checkCouplings(couplings, n);
  const maxSpins = sampler.capabilities?.maxSpins;
  if (typeof maxSpins === 'number' && n > maxSpins)
    throw new IsingError(
      'ISING_TOO_MANY_SPINS',
      `sampleIsing: sampler '${sampler.name}' takes at most ${maxSpins} spins; the problem has ${n}`,
    );
  return { n, fields, couplings, ...checkOptions(options) };
}
