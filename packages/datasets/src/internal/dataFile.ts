import { echo, writeFileAtomic } from '@boltzmann/ising-core/internal';
import { DatasetError } from '../errors.js';
import type { DatasetErrorCode } from '../errors.js';
import { fetchBounded } from './boundedFetch.js';
import type { FetchLike } from './boundedFetch.js';
import { nodeModules } from './nodeModules.js';
import { readDataFile } from './readDataFile.js';

/** One place a data file may be, with a label for messages. */
export interface Candidate {
  readonly path: string;
  readonly source: 'path' | 'dataDir' | 'cache';
}

/** What is at a configured folder path: nothing, something that is not a folder, or a folder. */
export function folderState(path: string): 'missing' | 'not-a-folder' | 'folder' {
  try {
    return nodeModules().fs.statSync(path).isDirectory() ? 'folder' : 'not-a-folder';
  } catch {
    // ENOENT, ENOTDIR (a parent is a file), EACCES on a parent: in every case no folder we can use.
    return 'missing';
  }
}

export function sha256Hex(bytes: Uint8Array): string {
  return nodeModules().crypto.createHash('sha256').update(bytes).digest('hex');
}

/**
 * Reads the first candidate that exists, as a regular file of at most `maxBytes` (see
 * {@link readDataFile}). Absent files (ENOENT/ENOTDIR) fall through to the next candidate; any
 * other failure (not a regular file, too large, unreadable), or a hash mismatch, stops the
 * search: a wrong file where the user put one is a problem to report, not to route around.
 */
export function readFirstCandidate(
  candidates: readonly Candidate[],
  expectedSha256: string,
  what: string,
  maxBytes: number,
): { bytes: Buffer; candidate: Candidate } | undefined {
  for (const candidate of candidates) {
    let bytes: Buffer;
    try {
      bytes = readDataFile(candidate.path, maxBytes, what);
    } catch (error) {
      if (error instanceof DatasetError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') continue;
      throw new DatasetError(
        'DATASET_IO_FAILED',
        `could not read ${what} at ${echo(candidate.path)}: ${String(error)}`,
        {
          cause: error,
        },
      );
    }
    const actual = sha256Hex(bytes);
    if (actual !== expectedSha256) {
      throw new DatasetError(
        'DATASET_CORRUPT',
        `${what} at ${echo(candidate.path)} has sha256 ${actual}, expected ${expectedSha256} (${bytes.length} bytes read). ` +
          `Delete or replace that file (the async loader re-downloads it into the cache when it is missing), ` +
          `or pass expectedSha256 if it is a deliberate mirror.`,
      );
    }
    return { bytes, candidate };
  }
  return undefined;
}

/**
 * Downloads `url` (at most `maxBytes`, within `timeoutMs`), checks its sha256 before anything
 * touches the disk, then writes it to `target` atomically (ising-core's `writeFileAtomic`), so a
 * concurrent reader sees either no file or the whole verified file.
 */
export async function downloadVerified(options: {
  url: string;
  target: string;
  expectedSha256: string;
  fetch: FetchLike;
  signal?: AbortSignal | undefined;
  maxBytes: number;
  timeoutMs: number;
  what: string;
  fallbackHint: string;
}): Promise<Buffer> {
  const { url, target, expectedSha256, what } = options;
  const fail = (code: DatasetErrorCode, reason: string, cause?: unknown) =>
    new DatasetError(
      code,
      `could not download ${what} from ${echo(url)}: ${reason}. Place the file at ${echo(target)}, or ${options.fallbackHint}.`,
      cause === undefined ? undefined : { cause },
    );
  let bytes: Buffer;
  try {
    const limits = {
      maxBytes: options.maxBytes,
      timeoutMs: options.timeoutMs,
      signal: options.signal,
    };
    const body = await fetchBounded(url, options.fetch, limits, fail);
    bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  } catch (error) {
    if (error instanceof DatasetError) throw error;
    throw fail('DATASET_OFFLINE', echo(String(error)), error);
  }
  if (bytes.length === 0) throw fail('DATASET_OFFLINE', 'the server sent an empty body');
  const actual = sha256Hex(bytes);
  if (actual !== expectedSha256) {
    throw new DatasetError(
      'DATASET_CORRUPT',
      `${what} downloaded from ${echo(url)} has sha256 ${actual}, expected ${expectedSha256} (${bytes.length} bytes); ` +
        `nothing was written to ${echo(target)}. Check the URL (a mirror needs a matching expectedSha256), or place the file at ${echo(target)}.`,
    );
  }
  nodeModules(); // outside Node: DATASET_UNSUPPORTED, as every file loader says it
  try {
    writeFileAtomic(target, bytes);
  } catch (error) {
    throw new DatasetError(
      'DATASET_IO_FAILED',
      `downloaded ${what} but could not store it at ${echo(target)}: ${String(error)}`,
      {
        cause: error,
      },
    );
  }
  return bytes;
}
