import { ERROR_BRAND, hasErrorBrand } from '@boltzmann/ising-core/internal';

/**
 * Every code an {@link AttentionError} can carry.
 *
 * @category Errors
 */
export type AttentionErrorCode =
  | 'ATTENTION_INVALID_CONFIG'
  | 'ATTENTION_INVALID_ARGUMENT'
  | 'ATTENTION_SHAPE_MISMATCH'
  | 'ATTENTION_INVALID_TOKEN'
  | 'ATTENTION_EMPTY_MASK'
  | 'ATTENTION_ASYNC_SAMPLER'
  | 'ATTENTION_STALE_ESTIMATE'
  | 'ATTENTION_SAMPLER_NOT_FOUND'
  | 'ATTENTION_SAMPLER_TIMEOUT'
  | 'ATTENTION_INVALID_CHECKPOINT'
  | 'ATTENTION_NOT_A_FILE'
  | 'ATTENTION_FILE_TOO_LARGE'
  | 'ATTENTION_SAFETENSORS_HEADER'
  | 'ATTENTION_SAFETENSORS_DTYPE'
  | 'ATTENTION_SAFETENSORS_OFFSETS'
  | 'ATTENTION_SAFETENSORS_SIZE'
  | 'ATTENTION_BACKEND_UNAVAILABLE'
  | 'ATTENTION_DISPOSED'
  | 'ATTENTION_THREADS_UNAVAILABLE'
  | 'ATTENTION_WORKER_FAILED'
  | 'ATTENTION_OUT_OF_MEMORY';

/**
 * The one error class of `@boltzmann/attention`.
 *
 * `code` is stable and machine-readable; the message names the offending value. Errors raised by
 * `@boltzmann/ising-core` (an `IsingError`) pass through unchanged.
 *
 * @example
 * import { gibbsSampler } from '@boltzmann/ising-core';
 * import { createTransformer, initBackend, isAttentionError } from '@boltzmann/attention';
 *
 * await initBackend();
 * // An asynchronous sampler cannot answer the synchronous `logits`; `forward` awaits it.
 * const model = createTransformer({ vocabSize: 8, maxLength: 4, dModel: 8, heads: 1, sampler: gibbsSampler.create({ seed: 1 }) });
 * try {
 *   model.logits(new Int32Array(4), 1).dispose();
 * } catch (e) {
 *   if (isAttentionError(e)) console.log(e.code, e.message);
 *   else throw e;
 * }
 * model.dispose();
 * @category Errors
 */
export class AttentionError extends Error {
  /** The cross-copy brand (see `ERROR_BRAND` in ising-core): survives a second copy of this package. */
  readonly [ERROR_BRAND] = 'AttentionError';

  /** `instanceof` checks the brand, so an error from another copy of this package (ESM and CJS, two versions) still matches. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasErrorBrand(value, 'AttentionError');
  }

  override readonly name = 'AttentionError';
  readonly code: AttentionErrorCode;

  constructor(code: AttentionErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/**
 * True when `value` is an {@link AttentionError} (optionally with the given code).
 *
 * @example
 * import { createTransformer, isAttentionError } from '@boltzmann/attention';
 *
 * try {
 *   createTransformer({ vocabSize: 8, maxLength: 4, sampler: 'no-such-sampler' });
 * } catch (e) {
 *   if (isAttentionError(e, 'ATTENTION_SAMPLER_NOT_FOUND')) console.error(e.message);
 *   else throw e;
 * }
 * @category Errors
 */
export function isAttentionError(
  value: unknown,
  code?: AttentionErrorCode,
): value is AttentionError {
  return (
    hasErrorBrand(value, 'AttentionError') &&
    (code === undefined || (value as AttentionError).code === code)
  );
}
