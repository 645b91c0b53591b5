import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatasetError } from '../errors.js';

/** One place a data file may be, with a label for messages. */
export interface Candidate {
  readonly path: string;
  readonly source: 'path' | 'dataDir' | 'cache';
}

/** The minimal `fetch` the downloader needs; `globalThis.fetch` satisfies it. */
export type FetchLike = (
  url: string,
  init?: { signal?: AbortSignal },
) => Promise<{ ok: boolean; status: number; statusText: string; arrayBuffer(): Promise<ArrayBuffer> }>;

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Reads the first candidate that exists. Absent files (ENOENT/ENOTDIR) fall through to the next
 * candidate; any other read failure, or a hash mismatch, stops the search: a wrong file where
 * the user put one is a problem to report, not to route around.
 */
export function readFirstCandidate(
  candidates: readonly Candidate[],
  expectedSha256: string,
  what: string,
): { bytes: Buffer; candidate: Candidate } | undefined {
  for (const candidate of candidates) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(candidate.path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') continue;
      throw new DatasetError('DATASET_IO_FAILED', `could not read ${what} at ${candidate.path}: ${String(error)}`, { cause: error });
    }
    const actual = sha256Hex(bytes);
    if (actual !== expectedSha256) {
      throw new DatasetError(
        'DATASET_CORRUPT',
        `${what} at ${candidate.path} has sha256 ${actual}, expected ${expectedSha256} (${bytes.length} bytes read). ` +
          `Delete or replace that file (the async loader re-downloads it into the cache when it is missing), ` +
          `or pass expectedSha256 if it is a deliberate mirror.`,
      );
    }
    return { bytes, candidate };
  }
  return undefined;
}

/**
 * Downloads `url`, checks its sha256 before anything touches the disk, then writes it to
 * `target` through a temporary file in the same directory and a rename, so a concurrent reader
 * sees either no file or the whole verified file.
 */
export async function downloadVerified(options: {
  url: string;
  target: string;
  expectedSha256: string;
  fetch: FetchLike;
  signal?: AbortSignal | undefined;
  what: string;
  fallbackHint: string;
}): Promise<Buffer> {
  const { url, target, expectedSha256, what } = options;
  const offline = (reason: string, cause?: unknown) =>
    new DatasetError(
      'DATASET_OFFLINE',
      `could not download ${what} from ${url}: ${reason}. Place the file at ${target}, or ${options.fallbackHint}.`,
      cause === undefined ? undefined : { cause },
    );
  let bytes: Buffer;
  try {
    const init = options.signal === undefined ? undefined : { signal: options.signal };
    const response = await options.fetch(url, init);
    if (!response.ok) throw offline(`HTTP ${response.status} ${response.statusText}`.trim());
    bytes = Buffer.from(await response.arrayBuffer());
  } catch (error) {
    if (error instanceof DatasetError) throw error;
    throw offline(String(error), error);
  }
  if (bytes.length === 0) throw offline('the server sent an empty body');
  const actual = sha256Hex(bytes);
  if (actual !== expectedSha256) {
    throw new DatasetError(
      'DATASET_CORRUPT',
      `${what} downloaded from ${url} has sha256 ${actual}, expected ${expectedSha256} (${bytes.length} bytes); ` +
        `nothing was written to ${target}. Check the URL (a mirror needs a matching expectedSha256), or place the file at ${target}.`,
    );
  }
  const temp = `${target}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(temp, bytes);
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    throw new DatasetError('DATASET_IO_FAILED', `downloaded ${what} but could not store it at ${target}: ${String(error)}`, {
      cause: error,
    });
  }
  return bytes;
}
