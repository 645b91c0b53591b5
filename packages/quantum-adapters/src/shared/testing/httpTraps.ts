import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

/** One request a trap saw. */
export interface TrapRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A local HTTP server on 127.0.0.1 that records every request and answers with `handle`. */
export interface Trap {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  readonly url: string;
  readonly requests: TrapRequest[];
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const notFound: Handler = (_req, res) => {
  res.writeHead(404, { 'Content-Type': 'application/json' });
  res.end('{"error_code":404,"error_msg":"trap"}');
};

/**
 * Test helper: starts a recording server (ephemeral port on 127.0.0.1). The default answer is a
 * 404; {@link redirectTo} and {@link streamBody} make the others the security tests need.
 */
export async function startTrap(handle: Handler = notFound): Promise<Trap> {
  const requests: TrapRequest[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handle(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A handler answering every request with `status` and `Location: <target><same path>` (or `location` as given). */
export function redirectTo(status: number, target: string | ((path: string) => string)): Handler {
  return (req, res) => {
    const location =
      typeof target === 'function'
        ? target(req.url ?? '/')
        : new URL(req.url ?? '/', target).toString();
    res.writeHead(status, { Location: location, 'Content-Type': 'text/plain' });
    res.end('moved');
  };
}

/** What a {@link streamBody} handler sent before its client went away. */
export interface StreamStats {
  written: number;
  /** True when the connection closed before the whole body was written. */
  closedEarly: boolean;
  /** Settles when the response finished or its connection closed. */
  readonly done: Promise<void>;
}

/**
 * A handler that streams `totalBytes` of spaces (valid JSON whitespace around nothing) in 64 KiB
 * chunks with back-pressure, optionally announcing them in `Content-Length`: the memory a test
 * needs stays at one chunk, while a client that buffers everything would read it all.
 */
export function streamBody(
  totalBytes: number,
  options: { contentLength?: boolean; status?: number; headers?: Record<string, string> } = {},
): { handle: Handler; stats: StreamStats } {
  let settle: () => void = () => undefined;
  const stats: StreamStats = {
    written: 0,
    closedEarly: false,
    done: new Promise<void>((resolve) => (settle = resolve)),
  };
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  const handle: Handler = (_req, res) => {
    res.writeHead(options.status ?? 200, {
      'Content-Type': 'application/json',
      ...(options.contentLength ? { 'Content-Length': String(totalBytes) } : {}),
      ...options.headers,
    });
    let finished = false;
    res.on('close', () => {
      stats.closedEarly = !finished;
      settle();
    });
    const pump = (): void => {
      while (stats.written < totalBytes && !res.destroyed) {
        const piece = chunk.subarray(0, Math.min(chunk.length, totalBytes - stats.written));
        stats.written += piece.length;
        if (!res.write(piece)) {
          res.once('drain', pump);
          return;
        }
      }
      if (!res.destroyed) {
        finished = true;
        res.end();
      }
    };
    pump();
  };
  return { handle, stats };
}

/** Resolves `promise`, or rejects after `ms` (a bounded wait inside a test). */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Test helper: the servers a test file opens, closed after each of its tests. `trap` starts a
 * {@link startTrap} server and puts it on `open`; push any other server (a fake) there too.
 *
 * @returns the list of servers to close, and `trap`.
 */
export function closeAfterEach(): {
  open: { close(): Promise<void> }[];
  trap: (handle?: Handler) => Promise<Trap>;
} {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });
  async function trap(handle?: Handler): Promise<Trap> {
    const t = await startTrap(handle);
    open.push(t);
    return t;
  }
  return { open, trap };
}
