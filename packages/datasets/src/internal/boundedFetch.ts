// No Node built-ins here: this module only needs `fetch`, streams, timers and AbortController.
import { echo, readBounded } from '@boltzmann/ising-core/internal';
import { DatasetError } from '../errors.js';
import type { DatasetErrorCode } from '../errors.js';
import { assertIntInRange, describe } from './assert.js';

/** The part of a `ReadableStreamDefaultReader<Uint8Array>` the downloader uses. */
export interface ByteReaderLike {
  read(): Promise<{ done: boolean; value?: Uint8Array | undefined }>;
  cancel(reason?: unknown): Promise<void>;
}

/** The part of a response body (`ReadableStream<Uint8Array>`) the downloader uses. */
export interface ByteStreamLike {
  getReader(): ByteReaderLike;
  cancel(reason?: unknown): Promise<void>;
}

/**
 * The part of a `fetch` response the downloader uses.
 *
 * `body` and `headers` are optional, so a minimal custom `fetch` whose responses have only
 * `arrayBuffer()` still works, but then the size limit can only be checked after the whole body
 * has arrived; a real `fetch` response is read chunk by chunk.
 * @category Tiny Shakespeare
 */
export interface FetchResponseLike {
  ok: boolean;
  status: number;
  statusText: string;
  headers?: { get(name: string): string | null } | undefined;
  body?: ByteStreamLike | null | undefined;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/**
 * The minimal `fetch` the downloader needs; `globalThis.fetch` satisfies it.
 *
 * @category Tiny Shakespeare
 */
export type FetchLike = (
  url: string,
  init?: { signal?: AbortSignal },
) => Promise<FetchResponseLike>;

/** Limits of one {@link fetchBounded} call. */
export interface FetchLimits {
  /** The most body bytes accepted. */
  maxBytes: number;
  /** The longest the whole transfer (headers and body) may take, in milliseconds. */
  timeoutMs: number;
  /** The caller's abort signal, if any. */
  signal?: AbortSignal | undefined;
}

/** setTimeout's largest delay: the largest `timeoutMs` accepted. */
export const MAX_TIMEOUT_MS = 2_147_483_647;

/** Throws DATASET_INVALID_ARGUMENT for a `fetch` that is not a function or a malformed `maxBytes` / `timeoutMs`. */
export function checkFetchOptions(options: {
  fetch?: unknown;
  maxBytes?: unknown;
  timeoutMs?: unknown;
}): void {
  if (options.fetch !== undefined && typeof options.fetch !== 'function') {
    throw new DatasetError(
      'DATASET_INVALID_ARGUMENT',
      `options.fetch must be a function, got ${describe(options.fetch)}`,
    );
  }
  if (options.maxBytes !== undefined) assertIntInRange('options.maxBytes', options.maxBytes, 1);
  if (options.timeoutMs !== undefined)
    assertIntInRange('options.timeoutMs', options.timeoutMs, 1, MAX_TIMEOUT_MS);
}

/** Builds the coded error of a failed transfer from a short reason (the caller adds where and what). */
export type FailFactory = (code: DatasetErrorCode, reason: string, cause?: unknown) => DatasetError;

const format = (n: number): string => n.toLocaleString('en-US');

function quietly(action: () => Promise<void> | undefined): void {
  try {
    action()?.catch(() => undefined);
  } catch {
    // Cancelling is best effort: the stream may already be closed or errored.
  }
}

function declaredLength(response: FetchResponseLike): number | undefined {
  const raw = response.headers?.get('content-length');
  return raw != null && /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : undefined;
}

async function transfer(
  url: string,
  fetchImpl: FetchLike,
  limits: FetchLimits,
  signal: AbortSignal,
  fail: FailFactory,
): Promise<Uint8Array> {
  const { maxBytes } = limits;
  const tooLarge = (what: string) =>
    fail(
      'DATASET_TOO_LARGE',
      `${what}, more than the limit of ${format(maxBytes)} bytes (options.maxBytes); the transfer was stopped`,
    );
  const response = await fetchImpl(url, { signal });
  if (signal.aborted) {
    // Timed out or aborted while a fetch that ignores its signal was still connecting.
    quietly(() => response.body?.cancel());
    throw signal.reason;
  }
  if (!response.ok) {
    quietly(() => response.body?.cancel());
    throw fail(
      'DATASET_OFFLINE',
      `HTTP ${response.status}${response.statusText ? ` ${echo(response.statusText, 80)}` : ''}`,
    );
  }
  const declared = declaredLength(response);
  if (declared !== undefined && declared > maxBytes) {
    quietly(() => response.body?.cancel());
    throw tooLarge(`the server announced ${format(declared)} bytes (Content-Length)`);
  }
  // A custom fetch response without a body stream can only be checked once its bytes are in.
  const source = response.body ?? new Uint8Array(await response.arrayBuffer());
  return readBounded(
    source,
    maxBytes,
    (received) => tooLarge(`the body passed ${format(received)} bytes`),
    { signal },
  );
}

/**
 * Fetches `url` and returns its body, enforcing a byte limit while streaming (a too-large
 * Content-Length is refused before the body is read; otherwise the stream is cancelled as soon
 * as the count passes the limit) and an overall deadline. Failures are the errors `fail` builds:
 * DATASET_OFFLINE for HTTP errors, DATASET_TOO_LARGE, DATASET_TIMEOUT. Anything else thrown
 * (network errors, the caller's abort) propagates unchanged for the caller to wrap.
 */
export async function fetchBounded(
  url: string,
  fetchImpl: FetchLike,
  limits: FetchLimits,
  fail: FailFactory,
): Promise<Uint8Array> {
  const controller = new AbortController();
  const outer = limits.signal;
  const onAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) onAbort();
  else outer?.addEventListener('abort', onAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = fail(
        'DATASET_TIMEOUT',
        `no complete response within ${format(limits.timeoutMs)} ms (options.timeoutMs)`,
      );
      reject(error);
      // Aborting also cancels a body being read (readBounded listens to the signal).
      controller.abort(error);
    }, limits.timeoutMs);
  });
  try {
    return await Promise.race([
      transfer(url, fetchImpl, limits, controller.signal, fail),
      deadline,
    ]);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onAbort);
    // Closes the connection of a transfer that failed part-way; a no-op after a complete one.
    controller.abort();
  }
}
