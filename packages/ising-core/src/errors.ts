import { ERROR_BRAND, hasErrorBrand } from './errorBrand.js';

/**
 * Every code an {@link IsingError} can carry.
 *
 * @category Errors
 */
export type IsingErrorCode =
  | 'ISING_SHAPE_MISMATCH'
  | 'ISING_NOT_FINITE'
  | 'ISING_TOO_MANY_SPINS'
  | 'ISING_INVALID_ARGUMENT'
  | 'ISING_SAMPLER_NOT_FOUND'
  | 'ISING_SAMPLER_DUPLICATE'
  | 'ISING_REGISTRY_FROZEN'
  | 'ISING_INVALID_PLUGIN'
  | 'ISING_SAMPLER_FAILED'
  | 'ISING_WORKER_FAILED'
  | 'ISING_BAD_SAMPLES'
  | 'ISING_NOT_CONVERGED'
  | 'ISING_UNSUPPORTED';

/**
 * The one error class of `@boltzmann/ising-core`. `code` is stable and machine-readable;
 * the message names the offending value.
 *
 * @example
 * import { isIsingError, logPartition } from '@boltzmann/ising-core';
 *
 * try {
 *   logPartition(new Float64Array(40), new Float64Array(40 * 40)); // 2^40 states: refused
 * } catch (e) {
 *   if (isIsingError(e) && e.code === 'ISING_TOO_MANY_SPINS') console.log('too large:', e.message);
 *   else throw e;
 * }
 * @category Errors
 */
export class IsingError extends Error {
  /** The cross-copy brand (see `ERROR_BRAND` in ising-core): survives a second copy of this package. */
  readonly [ERROR_BRAND] = 'IsingError';

  /** `instanceof` checks the brand, so an error from another copy of this package (ESM and CJS, two versions) still matches. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasErrorBrand(value, 'IsingError');
  }

  override readonly name = 'IsingError';
  readonly code: IsingErrorCode;

  constructor(code: IsingErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/**
 * True when `value` is an {@link IsingError} (optionally with the given code).
 *
 * @category Errors
 */
export function isIsingError(value: unknown, code?: IsingErrorCode): value is IsingError {
  return (
    hasErrorBrand(value, 'IsingError') &&
    (code === undefined || (value as IsingError).code === code)
  );
}
