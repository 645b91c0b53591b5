// No Node built-ins here (not even lazily, nor `Buffer`): this is the loader for browsers. It
// hashes with WebCrypto, decodes with TextDecoder and fetches with the bounded fetch.
import { echo } from '@boltzmann/ising-core/internal';
import { createCharCorpus } from './charCorpus.js';
import type { CharCorpus, CharCorpusOptions } from './charCorpus.js';
import { DatasetError } from './errors.js';
import type { DatasetErrorCode } from './errors.js';
import { checkSha256, describe } from './internal/assert.js';
import { checkFetchOptions, fetchBounded } from './internal/boundedFetch.js';
import type { FetchLike } from './internal/boundedFetch.js';
import {
  DEFAULT_DOWNLOAD_TIMEOUT_MS,
  DEFAULT_MAX_DOWNLOAD_BYTES,
  TINY_SHAKESPEARE_SHA256,
} from './tinyShakespeare.js';

/**
 * What every source of {@link loadTinyShakespeareFrom} accepts.
 *
 * @category Tiny Shakespeare
 */
export interface CorpusSourceOptions extends CharCorpusOptions {
  /**
   * The sha256 (hex) the bytes must have; default {@link TINY_SHAKESPEARE_SHA256}. Pass your own
   * file's hash to load another character corpus the same way.
   */
  expectedSha256?: string;
}

/**
 * The corpus as bytes you already hold (a `Uint8Array`, including a Node `Buffer`, or an `ArrayBuffer`).
 *
 * @category Tiny Shakespeare
 */
export interface CorpusBytesSource extends CorpusSourceOptions {
  /** The file's bytes, UTF-8. They are hashed and decoded, never stored. */
  bytes: Uint8Array | ArrayBuffer;
  url?: undefined;
}

/**
 * The corpus at a URL, fetched into memory (never written anywhere).
 *
 * @category Tiny Shakespeare
 */
export interface CorpusUrlSource extends CorpusSourceOptions {
  /** Where to fetch it; in a browser the server must allow your origin (CORS). Relative URLs resolve as `fetch` resolves them. */
  url: string;
  bytes?: undefined;
  /** The `fetch` to use; default `globalThis.fetch`. */
  fetch?: FetchLike;
  /** Abort signal for the transfer (an abort is DATASET_OFFLINE). */
  signal?: AbortSignal;
  /** Largest body accepted, in bytes; default {@link DEFAULT_MAX_DOWNLOAD_BYTES}. Enforced while streaming. */
  maxBytes?: number;
  /** Longest the whole transfer may take, in milliseconds; default {@link DEFAULT_DOWNLOAD_TIMEOUT_MS}. */
  timeoutMs?: number;
}

/**
 * Where {@link loadTinyShakespeareFrom} gets the corpus: exactly one of `bytes` or `url`.
 *
 * @category Tiny Shakespeare
 */
export type CorpusSource = CorpusBytesSource | CorpusUrlSource;

/**
 * A character corpus loaded from bytes or a URL, with its verified hash.
 *
 * @category Tiny Shakespeare
 */
export interface VerifiedCorpus extends CharCorpus {
  /** Which source it came from. */
  readonly source: 'bytes' | 'url';
  /** The URL fetched (`source: 'url'`), else undefined. */
  readonly url: string | undefined;
  /** Its verified sha256. */
  readonly sha256: string;
}

interface Subtle {
  digest(algorithm: 'SHA-256', data: Uint8Array): Promise<ArrayBuffer>;
}

const tagOf = (value: unknown): string => Object.prototype.toString.call(value);

/** The bytes as a Uint8Array over an ArrayBuffer (WebCrypto refuses shared memory); tags, not instanceof, so other realms' arrays pass. */
function asBytes(value: unknown): Uint8Array {
  let bytes: Uint8Array;
  if (ArrayBuffer.isView(value) && tagOf(value) === '[object Uint8Array]')
    bytes = value as Uint8Array;
  else if (tagOf(value) === '[object ArrayBuffer]') bytes = new Uint8Array(value as ArrayBuffer);
  else {
    const hint =
      typeof value === 'string' ? ' (for text you already have, use createCharCorpus(text))' : '';
    throw new DatasetError(
      'DATASET_INVALID_ARGUMENT',
      `bytes must be a Uint8Array or an ArrayBuffer, got ${describe(value)}${hint}`,
    );
  }
  if (bytes.length === 0)
    throw new DatasetError(
      'DATASET_INVALID_ARGUMENT',
      'bytes is empty (0 bytes); pass the contents of the corpus file',
    );
  return tagOf(bytes.buffer) === '[object ArrayBuffer]' ? bytes : bytes.slice();
}

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const subtle = (globalThis as { crypto?: { subtle?: Partial<Subtle> } }).crypto?.subtle;
  if (typeof subtle?.digest !== 'function') {
    throw new DatasetError(
      'DATASET_UNSUPPORTED',
      'checking the sha256 needs WebCrypto (globalThis.crypto.subtle), which is missing here; ' +
        'browsers offer it only in secure contexts (https: or http://localhost), Node from version 20',
    );
  }
  const digest = new Uint8Array(await (subtle as Subtle).digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Hashes, checks and decodes; `from` names the source in messages ("given as bytes", "fetched from <url>"). */
async function verify(
  bytes: Uint8Array,
  expectedSha256: string,
  what: string,
  from: string,
  advice: string,
): Promise<string> {
  // digest() copies the bytes when it is called and decoding happens in the same tick, so the text
  // is exactly what was hashed even when the caller reuses its buffer meanwhile.
  const hashing = sha256Hex(bytes);
  let text: string | undefined;
  try {
    // ignoreBOM keeps a leading U+FEFF as the file loaders' Buffer#toString does: same bytes, same corpus.
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    text = undefined;
  }
  const actual = await hashing;
  if (actual !== expectedSha256) {
    throw new DatasetError(
      'DATASET_CORRUPT',
      `${what} ${from} has sha256 ${actual}, expected ${expectedSha256} (${bytes.length} bytes). ${advice}`,
    );
  }
  if (text === undefined) {
    throw new DatasetError(
      'DATASET_INVALID_ARGUMENT',
      `${what} ${from} is not valid UTF-8 text (${bytes.length} bytes with sha256 ${actual})`,
    );
  }
  return text;
}

async function fetchBytes(source: CorpusUrlSource, what: string): Promise<Uint8Array> {
  const { url } = source;
  const fail = (code: DatasetErrorCode, reason: string, cause?: unknown) =>
    new DatasetError(
      code,
      `could not fetch ${what} from ${echo(url)}: ${reason}. Check the URL (in a browser the server must allow this origin), ` +
        `or fetch the bytes yourself and pass { bytes }.`,
      cause === undefined ? undefined : { cause },
    );
  const fetchImpl = source.fetch ?? (globalThis.fetch as FetchLike | undefined);
  if (typeof fetchImpl !== 'function') {
    throw new DatasetError(
      'DATASET_UNSUPPORTED',
      `no fetch implementation is available to fetch ${echo(url)}; pass options.fetch, or pass { bytes }`,
    );
  }
  let bytes: Uint8Array;
  try {
    const limits = {
      maxBytes: source.maxBytes ?? DEFAULT_MAX_DOWNLOAD_BYTES,
      timeoutMs: source.timeoutMs ?? DEFAULT_DOWNLOAD_TIMEOUT_MS,
      signal: source.signal,
    };
    bytes = await fetchBounded(url, fetchImpl, limits, fail);
  } catch (error) {
    if (error instanceof DatasetError) throw error;
    throw fail('DATASET_OFFLINE', echo(String(error)), error);
  }
  if (bytes.length === 0) throw fail('DATASET_OFFLINE', 'the server sent an empty body');
  return bytes;
}

/**
 * Loads Tiny Shakespeare — or any UTF-8 character corpus whose sha256 you pass — from bytes you
 * hold or from a URL, in any JavaScript runtime (browsers, workers, Node): no file system, no
 * cache, no Node built-in. The bytes are hashed with WebCrypto and must match `expectedSha256`
 * before they are decoded and split like {@link loadTinyShakespeare}'s (same vocabulary, same
 * 90/10 split, same windows). A URL is fetched into memory with the limits of the download
 * (`maxBytes`, `timeoutMs`, `signal`) and nothing is written anywhere.
 *
 * @summary Loads Tiny Shakespeare.
 * @param source `{ bytes }` or `{ url }` and the options of {@link CorpusSource}.
 * @returns the corpus, with `source` `'bytes'` or `'url'` and the verified `sha256`.
 * @throws {DatasetError} DATASET_CORRUPT when the bytes do not have the expected sha256.
 * @throws {DatasetError} DATASET_INVALID_ARGUMENT when neither or both of `bytes` and `url` are given, `bytes` is not a
 *   Uint8Array or ArrayBuffer or is empty, the bytes are not UTF-8, or an option is malformed.
 * @throws {DatasetError} DATASET_OFFLINE when the fetch fails (network, HTTP status, empty body, your `signal` aborted it).
 * @throws {DatasetError} DATASET_TIMEOUT when the fetch takes longer than `timeoutMs`.
 * @throws {DatasetError} DATASET_TOO_LARGE when the server announces or sends more than `maxBytes`.
 * @throws {DatasetError} DATASET_UNSUPPORTED when the runtime has no WebCrypto (a browser page not served over https or localhost) or no `fetch`.
 * @example
 * import { readFile } from 'node:fs/promises';
 * import { join } from 'node:path';
 * import { loadTinyShakespeareFrom } from '@boltzmann/datasets';
 *
 * // In a browser: await loadTinyShakespeareFrom({ url: '/data/tinyshakespeare/input.txt' });
 * const dir = process.env.BOLTZMANN_DATA_DIR ?? 'data';
 * const bytes = await readFile(join(dir, 'tinyshakespeare', 'input.txt'));
 * const shakespeare = await loadTinyShakespeareFrom({ bytes }); // checked against the known sha256
 * console.log(shakespeare.source, shakespeare.sha256);
 * // Another text: loadTinyShakespeareFrom({ bytes: myFile, expectedSha256: myFileSha256 })
 * @category Tiny Shakespeare
 */
export async function loadTinyShakespeareFrom(source: CorpusSource): Promise<VerifiedCorpus> {
  if (source === null || typeof source !== 'object') {
    throw new DatasetError(
      'DATASET_INVALID_ARGUMENT',
      `source must be an object { bytes } or { url }, got ${describe(source)}`,
    );
  }
  const hasBytes = source.bytes !== undefined;
  const hasUrl = source.url !== undefined;
  if (hasBytes === hasUrl) {
    throw new DatasetError(
      'DATASET_INVALID_ARGUMENT',
      `pass exactly one of source.bytes or source.url, got ${hasBytes ? 'both' : 'neither'}`,
    );
  }
  const expectedSha256 = checkSha256(
    'expectedSha256',
    source.expectedSha256 ?? TINY_SHAKESPEARE_SHA256,
  );
  const what =
    expectedSha256 === TINY_SHAKESPEARE_SHA256 ? 'Tiny Shakespeare (input.txt)' : 'the corpus';
  let text: string;
  if (source.url === undefined) {
    const bytes = asBytes(source.bytes);
    const advice =
      'Pass the bytes of the canonical input.txt, or the expectedSha256 of the file you mean to load.';
    text = await verify(bytes, expectedSha256, what, 'given as bytes', advice);
  } else {
    const { url } = source;
    if (typeof url !== 'string' || url === '') {
      throw new DatasetError(
        'DATASET_INVALID_ARGUMENT',
        `source.url must be a non-empty string, got ${describe(url)}`,
      );
    }
    checkFetchOptions(source);
    const bytes = await fetchBytes(source, what);
    const advice = 'Check the URL (a mirror needs a matching expectedSha256).';
    text = await verify(bytes, expectedSha256, what, `fetched from ${echo(url)}`, advice);
  }
  const corpus = createCharCorpus(text, source);
  return Object.freeze({
    ...corpus,
    source: hasUrl ? 'url' : 'bytes',
    url: source.url,
    sha256: expectedSha256,
  });
}
