import { echo } from '@boltzmann/ising-core/internal';

/** Every code a {@link BenchError} can carry. */
export type BenchErrorCode =
  | 'BENCH_INVALID_OPTION'
  | 'BENCH_UNKNOWN_TASK'
  | 'BENCH_PLUGIN_LOAD'
  | 'BENCH_RUN_FAILED'
  | 'BENCH_INTERRUPTED'
  | 'BENCH_CORRUPT_CHECKPOINT'
  | 'BENCH_CORRUPT_METRICS'
  | 'BENCH_RESULTS_LOCKED'
  | 'BENCH_RESULTS_INVALID'
  | 'BENCH_SAMPLER_TOO_SMALL'
  | 'BENCH_MISSING_API'
  | 'BENCH_DRY_RUN'
  | 'BENCH_MODEL_NOT_FOUND'
  | 'BENCH_BAD_MODEL'
  | 'BENCH_MODEL_MISMATCH'
  | 'BENCH_BAD_PROMPT'
  | 'BENCH_NO_RESULTS'
  | 'BENCH_QUEUE_UNREACHABLE'
  | 'BENCH_QUEUE_AUTH'
  | 'BENCH_GRID_INCOMPLETE'
  | 'BENCH_INVALID_JOB'
  | 'BENCH_FORBIDDEN_OPTION'
  | 'BENCH_UNSAFE_PATH'
  | 'BENCH_OVER_BUDGET'
  | 'BENCH_LOW_FIDELITY';

/**
 * The error class of the bench CLI. `code` is stable; the message names the offending value.
 *
 * @example
 * throw new BenchError('BENCH_INVALID_OPTION', '--lengths must be positive integers, got "4,x"');
 */
export class BenchError extends Error {
  override readonly name = 'BenchError';
  readonly code: BenchErrorCode;

  constructor(code: BenchErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** True when `value` is an error object that carries a string `code` (any @boltzmann package, Node). */
export function hasErrorCode(value: unknown): value is Error & { code: string } {
  return value instanceof Error && typeof (value as { code?: unknown }).code === 'string';
}

/** A field of a thrown error as text: a string as it is, anything else echoed (bounded JSON). */
const asText = (value: unknown): string => (typeof value === 'string' ? value : echo(value));

/**
 * The code and message of anything thrown, never `[object Object]`: errors without a code are
 * `BENCH_RUN_FAILED` (unexpected) with `Name: message`; a thrown value that is not an Error (a
 * plugin rejecting with a string or a plain object), or an error whose message is not a string,
 * is echoed (quoted, JSON, cut at ~120 characters). Never throws.
 *
 * @param error anything thrown.
 * @returns its code and one-line message.
 */
export function errorParts(error: unknown): { code: string; message: string } {
  try {
    if (hasErrorCode(error)) return { code: error.code, message: asText(error.message) };
    if (error instanceof Error)
      return {
        code: 'BENCH_RUN_FAILED',
        message: `${asText(error.name)}: ${asText(error.message)}`,
      };
    return { code: 'BENCH_RUN_FAILED', message: `a non-Error value was thrown: ${echo(error)}` };
  } catch {
    // A proxy whose every trap throws, a message getter that throws, …
    return { code: 'BENCH_RUN_FAILED', message: 'a value that cannot be printed was thrown' };
  }
}

/**
 * One line for the terminal: `error [CODE]: message` (see {@link errorParts}), never a stack
 * trace. Never throws.
 *
 * @param error anything thrown.
 * @returns the line to print.
 * @example
 * formatError({ reason: 'x' }); // 'error [BENCH_RUN_FAILED]: a non-Error value was thrown: {"reason":"x"}'
 */
export function formatError(error: unknown): string {
  const { code, message } = errorParts(error);
  return `error [${code}]: ${message}`;
}
