import { ERROR_BRAND, hasErrorBrand } from '@boltzmann/ising-core/internal';

/**
 * Every code a {@link DqaError} can carry.
 *
 * @category Errors
 */
export type DqaErrorCode =
  | 'DQA_TOO_MANY_QUBITS'
  | 'DQA_BAD_SCHEDULE'
  | 'DQA_SCHEDULE_PARSER_NOT_LOADED'
  | 'DQA_INVALID_ARGUMENT'
  | 'DQA_NOT_FINITE'
  | 'DQA_SHAPE_MISMATCH';

/**
 * The one error class of `@boltzmann/dqa-sim`. `code` is stable and machine-readable;
 * the message names the offending value.
 *
 * @example
 * import { annealDistribution, isDqaError } from '@boltzmann/dqa-sim';
 *
 * try {
 *   annealDistribution({ fields: new Array(12).fill(0.1) }, { maxQubits: 10 });
 * } catch (e) {
 *   if (isDqaError(e, 'DQA_TOO_MANY_QUBITS')) console.log(e.message);
 *   else throw e;
 * }
 * @category Errors
 */
export class DqaError extends Error {
  /** The cross-copy brand (see `ERROR_BRAND` in ising-core): survives a second copy of this package. */
  readonly [ERROR_BRAND] = 'DqaError';

  /** `instanceof` checks the brand, so an error from another copy of this package (ESM and CJS, two versions) still matches. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasErrorBrand(value, 'DqaError');
  }

  override readonly name = 'DqaError';
  readonly code: DqaErrorCode;

  /**
   * @param code the machine-readable reason.
   * @param message a sentence naming the offending value.
   * @param options `{ cause }` when wrapping another error.
   */
  constructor(code: DqaErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/**
 * True when `value` is a {@link DqaError}, optionally with the given code.
 *
 * @param value anything caught.
 * @param code narrow to one code.
 * @returns whether `value` is such an error.
 * @category Errors
 */
export function isDqaError(value: unknown, code?: DqaErrorCode): value is DqaError {
  return (
    hasErrorBrand(value, 'DqaError') && (code === undefined || (value as DqaError).code === code)
  );
}
