import { rejectionOf } from '@boltzmann/ising-core/testing';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withoutNodeBuiltins } from '@boltzmann/ising-core/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TINY_SHAKESPEARE_SHA256, loadTinyShakespeare, loadTinyShakespeareFrom } from './index.js';
import { listen, localFetch, useSandbox } from './loaderTestkit.js';

// CI sets BOLTZMANN_DATA_DIR relative to the repository root; locally fall back to the shared copy.
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const REAL_FILE = join(
  resolve(repoRoot, process.env.BOLTZMANN_DATA_DIR || '../shared/data'),
  'tinyshakespeare',
  'input.txt',
);
const FILE = readFileSync(REAL_FILE);

const sandbox = useSandbox();
let server: Awaited<ReturnType<typeof listen>>;
beforeAll(async () => {
  server = await listen((req, res) => {
    if (req.url === '/input.txt') {
      res.writeHead(200, {
        'Content-Type': 'text/plain; charset=utf-8',
        'Content-Length': String(FILE.length),
      });
      res.end(FILE);
    } else if (req.url === '/chunked.txt') {
      // No Content-Length: only counting the streamed bytes can stop this one.
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.write(FILE.subarray(0, 100_000));
      res.end(FILE.subarray(100_000));
    } else if (req.url === '/stall') {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.write('First Citizen:\n');
    } else {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('no such file');
    }
  });
});
afterAll(() => server.close());

describe('loadTinyShakespeareFrom({ url }) from a server on 127.0.0.1', () => {
  it('should fetch and verify the real file, and store nothing', async () => {
    const data = await loadTinyShakespeareFrom({
      url: `${server.base}/input.txt`,
      fetch: localFetch,
    });
    expect(data.source).toBe('url');
    expect(data.url).toBe(`${server.base}/input.txt`);
    expect(data.sha256).toBe(TINY_SHAKESPEARE_SHA256);
    expect(data.text.length).toBe(1_115_394);
    expect(data.vocab.size).toBe(65);
    expect(existsSync(join(sandbox.dir, 'xdg'))).toBe(false);
  });

  it('should enforce maxBytes while streaming and timeoutMs, and report a 404 and an abort as DATASET_OFFLINE', async () => {
    const at = (path: string) => `${server.base}${path}`;
    const large = await rejectionOf(
      loadTinyShakespeareFrom({ url: at('/chunked.txt'), fetch: localFetch, maxBytes: 200_000 }),
    );
    expect(large).toEqual({
      code: 'DATASET_TOO_LARGE',
      message: expect.stringContaining('200,000 bytes (options.maxBytes)'),
    });
    const announced = await rejectionOf(
      loadTinyShakespeareFrom({ url: at('/input.txt'), fetch: localFetch, maxBytes: 4096 }),
    );
    expect(announced).toEqual({
      code: 'DATASET_TOO_LARGE',
      message: expect.stringContaining('announced 1,115,394 bytes'),
    });
    const slow = await rejectionOf(
      loadTinyShakespeareFrom({ url: at('/stall'), fetch: localFetch, timeoutMs: 300 }),
    );
    expect(slow).toEqual({
      code: 'DATASET_TIMEOUT',
      message: expect.stringContaining('within 300 ms (options.timeoutMs)'),
    });
    const missing = await rejectionOf(
      loadTinyShakespeareFrom({ url: at('/nothing.txt'), fetch: localFetch }),
    );
    expect(missing).toEqual({
      code: 'DATASET_OFFLINE',
      message: expect.stringContaining('HTTP 404 "Not Found"'),
    });
    const controller = new AbortController();
    const aborted = rejectionOf(
      loadTinyShakespeareFrom({ url: at('/stall'), fetch: localFetch, signal: controller.signal }),
    );
    setTimeout(() => controller.abort(), 100);
    expect((await aborted).code).toBe('DATASET_OFFLINE');
  }, 20_000);
});

describe('loadTinyShakespeareFrom without Node', () => {
  it('should load from bytes and from a URL with no Node built-in and no Buffer, where the file loaders cannot', async () => {
    // The original module graph has Node's modules cached; a fresh graph starts without them.
    await loadTinyShakespeare({ path: REAL_FILE });
    vi.resetModules();
    const fresh = (await import('./index.js')) as typeof import('./index.js');
    const bytes = new Uint8Array(FILE); // a plain Uint8Array, not a Buffer
    vi.stubGlobal('fetch', localFetch);
    const realBuffer = globalThis.Buffer;
    const outcome = await withoutNodeBuiltins(async () => {
      (globalThis as { Buffer?: unknown }).Buffer = undefined;
      try {
        const fromBytes = await fresh.loadTinyShakespeareFrom({ bytes });
        const fromUrl = await fresh.loadTinyShakespeareFrom({ url: `${server.base}/input.txt` });
        const corrupt = await rejectionOf(
          fresh.loadTinyShakespeareFrom({ bytes: bytes.subarray(1) }),
        );
        const fileLoader = await rejectionOf(fresh.loadTinyShakespeare({ path: REAL_FILE }));
        return { fromBytes, fromUrl, corrupt, fileLoader };
      } finally {
        globalThis.Buffer = realBuffer;
      }
    });
    expect(outcome.fromBytes.source).toBe('bytes');
    expect(outcome.fromBytes.vocab.size).toBe(65);
    expect(outcome.fromUrl.source).toBe('url');
    expect(outcome.fromUrl.text).toBe(outcome.fromBytes.text);
    expect(outcome.corrupt.code).toBe('DATASET_CORRUPT');
    expect(outcome.fileLoader.code).toBe('DATASET_UNSUPPORTED');
    expect(outcome.fileLoader.message).toContain('loadTinyShakespeareFrom({ url })');
  });
});
