import { echo, readRegularFile } from '@boltzmann/ising-core/internal';
import type { RegularFileRefusal } from '@boltzmann/ising-core/internal';
import { DatasetError } from '../errors.js';
import { nodeModules } from './nodeModules.js';

const format = (n: number): string => n.toLocaleString('en-US');

/** The dataset's coded error for each refusal of ising-core's `readRegularFile`. */
function refusal(
  what: string,
  path: string,
  maxBytes: number,
  r: RegularFileRefusal,
): DatasetError {
  if (r.reason === 'not-a-file') {
    return new DatasetError(
      'DATASET_NOT_A_FILE',
      `${what} at ${echo(path)} is ${r.kind}, not a regular file; nothing was read. Point the loader at the data file itself.`,
      r.cause === undefined ? undefined : { cause: r.cause },
    );
  }
  if (r.reason === 'too-large') {
    return new DatasetError(
      'DATASET_TOO_LARGE',
      `${what} at ${echo(path)} has ${format(r.size)} bytes, more than the limit of ${format(maxBytes)} bytes ` +
        '(MAX_DATA_FILE_BYTES); nothing was read',
    );
  }
  return new DatasetError(
    'DATASET_IO_FAILED',
    `${what} at ${echo(path)} grew past its announced ${format(r.size)} bytes while it was read; read it again once nothing writes to it`,
  );
}

/**
 * Reads a data file whole, refusing anything but a regular file of at most `maxBytes` (ising-core's
 * `readRegularFile`: non-blocking open, `fstat` on the descriptor, never more than announced).
 *
 * @throws the file system's error when the path cannot be opened (ENOENT, EACCES, …), for the caller to sort.
 * @throws {DatasetError} DATASET_NOT_A_FILE for a directory, FIFO, device or socket;
 *   DATASET_TOO_LARGE over `maxBytes`; DATASET_IO_FAILED when the file grows while it is read;
 *   DATASET_UNSUPPORTED outside Node.
 */
export function readDataFile(path: string, maxBytes: number, what: string): Buffer {
  nodeModules();
  const bytes = readRegularFile(path, maxBytes, (r) => refusal(what, path, maxBytes, r));
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
