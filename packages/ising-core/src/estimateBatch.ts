import { assertSpinLimit } from './batch.js';
import { estimateFromDense } from './denseEstimate.js';
import { echo } from './echo.js';
import { IsingError, isIsingError } from './errors.js';
import { checkEstimate, samplerLabel } from './internal/checkedEstimate.js';
import { maxSpinsOf } from './internal/vjpInput.js';
import { estimateFromSamples } from './sampleEstimate.js';
import type { BatchEstimate, IsingBatch, MaybePromise, SampleResult, Sampler } from './types.js';

const isThenable = <T>(value: MaybePromise<T>): value is Promise<T> =>
  value !== null &&
  typeof value === 'object' &&
  typeof (value as { then?: unknown }).then === 'function';

function wrapFailure(sampler: Sampler, cause: unknown): IsingError {
  if (isIsingError(cause)) return cause;
  // A plugin may throw anything: a plain object reads as its JSON, never `[object Object]`.
  const detail =
    cause instanceof Error && typeof cause.message === 'string' ? cause.message : echo(cause, 300);
  return new IsingError('ISING_SAMPLER_FAILED', `${samplerLabel(sampler)} failed: ${detail}`, {
    cause,
  });
}

function assertBatchShape(batch: IsingBatch): void {
  const { size, stride } = batch;
  if (
    batch.spins.length !== size ||
    batch.fields.length !== size * stride ||
    batch.couplings.length !== stride * stride
  ) {
    throw new IsingError(
      'ISING_SHAPE_MISMATCH',
      `batch of ${size} problems, stride ${stride} has ${batch.spins.length} spin counts, ${batch.fields.length} fields and ` +
        `${batch.couplings.length} couplings; build it with createIsingBatch or causalBatch`,
    );
  }
}

function convert(sampler: Sampler, batch: IsingBatch, result: SampleResult): BatchEstimate {
  const kind = (result as { kind?: unknown } | null)?.kind;
  if (kind === 'dense') {
    return estimateFromDense(
      batch,
      (result as Extract<SampleResult, { kind: 'dense' }>).distributions,
    );
  }
  if (kind === 'samples') {
    return estimateFromSamples(batch, (result as Extract<SampleResult, { kind: 'samples' }>).sets);
  }
  throw new IsingError(
    'ISING_SAMPLER_FAILED',
    `${samplerLabel(sampler)} returned a result of kind ${echo(kind)}; expected 'dense' or 'samples'`,
  );
}

/** Runs `produce`, then `finish` on its value: synchronously, or chained when `produce` gave a promise. */
function pipe<T>(
  sampler: Sampler,
  produce: () => MaybePromise<T>,
  finish: (value: T) => BatchEstimate,
): MaybePromise<BatchEstimate> {
  let value: MaybePromise<T>;
  try {
    value = produce();
  } catch (error) {
    throw wrapFailure(sampler, error);
  }
  if (isThenable(value)) {
    return value.then(finish, (error: unknown) => {
      throw wrapFailure(sampler, error);
    });
  }
  return finish(value);
}

/**
 * Asks any sampler for a batch's magnetizations and VJP: calls `sampler.estimate` when the
 * sampler has one; otherwise `sampler.sample` and converts its answer with the shared code
 * (`'dense'` → {@link estimateFromDense}, `'samples'` → {@link estimateFromSamples}).
 * Synchronous for a synchronous sampler; a promise only when the sampler returned one.
 * The returned estimate's `vjp` checks what the sampler's VJP answers: `fields` (`size × stride`)
 * and `couplings` (`stride × stride`) Float64Arrays, finite at every used entry; it throws
 * ISING_SHAPE_MISMATCH, ISING_NOT_FINITE or ISING_SAMPLER_FAILED saying `sampler "<name>" vjp …`
 * instead of letting NaNs reach the weights.
 *
 * @summary Asks any sampler for a batch's magnetizations and VJP.
 * @param sampler a configured sampler (`plugin.create(options)`).
 * @param batch the problems (see `createIsingBatch`, `causalBatch`).
 * @returns the estimate (or a promise of it) with `size × stride` magnetizations.
 * @throws {IsingError} ISING_TOO_MANY_SPINS above `sampler.capabilities.maxSpins`;
 *   ISING_SAMPLER_FAILED wrapping a sampler's own (non-Ising) exception as `cause`, or a malformed answer;
 *   ISING_SHAPE_MISMATCH on a batch or magnetization of the wrong size; ISING_NOT_FINITE on a non-finite
 *   magnetization; ISING_SAMPLER_FAILED on a magnetization outside [−1, 1] (beyond 1e-9 of rounding); ISING_INVALID_PLUGIN when the sampler has neither `estimate` nor `sample`; and the
 *   conversion's ISING_BAD_SAMPLES. Asynchronous samplers reject with the same codes.
 * @example
 * import { causalBatch, createSamplerRegistry, estimateBatch, gibbsSampler } from '@boltzmann/ising-core';
 *
 * const fields = Float64Array.from({ length: 2 * 8 * 8 }, (_, i) => Math.sin(i));
 * const couplings = new Float64Array(8 * 8).fill(0.1);
 * const registry = createSamplerRegistry().register(gibbsSampler);
 * const sampler = registry.require('gibbs').create({ seed: 1 });
 * const { magnetization, vjp } = await estimateBatch(sampler, causalBatch(fields, couplings, { batch: 2, length: 8 }));
 * const { fields: dh, couplings: dJ } = await vjp(new Float64Array(magnetization.length).fill(1));
 * console.log(dh.length, dJ.length);
 * @category Samplers
 */
export function estimateBatch(sampler: Sampler, batch: IsingBatch): MaybePromise<BatchEstimate> {
  if (
    sampler === null ||
    typeof sampler !== 'object' ||
    typeof sampler.capabilities?.maxSpins !== 'number'
  ) {
    throw new IsingError(
      'ISING_INVALID_PLUGIN',
      `estimateBatch needs a sampler with capabilities.maxSpins (from plugin.create), got ${echo(sampler)}`,
    );
  }
  assertSpinLimit(maxSpinsOf(batch), sampler.capabilities.maxSpins, samplerLabel(sampler));
  assertBatchShape(batch);
  if (typeof sampler.estimate === 'function') {
    const estimate = sampler.estimate.bind(sampler);
    return pipe(
      sampler,
      () => estimate(batch),
      (value) => checkEstimate(sampler, batch, value),
    );
  }
  if (typeof sampler.sample === 'function') {
    const sample = sampler.sample.bind(sampler);
    return pipe(
      sampler,
      () => sample(batch),
      (value) => checkEstimate(sampler, batch, convert(sampler, batch, value)),
    );
  }
  throw new IsingError(
    'ISING_INVALID_PLUGIN',
    `${samplerLabel(sampler)} implements neither estimate(batch) nor sample(batch)`,
  );
}
