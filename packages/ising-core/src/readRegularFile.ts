import { IsingError } from './errors.js';
import { nodeBuiltin } from './nodeBuiltin.js';

type Fs = typeof import('node:fs');
type Stats = import('node:fs').Stats;

/** Why {@link readRegularFile} read nothing (or stopped): the caller turns it into its own coded error. */
export type RegularFileRefusal =
  /** A directory, FIFO, device or socket; `kind` says which in words (`'a FIFO (named pipe)'`). */
  | { readonly reason: 'not-a-file'; readonly kind: string; readonly cause?: unknown }
  /** The file announces `size` bytes, more than the limit; nothing was read. */
  | { readonly reason: 'too-large'; readonly size: number }
  /** The file grew past its announced `size` while it was read. */
  | { readonly reason: 'grew'; readonly size: number };

function kindOf(stat: Stats): string {
  if (stat.isDirectory()) return 'a directory';
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** Reads the open descriptor's `size` bytes, and one more to notice a file that grows meanwhile. */
function readAll(
  fs: Fs,
  fd: number,
  size: number,
  refuse: (r: RegularFileRefusal) => Error,
): Uint8Array {
  const buffer = new Uint8Array(size + 1);
  let length = 0;
  for (;;) {
    const n = fs.readSync(fd, buffer, length, buffer.length - length, null);
    if (n === 0) break;
    length += n;
    if (length > size) throw refuse({ reason: 'grew', size });
  }
  return buffer.subarray(0, length);
}

/**
 * Reads a file whole, refusing anything but a regular file of at most `maxBytes`: the path is
 * opened read-only and non-blocking (opening a FIFO without a writer would otherwise wait
 * forever), checked with `fstat` on that descriptor (so what is checked is what is read), and
 * read into a buffer of its announced size plus one byte, never more. So `/dev/zero`, a FIFO or a
 * huge file given where a data or model file belongs costs nothing. The one such reader of the
 * workspace (datasets' data files, attention's and the bench's model files). Node.js only.
 *
 * @param path the file.
 * @param maxBytes the largest size accepted.
 * @param refuse builds the caller's coded error for each {@link RegularFileRefusal}.
 * @returns the bytes.
 * @throws `refuse(…)`; the file system's own error when the path cannot be opened (ENOENT,
 *   EACCES, …) for the caller to sort; {@link IsingError} ISING_UNSUPPORTED outside Node.js.
 * @example
 * const bytes = readRegularFile(path, 64 << 20, (r) => new MyError('MY_BAD_FILE', `${path}: ${r.reason}`));
 */
export function readRegularFile(
  path: string,
  maxBytes: number,
  refuse: (refusal: RegularFileRefusal) => Error,
): Uint8Array {
  const fs = nodeBuiltin<Fs>('node:fs');
  if (fs === undefined)
    throw new IsingError('ISING_UNSUPPORTED', `reading ${path} needs Node.js (node:fs)`);
  let fd: number;
  try {
    fd = fs.openSync(path, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  } catch (error) {
    // Where a folder cannot be opened at all (Windows), it is still a folder, not an I/O failure.
    if ((error as { code?: unknown }).code === 'EISDIR')
      throw refuse({ reason: 'not-a-file', kind: 'a directory', cause: error });
    throw error;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw refuse({ reason: 'not-a-file', kind: kindOf(stat) });
    if (stat.size > maxBytes) throw refuse({ reason: 'too-large', size: stat.size });
    return readAll(fs, fd, stat.size, refuse);
  } finally {
    fs.closeSync(fd);
  }
}
