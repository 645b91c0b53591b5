import { readBounded } from '@boltzmann/ising-core/internal';
import type { BoundedSource } from '@boltzmann/ising-core/internal';
import { AdapterError } from './errors.js';

/** Anything a response body arrives as: a web stream (fetch), a Blob or Node `Readable` (the AWS SDK), or bytes. */
export type BodySource = BoundedSource;

const MIB = 1024 * 1024;

/**
 * What a refusal over the limit advises: the name of the option that raises it (`maxResponseBytes`),
 * or `{ advice }`, a whole sentence, for a limit no option raises (one derived from the request).
 */
export type LimitOption = string | { readonly advice: string };

const size = (bytes: number): string =>
  bytes >= MIB ? `${(bytes / MIB).toFixed(bytes % MIB === 0 ? 0 : 1)} MiB` : `${bytes} bytes`;

/**
 * The error of a response body over its limit: not retryable, since the same request would get
 * the same answer; the message says which option raises the limit (or gives `option.advice`).
 */
export function responseTooLarge(
  what: string,
  limit: number,
  option: LimitOption,
  declared?: number,
): AdapterError {
  const seen =
    declared === undefined ? `more than ${size(limit)}` : `${size(declared)} (Content-Length)`;
  return new AdapterError(
    'ADAPTER_RESPONSE_TOO_LARGE',
    `${what} answered with ${seen}, over the limit of ${size(limit)}; ${
      typeof option === 'string' ? `raise ${option} if this answer is expected` : option.advice
    }`,
    {
      reason: 'malformed',
      retryable: false,
    },
  );
}

/**
 * Throws {@link responseTooLarge} when a `Content-Length` header already announces more than
 * `limit` bytes, so such a body is refused before any of it is read.
 */
export function assertContentLength(
  header: string | number | null | undefined,
  limit: number,
  what: string,
  option: LimitOption,
): void {
  const declared =
    typeof header === 'number'
      ? header
      : header === null || header === undefined || header.trim() === ''
        ? Number.NaN
        : Number(header);
  if (Number.isFinite(declared) && declared > limit)
    throw responseTooLarge(what, limit, option, declared);
}

/** Cancels a body that will not be read (so its connection is closed, not left half-read). */
export function discardBody(body: BodySource): void {
  if (
    body !== null &&
    typeof body === 'object' &&
    'cancel' in body &&
    typeof body.cancel === 'function'
  ) {
    (body as ReadableStream).cancel().catch(() => undefined);
  } else if (
    body !== null &&
    typeof body === 'object' &&
    'destroy' in body &&
    typeof body.destroy === 'function'
  ) {
    (body as { destroy(): void }).destroy();
  }
}

/**
 * Reads a whole response body with ising-core's {@link readBounded}: bytes are counted as chunks
 * arrive and the stream is cancelled or destroyed, which closes the connection, as soon as the
 * count passes `limit`. Every remote read of this package (SAPI answers, Braket API answers, S3
 * `results.json`) goes through this, so a hostile or broken server cannot fill the memory.
 *
 * @param body the body stream (or bytes).
 * @param limit the most bytes accepted.
 * @param what the request, for the message.
 * @param option the option that sets `limit`, for the message.
 * @returns the bytes read.
 * @throws {AdapterError} ADAPTER_RESPONSE_TOO_LARGE (not retryable) over the limit; stream errors pass through.
 */
export function readLimited(
  body: BodySource,
  limit: number,
  what: string,
  option: LimitOption,
): Promise<Uint8Array> {
  return readBounded(body, limit, () => responseTooLarge(what, limit, option));
}

/** {@link readLimited} of a fetch `Response`, with the `Content-Length` check first, decoded as UTF-8. */
export async function readResponseText(
  response: Response,
  limit: number,
  what: string,
  option: LimitOption,
): Promise<string> {
  try {
    assertContentLength(response.headers.get('content-length'), limit, what, option);
  } catch (error) {
    discardBody(response.body);
    throw error;
  }
  return new TextDecoder().decode(await readLimited(response.body, limit, what, option));
}
