import { ERROR_BRAND, hasErrorBrand } from '@boltzmann/ising-core/internal';

/**
 * Why a remote call failed, in the terms a caller acts on.
 *
 * @category Errors
 */
export type AdapterErrorReason =
  | 'auth'
  | 'quota'
  | 'timeout'
  | 'rejected'
  | 'unavailable'
  | 'malformed';

/**
 * Every code an {@link AdapterError} can carry.
 *
 * @category Errors
 */
export type AdapterErrorCode =
  | 'ADAPTER_AUTH'
  | 'ADAPTER_QUOTA'
  | 'ADAPTER_RATE_LIMITED'
  | 'ADAPTER_TIMEOUT'
  | 'ADAPTER_REJECTED'
  | 'ADAPTER_NOT_FOUND'
  | 'ADAPTER_UNAVAILABLE'
  | 'ADAPTER_MALFORMED'
  | 'ADAPTER_RESPONSE_TOO_LARGE'
  | 'ADAPTER_REDIRECT_REFUSED'
  | 'ADAPTER_PROBLEM_FAILED'
  | 'ADAPTER_PROBLEM_CANCELLED'
  | 'ADAPTER_NO_SOLVER'
  | 'ADAPTER_EMBEDDING'
  | 'ADAPTER_INVALID_ARGUMENT'
  | 'ADAPTER_DRY_RUN'
  | 'ADAPTER_LOW_FIDELITY';

/**
 * Constructor options of {@link AdapterError}.
 *
 * @category Errors
 */
export interface AdapterErrorOptions {
  readonly reason: AdapterErrorReason;
  readonly retryable: boolean;
  /** HTTP status of the failed response, when there was one. */
  readonly status?: number;
  /** Server-requested wait before a retry (from `Retry-After`), in milliseconds. */
  readonly retryAfterMs?: number;
  readonly cause?: unknown;
}

/**
 * The one error class of `@boltzmann/quantum-adapters`.
 *
 * `code` is stable and machine-readable, `reason` groups codes by what the caller can do, and
 * `retryable` says whether sending the same request again can succeed (the plugins already retried
 * retryable failures before throwing). Messages never contain API tokens.
 *
 * @example
 * // not run: it sends a problem to D-Wave Leap (DWAVE_API_TOKEN)
 * import { causalBatch, estimateBatch } from '@boltzmann/ising-core';
 * import { createDwaveSampler, isAdapterError } from '@boltzmann/quantum-adapters';
 *
 * const sampler = createDwaveSampler({ numReads: 100 });
 * try {
 *   await estimateBatch(sampler, causalBatch(new Float64Array(16), new Float64Array(16), { batch: 1, length: 4 }));
 * } catch (e) {
 *   if (isAdapterError(e) && e.reason === 'auth') console.error('check DWAVE_API_TOKEN');
 *   else throw e;
 * }
 * @category Errors
 */
export class AdapterError extends Error {
  /** The cross-copy brand (see `ERROR_BRAND` in ising-core): survives a second copy of this package. */
  readonly [ERROR_BRAND] = 'AdapterError';

  /** `instanceof` checks the brand, so an error from another copy of this package (ESM and CJS, two versions) still matches. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasErrorBrand(value, 'AdapterError');
  }

  override readonly name = 'AdapterError';
  readonly code: AdapterErrorCode;
  readonly reason: AdapterErrorReason;
  readonly retryable: boolean;
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;

  constructor(code: AdapterErrorCode, message: string, options: AdapterErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.reason = options.reason;
    this.retryable = options.retryable;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/**
 * True when `value` is an {@link AdapterError} (optionally with the given code).
 *
 * @category Errors
 */
export function isAdapterError(value: unknown, code?: AdapterErrorCode): value is AdapterError {
  return (
    hasErrorBrand(value, 'AdapterError') &&
    (code === undefined || (value as AdapterError).code === code)
  );
}

/**
 * Shorthand for the non-retryable, caller-side errors (bad options, bad input).
 * @internal
 */
export function invalidArgument(message: string): AdapterError {
  return new AdapterError('ADAPTER_INVALID_ARGUMENT', message, {
    reason: 'rejected',
    retryable: false,
  });
}

/**
 * Shorthand for a reply that does not follow the documented protocol.
 * @internal
 */
export function malformed(message: string, cause?: unknown): AdapterError {
  return new AdapterError('ADAPTER_MALFORMED', message, {
    reason: 'malformed',
    retryable: false,
    cause,
  });
}

/**
 * The {@link AdapterError} behind `error`, following `cause` links: `estimateBatch` wraps a
 * sampler's own errors as `IsingError('ISING_SAMPLER_FAILED', …, { cause })`.
 *
 * @returns the first AdapterError in the chain, or `undefined`.
 * @example
 * import { IsingError } from '@boltzmann/ising-core';
 * import { adapterErrorOf, classifyDwaveError } from '@boltzmann/quantum-adapters';
 *
 * // The adapter's error, found through the `cause` chain of the error that wraps it (as a trainer's).
 * const wrapped = new IsingError('ISING_SAMPLER_FAILED', 'the sampler failed', {
 *   cause: classifyDwaveError(429, { error_code: 429, error_msg: 'Too many requests' }, { retryAfterMs: 1000 }),
 * });
 * console.log(adapterErrorOf(wrapped)?.retryable); // true: send it again later
 * @category Errors
 */
export function adapterErrorOf(error: unknown): AdapterError | undefined {
  for (
    let e = error, depth = 0;
    e !== null && e !== undefined && depth < 8;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    if (e instanceof AdapterError) return e;
  }
  return undefined;
}
