import { rejectionOf } from '@boltzmann/ising-core/testing';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRng } from '@boltzmann/ising-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { TINY_SHAKESPEARE_SHA256, loadTinyShakespeare, loadTinyShakespeareSync } from './index.js';
import { listen, localFetch, noNetwork, useSandbox } from './loaderTestkit.js';

// CI sets BOLTZMANN_DATA_DIR relative to the repository root; locally fall back to the shared copy.
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const DATA_DIR = resolve(repoRoot, process.env.BOLTZMANN_DATA_DIR || '../shared/data');
const REAL_FILE = join(DATA_DIR, 'tinyshakespeare', 'input.txt');

const SMALL = 'Small file served by a test server.\nAbc abc.\n';
const SMALL_SHA = createHash('sha256').update(SMALL).digest('hex');

// A fresh folder per test; nothing in this file may reach the real network or the real per-user cache.
const sandbox = useSandbox();
let tmp: string;
beforeEach(() => {
  tmp = sandbox.dir;
});

describe('loadTinyShakespeare (the real file)', () => {
  it('should load and verify the shared copy: 1,115,394 characters, 65 distinct, a 90/10 split', async () => {
    const data = await loadTinyShakespeare({ dataDir: DATA_DIR, download: false });
    expect(data.text.length).toBe(1_115_394);
    expect(data.vocab.size).toBe(65);
    expect(data.sha256).toBe(TINY_SHAKESPEARE_SHA256);
    expect(data.source).toBe('dataDir');
    expect(data.path).toBe(REAL_FILE);
    expect(data.train.length).toBe(1_003_854);
    expect(data.validation.length).toBe(111_540);
    expect(data.text.startsWith('First Citizen:')).toBe(true);
    expect(data.vocab.chars[0]).toBe('\n');
    expect(data.vocab.chars.join('')).toContain(
      'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
    );
    expect(data.vocab.decode(data.tokens)).toBe(data.text);
    const batch = data.sampleBatch('train', 4, 12, createRng(0));
    for (let b = 0; b < 4; b++) {
      const s = batch.starts[b]!;
      expect(data.vocab.decode(batch.inputs.subarray(b * 12, b * 12 + 12))).toBe(
        data.text.slice(s, s + 12),
      );
    }
    const cut = data.train.length;
    const v = data.validationWindows(12, 16, 7);
    const again = loadTinyShakespeareSync({ dataDir: DATA_DIR }).validationWindows(12, 16, 7);
    expect(v.inputs).toEqual(again.inputs);
    expect(data.vocab.decode(v.targets.subarray(0, 12))).toBe(
      data.text.slice(cut + v.starts[0]! + 1, cut + v.starts[0]! + 13),
    );
  });

  it('should read BOLTZMANN_DATA_DIR, accepting <dir>/input.txt as well as <dir>/tinyshakespeare/input.txt', async () => {
    vi.stubEnv('BOLTZMANN_DATA_DIR', DATA_DIR);
    expect((await loadTinyShakespeare({ download: false })).path).toBe(REAL_FILE);
    const flat = join(tmp, 'flat');
    mkdirSync(flat);
    copyFileSync(REAL_FILE, join(flat, 'input.txt'));
    vi.stubEnv('BOLTZMANN_DATA_DIR', flat);
    const data = loadTinyShakespeareSync();
    expect(data.path).toBe(join(flat, 'input.txt'));
    expect(data.vocab.size).toBe(65);
  });

  it('should read an explicit path and the per-user cache', async () => {
    expect((await loadTinyShakespeare({ path: REAL_FILE })).source).toBe('path');
    const cacheFile = join(tmp, 'xdg', 'boltzmann', 'tinyshakespeare', 'input.txt');
    mkdirSync(join(cacheFile, '..'), { recursive: true });
    copyFileSync(REAL_FILE, cacheFile);
    const cached = await loadTinyShakespeare({ download: false });
    expect(cached.source).toBe('cache');
    expect(cached.path).toBe(cacheFile);
  });
});

describe('loadTinyShakespeare (missing and corrupt files)', () => {
  it('should say where it looked and what to set when the file is missing and downloading is off', async () => {
    const fetch = vi.fn(noNetwork);
    const dataDir = join(tmp, 'empty');
    const { code, message } = await rejectionOf(
      loadTinyShakespeare({ dataDir, cacheDir: join(tmp, 'cache'), download: false, fetch }),
    );
    expect(code).toBe('DATASET_NOT_FOUND');
    expect(message).toContain(join(dataDir, 'tinyshakespeare', 'input.txt'));
    expect(message).toContain(join(dataDir, 'input.txt'));
    expect(message).toContain(join(tmp, 'cache', 'tinyshakespeare', 'input.txt'));
    expect(message).toContain('BOLTZMANN_DATA_DIR');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('should neither search around nor download for a missing explicit path, and the sync loader never downloads', async () => {
    const fetch = vi.fn(noNetwork);
    const missing = join(tmp, 'nope.txt');
    const { code, message } = await rejectionOf(loadTinyShakespeare({ path: missing, fetch }));
    expect(code).toBe('DATASET_NOT_FOUND');
    expect(message).toContain(missing);
    expect(() => loadTinyShakespeareSync({ cacheDir: join(tmp, 'c'), fetch })).toThrow(
      /never downloads/,
    );
    expect(fetch).not.toHaveBeenCalled();
  });

  it('should not route around a BOLTZMANN_DATA_DIR that names a missing folder: no cache, no download', async () => {
    const fetch = vi.fn(noNetwork);
    const missing = join(tmp, 'no-such-folder');
    vi.stubEnv('BOLTZMANN_DATA_DIR', missing);
    const first = await rejectionOf(loadTinyShakespeare({ fetch }));
    expect(first.code).toBe('DATASET_NOT_FOUND');
    expect(first.message).toContain(`data directory "${missing}" set by BOLTZMANN_DATA_DIR`);
    expect(first.message).toMatch(/does not exist/);
    expect(first.message).toContain(join(missing, 'tinyshakespeare', 'input.txt'));
    // A good copy in the cache is not a reason to ignore the misconfiguration either.
    const cacheFile = join(tmp, 'xdg', 'boltzmann', 'tinyshakespeare', 'input.txt');
    mkdirSync(join(cacheFile, '..'), { recursive: true });
    copyFileSync(REAL_FILE, cacheFile);
    expect((await rejectionOf(loadTinyShakespeare({ fetch }))).code).toBe('DATASET_NOT_FOUND');
    expect(() => loadTinyShakespeareSync()).toThrow(/does not exist/);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('should say whether a configured data directory lacks the file or is not a folder', async () => {
    const fetch = vi.fn(noNetwork);
    mkdirSync(join(tmp, 'empty'));
    vi.stubEnv('BOLTZMANN_DATA_DIR', join(tmp, 'empty'));
    expect((await rejectionOf(loadTinyShakespeare({ fetch }))).message).toMatch(
      /that folder lacks the file/,
    );
    writeFileSync(join(tmp, 'file'), SMALL);
    const notFolder = await rejectionOf(loadTinyShakespeare({ dataDir: join(tmp, 'file'), fetch }));
    expect(notFolder.code).toBe('DATASET_NOT_FOUND');
    expect(notFolder.message).toMatch(/set by options\.dataDir .*: that path is not a folder/);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('should report a corrupt cached file instead of downloading over it', async () => {
    const fetch = vi.fn(noNetwork);
    const cacheFile = join(tmp, 'xdg', 'boltzmann', 'tinyshakespeare', 'input.txt');
    mkdirSync(join(cacheFile, '..'), { recursive: true });
    writeFileSync(cacheFile, SMALL);
    const { code, message } = await rejectionOf(loadTinyShakespeare({ fetch }));
    expect(code).toBe('DATASET_CORRUPT');
    expect(message).toContain(cacheFile);
    expect(message).toContain(SMALL_SHA);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('should report a corrupt file with expected and actual hashes and the path', async () => {
    const bad = join(tmp, 'tinyshakespeare', 'input.txt');
    mkdirSync(join(tmp, 'tinyshakespeare'));
    writeFileSync(bad, readFileSync(REAL_FILE).subarray(0, 1000));
    const { code, message } = await rejectionOf(
      loadTinyShakespeare({ dataDir: tmp, download: false }),
    );
    expect(code).toBe('DATASET_CORRUPT');
    expect(message).toContain(bad);
    expect(message).toContain(TINY_SHAKESPEARE_SHA256);
    expect(message).toContain(createHash('sha256').update(readFileSync(bad)).digest('hex'));
    expect(message).toMatch(/Delete or replace/);
  });

  it('should accept a small file with a matching expectedSha256 and reject malformed options', async () => {
    const file = join(tmp, 'small.txt');
    writeFileSync(file, SMALL);
    const data = loadTinyShakespeareSync({ path: file, expectedSha256: SMALL_SHA.toUpperCase() });
    expect(data.text).toBe(SMALL);
    expect(
      (await rejectionOf(loadTinyShakespeare({ path: file, expectedSha256: 'abc' }))).code,
    ).toBe('DATASET_INVALID_ARGUMENT');
    expect((await rejectionOf(loadTinyShakespeare({ path: '' }))).code).toBe(
      'DATASET_INVALID_ARGUMENT',
    );
    for (const bad of [
      { expectedSha256: 42 },
      { download: 'no' },
      { fetch: 'http' },
      { dataDir: 3 },
    ]) {
      const { code, message } = await rejectionOf(
        loadTinyShakespeare({ path: file, ...(bad as object) }),
      );
      expect(code).toBe('DATASET_INVALID_ARGUMENT');
      expect(message).toMatch(/got (42|"no"|"http"|3)/);
    }
    expect((await rejectionOf(loadTinyShakespeare({ path: tmp }))).code).toBe('DATASET_NOT_A_FILE');
  });
});

describe('loadTinyShakespeare (download from a local server)', () => {
  let server: Awaited<ReturnType<typeof listen>>;
  let base: string;
  const hits: string[] = [];
  beforeAll(async () => {
    server = await listen((req, res) => {
      hits.push(req.url ?? '');
      if (req.url === '/input.txt') res.end(SMALL);
      else if (req.url === '/empty.txt') res.end('');
      else {
        res.statusCode = 404;
        res.end('not here');
      }
    });
    base = server.base;
  });
  afterAll(() => server.close());

  it('should download into the cache atomically, then read the cache without the server', async () => {
    const cacheDir = join(tmp, 'cache');
    const options = {
      cacheDir,
      url: `${base}/input.txt`,
      expectedSha256: SMALL_SHA,
      fetch: localFetch,
    };
    hits.length = 0;
    const first = await loadTinyShakespeare(options);
    expect(first.source).toBe('download');
    expect(first.text).toBe(SMALL);
    const target = join(cacheDir, 'tinyshakespeare', 'input.txt');
    expect(first.path).toBe(target);
    expect(readFileSync(target, 'utf8')).toBe(SMALL);
    expect(readdirSync(join(cacheDir, 'tinyshakespeare'))).toEqual(['input.txt']);
    const second = await loadTinyShakespeare({ ...options, fetch: noNetwork });
    expect(second.source).toBe('cache');
    expect(hits).toEqual(['/input.txt']);
  });

  it('should report HTTP errors, empty bodies and refused connections as DATASET_OFFLINE with a way out', async () => {
    const cacheDir = join(tmp, 'cache');
    const target = join(cacheDir, 'tinyshakespeare', 'input.txt');
    const notFound = await rejectionOf(
      loadTinyShakespeare({ cacheDir, url: `${base}/missing`, fetch: localFetch }),
    );
    expect(notFound.code).toBe('DATASET_OFFLINE');
    expect(notFound.message).toContain('HTTP 404');
    expect(notFound.message).toContain(target);
    expect(notFound.message).toContain('BOLTZMANN_DATA_DIR');
    const empty = await rejectionOf(
      loadTinyShakespeare({ cacheDir, url: `${base}/empty.txt`, fetch: localFetch }),
    );
    expect(empty.message).toMatch(/empty body/);
    const closed = await listen(() => undefined);
    await closed.close();
    const refused = await rejectionOf(
      loadTinyShakespeare({ cacheDir, url: `${closed.base}/input.txt`, fetch: localFetch }),
    );
    expect(refused.code).toBe('DATASET_OFFLINE');
    expect(existsSync(target)).toBe(false);
  });

  it('should refuse a download with the wrong hash and write nothing', async () => {
    const cacheDir = join(tmp, 'cache');
    const { code, message } = await rejectionOf(
      loadTinyShakespeare({ cacheDir, url: `${base}/input.txt`, fetch: localFetch }),
    );
    expect(code).toBe('DATASET_CORRUPT');
    expect(message).toContain(SMALL_SHA);
    expect(message).toContain(TINY_SHAKESPEARE_SHA256);
    expect(existsSync(join(cacheDir, 'tinyshakespeare'))).toBe(false);
  });

  it('should use $XDG_CACHE_HOME/boltzmann as the default cache', async () => {
    const data = await loadTinyShakespeare({
      url: `${base}/input.txt`,
      expectedSha256: SMALL_SHA,
      fetch: localFetch,
    });
    expect(data.path).toBe(join(tmp, 'xdg', 'boltzmann', 'tinyshakespeare', 'input.txt'));
  });
});
