import { ERROR_BRAND, hasErrorBrand } from '@boltzmann/ising-core/internal';

/**
 * Every code a {@link DatasetError} can carry.
 *
 * @category Errors
 */
export type DatasetErrorCode =
  /**
   * The data file is not where we looked and downloading is off (or impossible, in the sync
   * loader), or a configured data directory is missing or lacks the file (never routed around).
   */
  | 'DATASET_NOT_FOUND'
  /** The runtime lacks what is needed: Node's modules for the file loaders, or WebCrypto / `fetch` for `loadTinyShakespeareFrom`. */
  | 'DATASET_UNSUPPORTED'
  /** Downloading the data file failed (network error, HTTP error, empty body, the caller's abort). */
  | 'DATASET_OFFLINE'
  /** The download did not complete within the timeout (`options.timeoutMs`). */
  | 'DATASET_TIMEOUT'
  /**
   * The server announced or sent more bytes than the limit (`options.maxBytes`; the transfer was
   * stopped), or a data file on disk is larger than `MAX_DATA_FILE_BYTES` (nothing was read).
   */
  | 'DATASET_TOO_LARGE'
  /** A path given for a data file is a directory, FIFO, device or socket, not a regular file (nothing was read). */
  | 'DATASET_NOT_A_FILE'
  /** A data file (on disk, downloaded, fetched or given as bytes) does not have the expected sha256. */
  | 'DATASET_CORRUPT'
  /** Reading or writing a data file failed for a reason other than absence (permissions, full disk, …). */
  | 'DATASET_IO_FAILED'
  /** An argument is out of range or malformed; the message names it. */
  | 'DATASET_INVALID_ARGUMENT';

/**
 * The one error class of `@boltzmann/datasets`. `code` is stable and machine-readable; the
 * message names the offending value and, for file problems, where we looked and what to do.
 *
 * @example
 * import { isDatasetError, loadTinyShakespeare } from '@boltzmann/datasets';
 *
 * try {
 *   await loadTinyShakespeare({ dataDir: '/no/such/dir' }); // a data directory never downloads
 * } catch (e) {
 *   if (isDatasetError(e, 'DATASET_NOT_FOUND')) console.error(e.message);
 *   else throw e;
 * }
 * @category Errors
 */
export class DatasetError extends Error {
  /** The cross-copy brand (see `ERROR_BRAND` in ising-core): survives a second copy of this package. */
  readonly [ERROR_BRAND] = 'DatasetError';

  /** `instanceof` checks the brand, so an error from another copy of this package (ESM and CJS, two versions) still matches. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasErrorBrand(value, 'DatasetError');
  }

  override readonly name = 'DatasetError';
  readonly code: DatasetErrorCode;

  constructor(code: DatasetErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/**
 * True when `value` is a {@link DatasetError} (optionally with the given code).
 *
 * @param value anything caught.
 * @param code when given, also require this code.
 * @returns whether `value` is such an error.
 * @category Errors
 */
export function isDatasetError(value: unknown, code?: DatasetErrorCode): value is DatasetError {
  return (
    hasErrorBrand(value, 'DatasetError') &&
    (code === undefined || (value as DatasetError).code === code)
  );
}
