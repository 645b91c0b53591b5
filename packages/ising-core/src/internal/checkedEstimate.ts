import { echo } from '../echo.js';
import { IsingError, isIsingError } from '../errors.js';
import type { BatchEstimate, IsingBatch, IsingGradients, Sampler } from '../types.js';
import { assertGradMagnetization, maxSpinsOf } from './vjpInput.js';

/**
 * How far outside [−1, 1] a magnetization may lie: normalized weights summing to 1 + a few ulps
 * (or a hardware sampler's own rounding) push `⟨s⟩` a hair past ±1; anything larger is a bug.
 */
export const MAGNETIZATION_SLACK = 1e-9;

/** `sampler "<name>"`, with the name echoed (it comes from a plugin, possibly a third-party one). */
export const samplerLabel = (sampler: Sampler): string => `sampler ${echo(sampler.name)}`;

function wrapVjpFailure(who: string, cause: unknown): IsingError {
  if (isIsingError(cause)) return cause;
  const detail = cause instanceof Error ? cause.message : String(cause);
  return new IsingError('ISING_SAMPLER_FAILED', `${who} failed: ${detail}`, { cause });
}

/** Throws unless `value` is a Float64Array of `length` entries, finite wherever `isUsed` says. */
function assertGradientPart(
  who: string,
  part: 'fields' | 'couplings',
  value: unknown,
  length: number,
  shape: string,
): asserts value is Float64Array {
  if (!(value instanceof Float64Array) || value.length !== length) {
    const got =
      value instanceof Float64Array
        ? `${value.length} entries`
        : `no Float64Array (${echo(value, 60)})`;
    throw new IsingError(
      'ISING_SHAPE_MISMATCH',
      `${who} returned ${part} with ${got}; ${shape} needs a Float64Array of ${length}`,
    );
  }
}

/**
 * Wraps a sampler's VJP so its answer is checked before it reaches an optimizer: `fields` must be
 * a `size × stride` Float64Array and `couplings` a `stride × stride` one, finite at every entry a
 * problem uses (fields `j < spins[q]`, couplings `j < k < max spins`). The gradient ∂L/∂m is
 * checked, then handed to the sampler's VJP as is (the same array, not a copy). Cost
 * `O(size·stride + stride²)`, small next to any VJP.
 */
function checkedVjp(
  sampler: Sampler,
  batch: IsingBatch,
  vjp: BatchEstimate['vjp'],
): BatchEstimate['vjp'] {
  const who = `${samplerLabel(sampler)} vjp`;
  const { size, stride, spins } = batch;
  const used = maxSpinsOf(batch);
  return (gradMagnetization: Float64Array): IsingGradients => {
    assertGradMagnetization(batch, gradMagnetization, who);
    let result: IsingGradients;
    try {
      result = vjp(gradMagnetization);
    } catch (error) {
      throw wrapVjpFailure(who, error);
    }
    if (
      result === null ||
      typeof result !== 'object' ||
      typeof (result as { then?: unknown }).then === 'function'
    ) {
      throw new IsingError(
        'ISING_SAMPLER_FAILED',
        `${who} returned ${echo(result, 60)}; expected { fields, couplings } (synchronously)`,
      );
    }
    const { fields, couplings } = result;
    assertGradientPart(who, 'fields', fields, size * stride, `${size} problems × stride ${stride}`);
    assertGradientPart(
      who,
      'couplings',
      couplings,
      stride * stride,
      `a ${stride} × ${stride} matrix`,
    );
    for (let q = 0; q < size; q++) {
      const n = spins[q]!;
      for (let j = 0; j < n; j++) {
        const v = fields[q * stride + j]!;
        if (!Number.isFinite(v)) {
          throw new IsingError(
            'ISING_NOT_FINITE',
            `${who} returned fields[${q * stride + j}] = ${v} (problem ${q}, spin ${j}); every used entry must be finite`,
          );
        }
      }
    }
    for (let j = 0; j < used; j++) {
      for (let k = j + 1; k < used; k++) {
        const v = couplings[j * stride + k]!;
        if (!Number.isFinite(v)) {
          throw new IsingError(
            'ISING_NOT_FINITE',
            `${who} returned couplings[${j * stride + k}] = ${v} (J_${j},${k}); every used entry must be finite`,
          );
        }
      }
    }
    return result;
  };
}

/** How far `2 P(s = +1) − 1` may lie from the magnetization an estimate returns beside it. */
export const PROBABILITY_UP_SLACK = 1e-6;

/**
 * An estimate's optional `probabilityUp` (which `causalWeightsFromEstimate` takes as α): the
 * batch's layout, and wherever a problem has a spin a finite P in [0, 1] with `2P − 1` within
 * {@link PROBABILITY_UP_SLACK} of the magnetization.
 */
function assertProbabilityUp(who: string, batch: IsingBatch, m: Float64Array, up: unknown): void {
  if (up === undefined) return;
  if (!(up instanceof Float64Array) || up.length !== m.length) {
    const got = up instanceof Float64Array ? `${up.length} entries` : echo(up);
    throw new IsingError(
      'ISING_SHAPE_MISMATCH',
      `${who} returned probabilityUp of ${got}; the batch needs a Float64Array of ${m.length}`,
    );
  }
  for (let q = 0; q < batch.size; q++) {
    for (let j = 0; j < batch.spins[q]!; j++) {
      const i = q * batch.stride + j;
      const p = up[i]!;
      if (!Number.isFinite(p))
        throw new IsingError(
          'ISING_NOT_FINITE',
          `${who} returned probabilityUp ${p} for problem ${q}, spin ${j}`,
        );
      if (!(p >= 0 && p <= 1 && Math.abs(2 * p - 1 - m[i]!) <= PROBABILITY_UP_SLACK))
        throw new IsingError(
          'ISING_SAMPLER_FAILED',
          `${who} returned probabilityUp ${p} for problem ${q}, spin ${j} beside magnetization ${m[i]}; ` +
            `P(s = +1) lies in [0, 1] with 2P − 1 = m`,
        );
    }
  }
}

/**
 * Checks a sampler's estimate against the batch and returns it with a checked VJP: `size × stride`
 * magnetizations in `[−1 − ε, 1 + ε]` (ε = {@link MAGNETIZATION_SLACK}) wherever a problem has a
 * spin, `probabilityUp` when it has one (`assertProbabilityUp`), and a `vjp` function whose
 * answers are checked too (see `checkedVjp`). The returned object carries every property of the
 * sampler's estimate (e.g. `logPartition`); only `vjp` differs.
 *
 * @throws {IsingError} ISING_SHAPE_MISMATCH, ISING_NOT_FINITE, ISING_SAMPLER_FAILED naming the sampler, problem and spin.
 */
export function checkEstimate(
  sampler: Sampler,
  batch: IsingBatch,
  estimate: BatchEstimate,
): BatchEstimate {
  const who = samplerLabel(sampler);
  const expected = batch.size * batch.stride;
  const m = (estimate as Partial<BatchEstimate> | null)?.magnetization;
  if (!(m instanceof Float64Array) || m.length !== expected) {
    const got =
      m instanceof Float64Array ? `${m.length} magnetizations` : 'no Float64Array magnetization';
    throw new IsingError(
      'ISING_SHAPE_MISMATCH',
      `${who} returned ${got}; the batch needs ${expected}`,
    );
  }
  const vjp = estimate.vjp;
  if (typeof vjp !== 'function') {
    throw new IsingError(
      'ISING_SAMPLER_FAILED',
      `${who} returned an estimate without a vjp function`,
    );
  }
  for (let q = 0; q < batch.size; q++) {
    for (let j = 0; j < batch.spins[q]!; j++) {
      const v = m[q * batch.stride + j]!;
      if (!Number.isFinite(v)) {
        throw new IsingError(
          'ISING_NOT_FINITE',
          `${who} returned magnetization ${v} for problem ${q}, spin ${j}`,
        );
      }
      if (v < -1 - MAGNETIZATION_SLACK || v > 1 + MAGNETIZATION_SLACK) {
        throw new IsingError(
          'ISING_SAMPLER_FAILED',
          `${who} returned magnetization ${v} for problem ${q}, spin ${j}; a magnetization ⟨s⟩ lies in [−1, 1]`,
        );
      }
    }
  }
  assertProbabilityUp(who, batch, m, (estimate as { probabilityUp?: unknown }).probabilityUp);
  // A copy with the sampler's prototype and own properties, so nothing the sampler returned is mutated.
  const checked = Object.assign(
    Object.create(Object.getPrototypeOf(estimate) as object | null) as BatchEstimate,
    estimate,
  );
  Object.defineProperty(checked, 'vjp', {
    value: checkedVjp(sampler, batch, vjp.bind(estimate)),
    writable: true,
    enumerable: true,
    configurable: true,
  });
  return checked;
}
