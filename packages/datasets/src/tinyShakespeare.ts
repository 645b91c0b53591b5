import { echo } from '@boltzmann/ising-core/internal';
import { createCharCorpus } from './charCorpus.js';
import type { CharCorpus, CharCorpusOptions } from './charCorpus.js';
import { DatasetError } from './errors.js';
import { checkSha256, describe } from './internal/assert.js';
import { checkFetchOptions } from './internal/boundedFetch.js';
import type { FetchLike } from './internal/boundedFetch.js';
import { downloadVerified, folderState, readFirstCandidate } from './internal/dataFile.js';
import { nodeModules } from './internal/nodeModules.js';
import type { Candidate } from './internal/dataFile.js';

/**
 * Where Tiny Shakespeare is published: `data/tinyshakespeare/input.txt` of karpathy/char-rnn.
 *
 * @category Tiny Shakespeare
 */
export const TINY_SHAKESPEARE_URL =
  'https://raw.githubusercontent.com/karpathy/char-rnn/master/data/tinyshakespeare/input.txt';
/**
 * sha256 of the canonical `input.txt` (1,115,394 characters, 65 distinct).
 *
 * @category Tiny Shakespeare
 */
export const TINY_SHAKESPEARE_SHA256 =
  '86c4e6aa9db7c042ec79f339dcb96d42b0075e16b8fc2e86bf0ca57e2dc565ed';
/**
 * The environment variable naming a data directory (holding `tinyshakespeare/input.txt` or `input.txt`).
 *
 * @category Tiny Shakespeare
 */
export const DATA_DIR_ENV = 'BOLTZMANN_DATA_DIR';
/**
 * Default largest download accepted, in bytes (8 MiB; the file is about 1.1 MB).
 *
 * @category Tiny Shakespeare
 */
export const DEFAULT_MAX_DOWNLOAD_BYTES = 8 * 1024 * 1024;
/**
 * Largest data file the file loaders read, in bytes (64 MiB; Tiny Shakespeare is about 1.1 MB).
 * A larger file is refused with DATASET_TOO_LARGE before any byte is read.
 * @category Tiny Shakespeare
 */
export const MAX_DATA_FILE_BYTES = 64 * 1024 * 1024;
/**
 * Default longest a whole download (headers and body) may take, in milliseconds (60 s).
 *
 * @category Tiny Shakespeare
 */
export const DEFAULT_DOWNLOAD_TIMEOUT_MS = 60_000;

export type { FetchLike, FetchResponseLike } from './internal/boundedFetch.js';

/**
 * Options of {@link loadTinyShakespeare} and {@link loadTinyShakespeareSync}.
 *
 * @category Tiny Shakespeare
 */
export interface TinyShakespeareOptions extends CharCorpusOptions {
  /** An explicit file; when given, no other place is searched and nothing is downloaded. */
  path?: string;
  /**
   * A data directory; default `$BOLTZMANN_DATA_DIR`. Both `<dir>/tinyshakespeare/input.txt` and
   * `<dir>/input.txt` are accepted. A configured directory is the only place searched: when it is
   * missing or lacks the file the loader throws DATASET_NOT_FOUND (no cache, no download).
   */
  dataDir?: string;
  /** The per-user cache; default `$XDG_CACHE_HOME/boltzmann`, else `~/.cache/boltzmann`. The file lives at `<cacheDir>/tinyshakespeare/input.txt`. */
  cacheDir?: string;
  /** Download into the cache when the file is found nowhere (async loader only). Default true. */
  download?: boolean;
  /** Download URL; default {@link TINY_SHAKESPEARE_URL}. */
  url?: string;
  /** The `fetch` used to download; default `globalThis.fetch`. */
  fetch?: FetchLike;
  /** Abort signal for the download. */
  signal?: AbortSignal;
  /** Largest download accepted, in bytes; default {@link DEFAULT_MAX_DOWNLOAD_BYTES}. Enforced while streaming. */
  maxBytes?: number;
  /** Longest the whole download may take, in milliseconds; default {@link DEFAULT_DOWNLOAD_TIMEOUT_MS}. */
  timeoutMs?: number;
  /**
   * The sha256 (hex) the file must have; default {@link TINY_SHAKESPEARE_SHA256}. Override it only
   * for a mirror that serves a different file on purpose, or for tests that serve a small file.
   */
  expectedSha256?: string;
}

/**
 * The loaded corpus plus where it came from.
 *
 * @category Tiny Shakespeare
 */
export interface TinyShakespeare extends CharCorpus {
  /** Absolute path of the file that was read (or written, after a download). */
  readonly path: string;
  /** How it was found. */
  readonly source: 'path' | 'dataDir' | 'cache' | 'download';
  /** Its verified sha256. */
  readonly sha256: string;
}

const WHAT = 'Tiny Shakespeare (input.txt)';
const SETUP_HINT = `set ${DATA_DIR_ENV} to a directory holding tinyshakespeare/input.txt (or input.txt), or pass options.path`;

interface Plan {
  candidates: Candidate[];
  cacheFile: string;
  /** The configured data directory (resolved) and where it was configured, when there is one. */
  dataDir?: { path: string; from: string };
  expectedSha256: string;
  options: TinyShakespeareOptions;
}

function plan(options: TinyShakespeareOptions): Plan {
  if (options === null || typeof options !== 'object') {
    throw new DatasetError(
      'DATASET_INVALID_ARGUMENT',
      `options must be an object, got ${describe(options)}`,
    );
  }
  const expectedSha256 = checkSha256(
    'expectedSha256',
    options.expectedSha256 ?? TINY_SHAKESPEARE_SHA256,
  );
  for (const key of ['path', 'dataDir', 'cacheDir', 'url'] as const) {
    const value = options[key];
    if (value !== undefined && (typeof value !== 'string' || value === '')) {
      throw new DatasetError(
        'DATASET_INVALID_ARGUMENT',
        `options.${key} must be a non-empty string, got ${describe(value)}`,
      );
    }
  }
  if (options.download !== undefined && typeof options.download !== 'boolean') {
    throw new DatasetError(
      'DATASET_INVALID_ARGUMENT',
      `options.download must be a boolean, got ${describe(options.download)}`,
    );
  }
  checkFetchOptions(options);
  const { os, path: nodePath } = nodeModules();
  const { isAbsolute, join, resolve } = nodePath;
  const homedir = os.homedir;
  const xdg = process.env.XDG_CACHE_HOME;
  // The XDG spec says relative values are invalid and must be ignored.
  const cacheDir = resolve(
    options.cacheDir ??
      (xdg && isAbsolute(xdg) ? join(xdg, 'boltzmann') : join(homedir(), '.cache', 'boltzmann')),
  );
  const cacheFile = join(cacheDir, 'tinyshakespeare', 'input.txt');
  if (options.path !== undefined) {
    return {
      candidates: [{ path: resolve(options.path), source: 'path' }],
      cacheFile,
      expectedSha256,
      options,
    };
  }
  const env = process.env[DATA_DIR_ENV] || undefined;
  const configured = options.dataDir ?? env;
  if (configured !== undefined) {
    const path = resolve(configured);
    const candidates: Candidate[] = [
      { path: join(path, 'tinyshakespeare', 'input.txt'), source: 'dataDir' },
      { path: join(path, 'input.txt'), source: 'dataDir' },
    ];
    const from = options.dataDir !== undefined ? 'options.dataDir' : DATA_DIR_ENV;
    return { candidates, cacheFile, dataDir: { path, from }, expectedSha256, options };
  }
  return { candidates: [{ path: cacheFile, source: 'cache' }], cacheFile, expectedSha256, options };
}

function finish(
  bytes: Buffer,
  path: string,
  source: TinyShakespeare['source'],
  p: Plan,
): TinyShakespeare {
  const corpus = createCharCorpus(bytes.toString('utf8'), p.options);
  return Object.freeze({ ...corpus, path, source, sha256: p.expectedSha256 });
}

const looked = (p: Plan): string => p.candidates.map((c) => echo(c.path)).join(', ');
const envNote = (): string => {
  const value = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process
    ?.env?.[DATA_DIR_ENV];
  return `${DATA_DIR_ENV}=${value ? echo(value) : 'unset'}`;
};

function notFound(p: Plan, why: string): DatasetError {
  return new DatasetError(
    'DATASET_NOT_FOUND',
    `${WHAT} not found; looked at ${looked(p)} (${envNote()}). ${why} ` +
      `To fix: ${SETUP_HINT}, or let loadTinyShakespeare download it to ${echo(p.cacheFile)} from ${TINY_SHAKESPEARE_URL}.`,
  );
}

/** A configured data directory without the file is a misconfiguration to report, never to route around. */
function dataDirNotFound(p: Plan, dataDir: NonNullable<Plan['dataDir']>): DatasetError {
  const state = folderState(dataDir.path);
  const problem =
    state === 'missing'
      ? 'that folder does not exist'
      : state === 'not-a-folder'
        ? 'that path is not a folder'
        : 'that folder lacks the file';
  return new DatasetError(
    'DATASET_NOT_FOUND',
    `${WHAT} not found in the data directory ${echo(dataDir.path)} set by ${dataDir.from} (${envNote()}): ${problem}; ` +
      `looked at ${looked(p)}. A configured data directory is the only place searched, so neither the cache ` +
      `(${echo(p.cacheFile)}) nor a download was tried. To fix: put the file at ${echo(p.candidates[0]!.path)}, ` +
      `or point ${dataDir.from} at the folder that holds it (or leave it unset to use the cache and the download).`,
  );
}

/**
 * Loads Tiny Shakespeare, verifies its sha256 and returns it as a character corpus with a 90/10
 * split.
 *
 * Looks at `options.path` (only), else — when a data directory is configured (`options.dataDir ??
 * $BOLTZMANN_DATA_DIR`) — at `<dir>/tinyshakespeare/input.txt` and `<dir>/input.txt` (only), else
 * at the per-user cache; when the cache lacks it, it downloads the file into the cache (at most
 * `maxBytes`, within `timeoutMs`, atomically, after checking the hash) unless `download: false`.
 *
 * @param options see {@link TinyShakespeareOptions}.
 * @returns the corpus (65-character vocabulary, train/validation token arrays, window samplers).
 * @throws {DatasetError} DATASET_NOT_FOUND when absent and not downloadable, or absent from a configured data directory (the message lists the paths).
 * @throws {DatasetError} DATASET_OFFLINE when the download fails.
 * @throws {DatasetError} DATASET_TIMEOUT when the download takes longer than `timeoutMs`.
 * @throws {DatasetError} DATASET_TOO_LARGE when the server announces or sends more than `maxBytes`, or a file
 *   is larger than {@link MAX_DATA_FILE_BYTES}.
 * @throws {DatasetError} DATASET_NOT_A_FILE when a path to read is a directory, FIFO, device or socket.
 * @throws {DatasetError} DATASET_CORRUPT when a file or download has the wrong sha256.
 * @throws {DatasetError} DATASET_IO_FAILED when a file exists but cannot be read, or the cache cannot be written.
 * @throws {DatasetError} DATASET_INVALID_ARGUMENT for malformed options, or a text of fewer than 2 distinct characters.
 * @example
 * import { createRng } from '@boltzmann/ising-core';
 * import { loadTinyShakespeare } from '@boltzmann/datasets';
 *
 * // From $BOLTZMANN_DATA_DIR, or downloaded (hash-verified) when it is unset.
 * const shakespeare = await loadTinyShakespeare();
 * const batch = shakespeare.sampleBatch('train', 64, 12, createRng(0));
 * const evalSet = shakespeare.validationWindows(12, 2048, 1234);
 * console.log(batch.inputs.length, evalSet.inputs.length);
 * @category Tiny Shakespeare
 */
export async function loadTinyShakespeare(
  options: TinyShakespeareOptions = {},
): Promise<TinyShakespeare> {
  const p = plan(options);
  const found = readFirstCandidate(p.candidates, p.expectedSha256, WHAT, MAX_DATA_FILE_BYTES);
  if (found) return finish(found.bytes, found.candidate.path, found.candidate.source, p);
  if (options.path !== undefined)
    throw notFound(p, 'An explicit path is never searched around or downloaded to.');
  if (p.dataDir !== undefined) throw dataDirNotFound(p, p.dataDir);
  if (options.download === false) throw notFound(p, 'Downloading is disabled (download: false).');
  const fetchImpl = options.fetch ?? (globalThis.fetch as FetchLike | undefined);
  if (typeof fetchImpl !== 'function')
    throw notFound(p, 'No fetch implementation is available to download it.');
  const bytes = await downloadVerified({
    url: options.url ?? TINY_SHAKESPEARE_URL,
    target: p.cacheFile,
    expectedSha256: p.expectedSha256,
    fetch: fetchImpl,
    signal: options.signal,
    maxBytes: options.maxBytes ?? DEFAULT_MAX_DOWNLOAD_BYTES,
    timeoutMs: options.timeoutMs ?? DEFAULT_DOWNLOAD_TIMEOUT_MS,
    what: WHAT,
    fallbackHint: SETUP_HINT,
  });
  return finish(bytes, p.cacheFile, 'download', p);
}

/**
 * The synchronous loader: like {@link loadTinyShakespeare} but it never downloads.
 *
 * @param options see {@link TinyShakespeareOptions} (`download`, `url`, `fetch`, `signal`, `maxBytes`, `timeoutMs` are ignored).
 * @returns the verified corpus.
 * @throws {DatasetError} DATASET_NOT_FOUND, DATASET_CORRUPT, DATASET_IO_FAILED, DATASET_NOT_A_FILE,
 *   DATASET_TOO_LARGE, DATASET_INVALID_ARGUMENT as the async loader.
 * @example
 * import { loadTinyShakespeareSync } from '@boltzmann/datasets';
 *
 * // <dataDir>/tinyshakespeare/input.txt, hash-verified; never downloads.
 * const shakespeare = loadTinyShakespeareSync({ dataDir: process.env.BOLTZMANN_DATA_DIR });
 * console.log(shakespeare.vocab.size);
 * @category Tiny Shakespeare
 */
export function loadTinyShakespeareSync(options: TinyShakespeareOptions = {}): TinyShakespeare {
  const p = plan(options);
  const found = readFirstCandidate(p.candidates, p.expectedSha256, WHAT, MAX_DATA_FILE_BYTES);
  if (found) return finish(found.bytes, found.candidate.path, found.candidate.source, p);
  if (p.dataDir !== undefined) throw dataDirNotFound(p, p.dataDir);
  throw notFound(p, 'The synchronous loader never downloads; use loadTinyShakespeare to fetch it.');
}
