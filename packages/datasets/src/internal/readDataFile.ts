import { echo } from '@boltzmann/ising-core/internal';
import type { Stats } from 'node:fs';
import { DatasetError } from '../errors.js';
import { nodeModules } from './nodeModules.js';

const format = (n: number): string => n.toLocaleString('en-US');

function kindOf(stat: Stats): string {
  if (stat.isDirectory()) return 'a directory';
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isSocket()) return 'a socket';
  return 'not a regular file';
}

function notAFile(what: string, path: string, kind: string, cause?: unknown): DatasetError {
  return new DatasetError(
    'DATASET_NOT_A_FILE',
    `${what} at ${echo(path)} is ${kind}, not a regular file; nothing was read. Point the loader at the data file itself.`,
    cause === undefined ? undefined : { cause },
  );
}

/**
 * Reads a data file whole, refusing anything but a regular file of at most `maxBytes`: the path
 * is opened read-only and non-blocking (opening a FIFO without a writer would otherwise wait
 * forever), checked with `fstat` on that descriptor (so what is checked is what is read), and
 * read into a buffer of its announced size plus one byte, never more.
 *
 * @throws the file system's error when the path cannot be opened (ENOENT, EACCES, …), for the caller to sort.
 * @throws {DatasetError} DATASET_NOT_A_FILE for a directory, FIFO, device or socket;
 *   DATASET_TOO_LARGE over `maxBytes`; DATASET_IO_FAILED when the file grows while it is read.
 */
export function readDataFile(path: string, maxBytes: number, what: string): Buffer {
  const { fs } = nodeModules();
  let fd: number;
  try {
    fd = fs.openSync(path, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  } catch (error) {
    // Where a folder cannot be opened at all (Windows), it is still a folder, not an I/O failure.
    if ((error as NodeJS.ErrnoException).code === 'EISDIR')
      throw notAFile(what, path, 'a directory', error);
    throw error;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw notAFile(what, path, kindOf(stat));
    if (stat.size > maxBytes) {
      throw new DatasetError(
        'DATASET_TOO_LARGE',
        `${what} at ${echo(path)} has ${format(stat.size)} bytes, more than the limit of ${format(maxBytes)} bytes ` +
          '(MAX_DATA_FILE_BYTES); nothing was read',
      );
    }
    // One byte more than announced: receiving it means the file grew after fstat.
    const buffer = Buffer.allocUnsafe(stat.size + 1);
    let length = 0;
    for (;;) {
      const n = fs.readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
      if (length > stat.size) {
        throw new DatasetError(
          'DATASET_IO_FAILED',
          `${what} at ${echo(path)} grew past its announced ${format(stat.size)} bytes while it was read; read it again once nothing writes to it`,
        );
      }
    }
    return buffer.subarray(0, length);
  } finally {
    fs.closeSync(fd);
  }
}
