import { rejectionOf } from '@boltzmann/ising-core/testing';
import { existsSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_DOWNLOAD_TIMEOUT_MS,
  DEFAULT_MAX_DOWNLOAD_BYTES,
  loadTinyShakespeare,
} from './index.js';
import type { FetchLike } from './index.js';
import { listen, localFetch, useSandbox } from './loaderTestkit.js';

const sandbox = useSandbox();
const MiB = 1024 * 1024;
const ANY_SHA = 'ab'.repeat(32);

/** What the server saw of one response: bytes written, and whether the client hung up before the end. */
interface Seen {
  written: number;
  finished: boolean;
  closed: Promise<void>;
}

/** Streams `total` bytes in 64 KiB chunks, respecting backpressure, and stops when the client goes away. */
function stream(res: ServerResponse, total: number, seen: Seen): void {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  const pump = () => {
    while (seen.written < total && !res.destroyed) {
      seen.written += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    if (!res.destroyed) {
      seen.finished = true;
      res.end();
    }
  };
  pump();
}

describe('loadTinyShakespeare (download limits)', () => {
  let server: Awaited<ReturnType<typeof listen>>;
  const seen: Seen[] = [];
  beforeAll(async () => {
    server = await listen((req, res) => {
      let hungUp!: () => void;
      const entry: Seen = {
        written: 0,
        finished: false,
        closed: new Promise((done) => (hungUp = done)),
      };
      res.on('close', hungUp);
      seen.push(entry);
      if (req.url === '/stream-50MiB') {
        stream(res, 50 * MiB, entry);
      } else if (req.url === '/announce-50MiB') {
        // Announces 50 MiB, sends one chunk, then waits: only the header can end this early.
        res.writeHead(200, { 'Content-Length': String(50 * MiB) });
        res.write(Buffer.alloc(1024, 0x61));
      } else if (req.url === '/stall-after-headers') {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.write('First Citizen:\n');
      }
      // Any other path: never answers.
    });
  });
  afterAll(() => server.close());
  afterEach(() => {
    seen.length = 0;
  });

  const load = (path: string, options: Parameters<typeof loadTinyShakespeare>[0] = {}) =>
    rejectionOf(
      loadTinyShakespeare({
        url: `${server.base}${path}`,
        expectedSha256: ANY_SHA,
        fetch: localFetch,
        ...options,
      }),
    );

  it('should stop a body that passes maxBytes while it streams, and close the connection', async () => {
    const started = Date.now();
    const { code, message } = await load('/stream-50MiB', { maxBytes: 256 * 1024 });
    expect(code).toBe('DATASET_TOO_LARGE');
    expect(message).toContain('262,144 bytes (options.maxBytes)');
    expect(message).toContain(`${server.base}/stream-50MiB`);
    await seen[0]!.closed;
    expect(seen[0]!.finished).toBe(false);
    expect(seen[0]!.written).toBeLessThan(16 * MiB);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(existsSync(join(sandbox.dir, 'xdg', 'boltzmann', 'tinyshakespeare'))).toBe(false);
  });

  it('should apply an 8 MiB limit by default', async () => {
    expect(DEFAULT_MAX_DOWNLOAD_BYTES).toBe(8 * MiB);
    const { code, message } = await load('/stream-50MiB');
    expect(code).toBe('DATASET_TOO_LARGE');
    expect(message).toContain('8,388,608 bytes');
    await seen[0]!.closed;
    expect(seen[0]!.finished).toBe(false);
  });

  it('should refuse a too-large Content-Length before reading the body', async () => {
    const { code, message } = await load('/announce-50MiB', { maxBytes: 4096, timeoutMs: 20_000 });
    expect(code).toBe('DATASET_TOO_LARGE');
    expect(message).toContain('announced 52,428,800 bytes (Content-Length)');
    await seen[0]!.closed;
  }, 10_000);

  it('should check the size of a body that a minimal fetch returns whole', async () => {
    const fetch: FetchLike = async () => ({
      ok: true,
      status: 200,
      statusText: 'OK',
      arrayBuffer: async () => new ArrayBuffer(5000),
    });
    const { code, message } = await rejectionOf(loadTinyShakespeare({ fetch, maxBytes: 4096 }));
    expect(code).toBe('DATASET_TOO_LARGE');
    expect(message).toContain('5,000 bytes');
  });

  it('should time out a server that sends headers and then stalls, and close the connection', async () => {
    const started = Date.now();
    const { code, message } = await load('/stall-after-headers', { timeoutMs: 300 });
    expect(code).toBe('DATASET_TIMEOUT');
    expect(message).toContain('within 300 ms (options.timeoutMs)');
    expect(message).toContain('Place the file at');
    await seen[0]!.closed;
    expect(Date.now() - started).toBeLessThan(5_000);
    const silent = await load('/never-answers', { timeoutMs: 200 });
    expect(silent.code).toBe('DATASET_TIMEOUT');
  }, 10_000);

  it('should time out after 60 s by default, even with a fetch that ignores the abort signal', async () => {
    expect(DEFAULT_DOWNLOAD_TIMEOUT_MS).toBe(60_000);
    vi.useFakeTimers();
    try {
      const fetch: FetchLike = () => new Promise(() => undefined);
      const outcome = rejectionOf(loadTinyShakespeare({ fetch }));
      await vi.advanceTimersByTimeAsync(59_999);
      let settled = false;
      void outcome.then(() => (settled = true));
      await vi.advanceTimersByTimeAsync(0);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect((await outcome).code).toBe('DATASET_TIMEOUT');
    } finally {
      vi.useRealTimers();
    }
  });

  it('should still report the caller aborting as DATASET_OFFLINE', async () => {
    const controller = new AbortController();
    const outcome = load('/stall-after-headers', { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    expect((await outcome).code).toBe('DATASET_OFFLINE');
    await seen[0]!.closed;
  }, 10_000);

  it('should reject malformed limits', async () => {
    for (const bad of [
      { maxBytes: 0 },
      { maxBytes: 1.5 },
      { timeoutMs: -1 },
      { timeoutMs: 2 ** 31 },
      { timeoutMs: '60s' },
    ]) {
      const { code, message } = await rejectionOf(loadTinyShakespeare({ ...(bad as object) }));
      expect(code).toBe('DATASET_INVALID_ARGUMENT');
      expect(message).toMatch(/options\.(maxBytes|timeoutMs) must be an integer/);
    }
  });
});
