import { rejectionOf } from '@boltzmann/ising-core/testing';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { TINY_SHAKESPEARE_SHA256, loadTinyShakespeare, loadTinyShakespeareFrom } from './index.js';
import type { FetchLike, FetchResponseLike } from './index.js';
import { useSandbox } from './loaderTestkit.js';

// CI sets BOLTZMANN_DATA_DIR relative to the repository root; locally fall back to the shared copy.
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const REAL_FILE = join(
  resolve(repoRoot, process.env.BOLTZMANN_DATA_DIR || '../shared/data'),
  'tinyshakespeare',
  'input.txt',
);

const SMALL = 'A small corpus, given as bytes.\nAbc abc.\n';
const SMALL_BYTES = new TextEncoder().encode(SMALL);
const SMALL_SHA = createHash('sha256').update(SMALL).digest('hex');
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const sandbox = useSandbox();
const cacheDir = () => join(sandbox.dir, 'xdg', 'boltzmann');

/** A fetch answering every URL with `body` (as a minimal response without a stream), recording the URLs. */
function fakeFetch(
  body: Uint8Array,
  init: Partial<FetchResponseLike> = {},
): FetchLike & { urls: string[] } {
  const urls: string[] = [];
  const fetch = async (url: string) => {
    urls.push(url);
    return {
      ok: true,
      status: 200,
      statusText: 'OK',
      arrayBuffer: async () => body.slice().buffer,
      ...init,
    };
  };
  return Object.assign(fetch, { urls });
}

describe('loadTinyShakespeareFrom({ bytes })', () => {
  it('should give exactly the corpus of the file loader, from a Buffer, an ArrayBuffer or a view into a larger buffer', async () => {
    const file = readFileSync(REAL_FILE);
    const reference = await loadTinyShakespeare({ path: REAL_FILE });
    const padded = new Uint8Array(file.length + 10);
    padded.set(file, 5);
    const sources = [file, new Uint8Array(file).buffer, padded.subarray(5, 5 + file.length)];
    for (const bytes of sources) {
      const data = await loadTinyShakespeareFrom({ bytes });
      expect(data.source).toBe('bytes');
      expect(data.url).toBeUndefined();
      expect(data.sha256).toBe(TINY_SHAKESPEARE_SHA256);
      expect(data.text).toBe(reference.text);
      expect(data.vocab.chars).toEqual(reference.vocab.chars);
      expect(data.train.length).toBe(1_003_854);
      expect(data.validation.length).toBe(111_540);
      expect(data.validationWindows(12, 16, 7).inputs).toEqual(
        reference.validationWindows(12, 16, 7).inputs,
      );
      expect(Object.isFrozen(data)).toBe(true);
    }
    expect((await loadTinyShakespeareFrom({ bytes: file, trainFraction: 0.5 })).train.length).toBe(
      557_697,
    );
    expect(existsSync(cacheDir())).toBe(false);
  });

  it('should load any corpus given its sha256, keeping a byte-order mark as the file loader does', async () => {
    const data = await loadTinyShakespeareFrom({
      bytes: SMALL_BYTES,
      expectedSha256: SMALL_SHA.toUpperCase(),
    });
    expect(data.text).toBe(SMALL);
    expect(data.sha256).toBe(SMALL_SHA);
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...SMALL_BYTES]);
    const path = join(sandbox.dir, 'bom.txt');
    writeFileSync(path, withBom);
    const fromFile = await loadTinyShakespeare({ path, expectedSha256: sha(withBom) });
    const fromBytes = await loadTinyShakespeareFrom({
      bytes: withBom,
      expectedSha256: sha(withBom),
    });
    expect(fromBytes.text).toBe(`\uFEFF${SMALL}`);
    expect(fromBytes.text).toBe(fromFile.text);
  });

  it('should refuse bytes with the wrong sha256 as DATASET_CORRUPT, naming both hashes', async () => {
    const { code, message } = await rejectionOf(loadTinyShakespeareFrom({ bytes: SMALL_BYTES }));
    expect(code).toBe('DATASET_CORRUPT');
    expect(message).toContain(
      `Tiny Shakespeare (input.txt) given as bytes has sha256 ${SMALL_SHA}, expected ${TINY_SHAKESPEARE_SHA256}`,
    );
    expect(message).toContain(`${SMALL_BYTES.length} bytes`);
    const other = await rejectionOf(
      loadTinyShakespeareFrom({ bytes: SMALL_BYTES, expectedSha256: 'ab'.repeat(32) }),
    );
    expect(other.code).toBe('DATASET_CORRUPT');
    expect(other.message).toContain('the corpus given as bytes');
  });

  it('should decode the bytes that were hashed even if the caller overwrites its buffer right after the call', async () => {
    const bytes = SMALL_BYTES.slice();
    const loading = loadTinyShakespeareFrom({ bytes, expectedSha256: SMALL_SHA });
    bytes.fill(0x41);
    expect((await loading).text).toBe(SMALL);
  });

  it('should refuse what is not bytes, empty bytes, text that is not UTF-8 and malformed sources with a coded message', async () => {
    const bad: [unknown, RegExp][] = [
      [
        SMALL,
        /bytes must be a Uint8Array or an ArrayBuffer, got "A small.*use createCharCorpus\(text\)/,
      ],
      [42, /bytes must be a Uint8Array or an ArrayBuffer, got 42$/],
      [null, /got null/],
      [[1, 2, 3], /got an array of length 3/],
      [new Uint16Array(4), /got \[object Uint16Array\]/],
      [new DataView(new ArrayBuffer(4)), /got \[object DataView\]/],
      [new Uint8Array(0), /bytes is empty \(0 bytes\)/],
      [new ArrayBuffer(0), /bytes is empty/],
    ];
    for (const [bytes, pattern] of bad) {
      const { code, message } = await rejectionOf(
        loadTinyShakespeareFrom({ bytes: bytes as Uint8Array }),
      );
      expect(code, String(pattern)).toBe('DATASET_INVALID_ARGUMENT');
      expect(message).toMatch(pattern);
    }
    const latin1 = new Uint8Array([0x41, 0xe9, 0x42, 0x0a, 0x43, 0x44, 0x45]);
    const notUtf8 = await rejectionOf(
      loadTinyShakespeareFrom({ bytes: latin1, expectedSha256: sha(latin1) }),
    );
    expect(notUtf8).toEqual({
      code: 'DATASET_INVALID_ARGUMENT',
      message: expect.stringContaining('given as bytes is not valid UTF-8 text (7 bytes'),
    });
    // The hash is checked first: a wrong file is corrupt whatever its encoding.
    expect((await rejectionOf(loadTinyShakespeareFrom({ bytes: latin1 }))).code).toBe(
      'DATASET_CORRUPT',
    );
    const sources: [unknown, RegExp][] = [
      [undefined, /source must be an object \{ bytes \} or \{ url \}, got undefined/],
      ['input.txt', /source must be an object/],
      [{}, /exactly one of source.bytes or source.url, got neither/],
      [{ bytes: SMALL_BYTES, url: 'http://127.0.0.1/x' }, /got both/],
      [
        { bytes: SMALL_BYTES, expectedSha256: 'abc' },
        /expectedSha256 must be 64 hex digits, got "abc"/,
      ],
      [{ url: '' }, /source.url must be a non-empty string, got ""/],
      [{ url: 7 }, /source.url must be a non-empty string, got 7/],
      [{ url: 'http://127.0.0.1/x', maxBytes: 0 }, /options.maxBytes must be an integer ≥ 1/],
      [{ url: 'http://127.0.0.1/x', timeoutMs: '60s' }, /options.timeoutMs must be an integer/],
      [{ url: 'http://127.0.0.1/x', fetch: 'fetch' }, /options.fetch must be a function/],
      [
        { bytes: SMALL_BYTES, expectedSha256: SMALL_SHA, trainFraction: 1 },
        /trainFraction must be in \(0, 1\)/,
      ],
    ];
    for (const [source, pattern] of sources) {
      const { code, message } = await rejectionOf(
        loadTinyShakespeareFrom(source as { bytes: Uint8Array }),
      );
      expect(code, String(pattern)).toBe('DATASET_INVALID_ARGUMENT');
      expect(message).toMatch(pattern);
    }
  });

  it('should say DATASET_UNSUPPORTED where there is no WebCrypto (a page served over plain http)', async () => {
    vi.stubGlobal('crypto', undefined);
    const { code, message } = await rejectionOf(
      loadTinyShakespeareFrom({ bytes: SMALL_BYTES, expectedSha256: SMALL_SHA }),
    );
    expect(code).toBe('DATASET_UNSUPPORTED');
    expect(message).toContain('WebCrypto (globalThis.crypto.subtle)');
    expect(message).toContain('secure contexts');
  });
});

describe('loadTinyShakespeareFrom({ url }) with an injected fetch', () => {
  it('should fetch into memory, verify and write nothing', async () => {
    const fetch = fakeFetch(SMALL_BYTES);
    const data = await loadTinyShakespeareFrom({
      url: 'https://example.test/small.txt',
      fetch,
      expectedSha256: SMALL_SHA,
    });
    expect(fetch.urls).toEqual(['https://example.test/small.txt']);
    expect(data.source).toBe('url');
    expect(data.url).toBe('https://example.test/small.txt');
    expect(data.text).toBe(SMALL);
    expect(existsSync(cacheDir())).toBe(false);
  });

  it('should use globalThis.fetch by default, and say DATASET_UNSUPPORTED when there is none', async () => {
    const fetch = fakeFetch(SMALL_BYTES);
    vi.stubGlobal('fetch', fetch);
    expect(
      (await loadTinyShakespeareFrom({ url: '/data/small.txt', expectedSha256: SMALL_SHA })).text,
    ).toBe(SMALL);
    expect(fetch.urls).toEqual(['/data/small.txt']);
    vi.stubGlobal('fetch', undefined);
    const { code, message } = await rejectionOf(
      loadTinyShakespeareFrom({ url: '/data/small.txt', expectedSha256: SMALL_SHA }),
    );
    expect(code).toBe('DATASET_UNSUPPORTED');
    expect(message).toContain('pass options.fetch');
  });

  it('should report a wrong hash, HTTP errors, empty bodies, network errors and too large bodies with codes', async () => {
    const url = 'https://example.test/input.txt';
    const corrupt = await rejectionOf(
      loadTinyShakespeareFrom({ url, fetch: fakeFetch(SMALL_BYTES) }),
    );
    expect(corrupt.code).toBe('DATASET_CORRUPT');
    expect(corrupt.message).toContain(
      `Tiny Shakespeare (input.txt) fetched from "${url}" has sha256 ${SMALL_SHA}, expected ${TINY_SHAKESPEARE_SHA256}`,
    );
    const missing = await rejectionOf(
      loadTinyShakespeareFrom({
        url,
        fetch: fakeFetch(SMALL_BYTES, { ok: false, status: 404, statusText: 'Not Found' }),
      }),
    );
    expect(missing).toEqual({
      code: 'DATASET_OFFLINE',
      message: expect.stringContaining('HTTP 404 "Not Found"'),
    });
    const empty = await rejectionOf(
      loadTinyShakespeareFrom({ url, fetch: fakeFetch(new Uint8Array(0)) }),
    );
    expect(empty).toEqual({
      code: 'DATASET_OFFLINE',
      message: expect.stringContaining('the server sent an empty body'),
    });
    const refused: FetchLike = () => Promise.reject(new TypeError('fetch failed'));
    const offline = await rejectionOf(loadTinyShakespeareFrom({ url, fetch: refused }));
    expect(offline.code).toBe('DATASET_OFFLINE');
    expect(offline.message).toContain(
      `could not fetch Tiny Shakespeare (input.txt) from "${url}": "TypeError: fetch failed"`,
    );
    expect(offline.message).toContain('pass { bytes }');
    const large = await rejectionOf(
      loadTinyShakespeareFrom({ url, fetch: fakeFetch(new Uint8Array(5000)), maxBytes: 4096 }),
    );
    expect(large).toEqual({
      code: 'DATASET_TOO_LARGE',
      message: expect.stringContaining('5,000 bytes'),
    });
  });
});
