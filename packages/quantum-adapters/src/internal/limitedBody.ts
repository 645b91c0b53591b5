import { AdapterError } from '../errors.js';

/** Anything a response body arrives as: a web stream (fetch), a Node `Readable` (the AWS SDK), or bytes. */
export type BodySource = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string> | Blob | Uint8Array | string | null | undefined;

const MIB = 1024 * 1024;

const size = (bytes: number): string => (bytes >= MIB ? `${(bytes / MIB).toFixed(bytes % MIB === 0 ? 0 : 1)} MiB` : `${bytes} bytes`);

/**
 * The error of a response body over its limit: not retryable, since the same request would get
 * the same answer; the message says which option raises the limit.
 */
export function responseTooLarge(what: string, limit: number, option: string, declared?: number): AdapterError {
  const seen = declared === undefined ? `more than ${size(limit)}` : `${size(declared)} (Content-Length)`;
  return new AdapterError('ADAPTER_RESPONSE_TOO_LARGE', `${what} answered with ${seen}, over the limit of ${size(limit)}; raise ${option} if this answer is expected`, {
    reason: 'malformed',
    retryable: false,
  });
}

/**
 * Throws {@link responseTooLarge} when a `Content-Length` header already announces more than
 * `limit` bytes, so such a body is refused before any of it is read.
 */
export function assertContentLength(header: string | number | null | undefined, limit: number, what: string, option: string): void {
  const declared = typeof header === 'number' ? header : header === null || header === undefined || header.trim() === '' ? Number.NaN : Number(header);
  if (Number.isFinite(declared) && declared > limit) throw responseTooLarge(what, limit, option, declared);
}

/** Cancels a body that will not be read (so its connection is closed, not left half-read). */
export function discardBody(body: BodySource): void {
  if (body !== null && typeof body === 'object' && 'cancel' in body && typeof body.cancel === 'function') {
    (body as ReadableStream).cancel().catch(() => undefined);
  } else if (body !== null && typeof body === 'object' && 'destroy' in body && typeof body.destroy === 'function') {
    (body as { destroy(): void }).destroy();
  }
}

/**
 * Reads a whole response body, counting bytes as chunks arrive, and stops — cancelling the web
 * stream or destroying the Node stream, which closes the connection — as soon as the count
 * passes `limit`. Every remote read of this package (SAPI answers, Braket API answers, S3
 * `results.json`) goes through this, so a hostile or broken server cannot fill the memory.
 *
 * @param body the body stream (or bytes).
 * @param limit the most bytes accepted.
 * @param what the request, for the message.
 * @param option the option that sets `limit`, for the message.
 * @returns the bytes read.
 * @throws {AdapterError} ADAPTER_RESPONSE_TOO_LARGE (not retryable) over the limit; stream errors pass through.
 */
export async function readLimited(body: BodySource, limit: number, what: string, option: string): Promise<Uint8Array> {
  if (body === null || body === undefined) return new Uint8Array();
  // The SDK's browser build hands S3 bodies over as Blobs.
  if (typeof Blob !== 'undefined' && body instanceof Blob) return readLimited(body.stream(), limit, what, option);
  if (typeof body === 'string' || body instanceof Uint8Array) {
    const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
    if (bytes.byteLength > limit) throw responseTooLarge(what, limit, option);
    return bytes;
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  const take = (chunk: Uint8Array | string): boolean => {
    const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
    total += bytes.byteLength;
    if (total > limit) return false;
    chunks.push(bytes);
    return true;
  };
  if ('getReader' in body && typeof body.getReader === 'function') {
    const reader = body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!take(value)) {
        reader.cancel().catch(() => undefined);
        throw responseTooLarge(what, limit, option);
      }
    }
  } else {
    // Leaving `for await` early calls the iterator's return(), which destroys a Node Readable.
    let over = false;
    for await (const chunk of body as AsyncIterable<Uint8Array | string>) {
      if (!take(chunk)) {
        over = true;
        break;
      }
    }
    if (over) {
      discardBody(body);
      throw responseTooLarge(what, limit, option);
    }
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** {@link readLimited} of a fetch `Response`, with the `Content-Length` check first, decoded as UTF-8. */
export async function readResponseText(response: Response, limit: number, what: string, option: string): Promise<string> {
  try {
    assertContentLength(response.headers.get('content-length'), limit, what, option);
  } catch (error) {
    discardBody(response.body);
    throw error;
  }
  return new TextDecoder().decode(await readLimited(response.body, limit, what, option));
}
