/** The part of a web `ReadableStreamDefaultReader<Uint8Array>` that {@link readBounded} uses. */
export interface BoundedReader {
  read(): Promise<{ done: boolean; value?: Uint8Array | undefined }>;
  cancel(reason?: unknown): Promise<void>;
}

/**
 * Anything a body arrives as: a web stream (fetch), a `Blob` (the AWS SDK in a browser), an async
 * iterable such as a Node `Readable` (the AWS SDK in Node), or bytes or text already in memory.
 */
export type BoundedSource =
  | { getReader(): BoundedReader }
  | { stream(): { getReader(): BoundedReader } }
  | AsyncIterable<Uint8Array | string>
  | Uint8Array
  | string
  | null
  | undefined;

const encoder = new TextEncoder();
const toBytes = (chunk: Uint8Array | string): Uint8Array =>
  typeof chunk === 'string' ? encoder.encode(chunk) : chunk;

/** Destroys a Node stream (or cancels a web stream) that will not be read to its end. */
function discard(body: unknown): void {
  const b = body as { cancel?: () => Promise<void>; destroy?: () => void } | null;
  try {
    if (typeof b?.cancel === 'function') b.cancel().catch(() => undefined);
    else if (typeof b?.destroy === 'function') b.destroy();
  } catch {
    // Best effort: the stream may already be closed or errored.
  }
}

/**
 * Reads a whole body while counting its bytes, and stops as soon as the count passes `limit`:
 * the web stream is cancelled or the Node stream destroyed, which closes the connection, so a
 * hostile or broken server cannot fill the memory. The one bounded reader of every package that
 * reads from a network (quantum-adapters' answers, datasets' download).
 *
 * @param body the body (see {@link BoundedSource}); null or undefined reads as empty.
 * @param limit the most bytes accepted.
 * @param tooLarge builds the caller's coded error; it gets the bytes counted so far.
 * @param options.signal aborting it stops the read and rejects with its reason.
 * @returns the bytes.
 * @throws `tooLarge(received)` over the limit; the signal's reason; the stream's own errors.
 * @example
 * const bytes = await readBounded(response.body, 8 << 20, (n) => new MyError('TOO_LARGE', `over 8 MiB after ${n} bytes`));
 */
export async function readBounded(
  body: BoundedSource,
  limit: number,
  tooLarge: (received: number) => Error,
  options: { signal?: AbortSignal | undefined } = {},
): Promise<Uint8Array> {
  const { signal } = options;
  if (body === null || body === undefined) return new Uint8Array();
  if (typeof body === 'object' && 'stream' in body && typeof body.stream === 'function') {
    return readBounded(body.stream(), limit, tooLarge, options);
  }
  if (typeof body === 'string' || body instanceof Uint8Array) {
    const bytes = toBytes(body);
    if (bytes.byteLength > limit) throw tooLarge(bytes.byteLength);
    return bytes;
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  let over = false;
  const take = (chunk: Uint8Array | string | undefined): boolean => {
    if (chunk === undefined) return true;
    const bytes = toBytes(chunk);
    total += bytes.byteLength;
    if (total > limit) {
      over = true;
      return false;
    }
    chunks.push(bytes);
    return true;
  };
  let stop: () => void = () => discard(body);
  const onAbort = (): void => stop();
  if (signal?.aborted) throw signal.reason;
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    if ('getReader' in body && typeof body.getReader === 'function') {
      const reader = body.getReader();
      stop = () => void reader.cancel(signal?.reason).catch(() => undefined);
      for (;;) {
        const { done, value } = await reader.read();
        if (signal?.aborted) throw signal.reason;
        if (done) break;
        if (!take(value)) {
          stop();
          break;
        }
      }
    } else {
      // Leaving `for await` early calls the iterator's return(), which destroys a Node Readable.
      for await (const chunk of body as AsyncIterable<Uint8Array | string>) {
        if (signal?.aborted) throw signal.reason;
        if (!take(chunk)) break;
      }
      if (over) discard(body);
    }
  } catch (error) {
    throw signal?.aborted ? signal.reason : error;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  if (over) throw tooLarge(total);
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}
