// What the file loaders accept from disk: a regular file of at most MAX_DATA_FILE_BYTES. A FIFO, a
// device or a folder is refused at once (before any byte is read), so a hostile path can neither
// block the loader nor fill the memory.
import { rejectionOf, thrownBy } from '@boltzmann/ising-core/testing';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  MAX_DATA_FILE_BYTES,
  createCharCorpus,
  loadTinyShakespeare,
  loadTinyShakespeareSync,
} from './index.js';
import { useSandbox } from './loaderTestkit.js';

const sandbox = useSandbox();
const require = createRequire(import.meta.url);
const index = pathToFileURL(fileURLToPath(new URL('./index.ts', import.meta.url))).href;
const ANY_SHA = 'ab'.repeat(32);
const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * Both loaders on `path` in a child process, killed after `timeoutMs`: a loader that blocks on
 * a FIFO or reads /dev/zero without end must fail the test, not hang the test worker.
 */
function loadInChild(path: string, timeoutMs = 20_000): { sync: string; async: string } {
  const script = `import { loadTinyShakespeare, loadTinyShakespeareSync } from ${JSON.stringify(index)};
const options = { path: ${JSON.stringify(path)}, expectedSha256: '${ANY_SHA}' };
const codeOf = (e) => (e && e.code) || String(e);
let sync; try { loadTinyShakespeareSync(options); sync = 'loaded'; } catch (e) { sync = codeOf(e); }
let async_; try { await loadTinyShakespeare(options); async_ = 'loaded'; } catch (e) { async_ = codeOf(e); }
console.log(JSON.stringify({ sync, async: async_ }));
`;
  const file = join(sandbox.dir, 'child.mts');
  writeFileSync(file, script);
  const tsx = pathToFileURL(require.resolve('tsx')).href;
  const run = spawnSync(
    process.execPath,
    ['--import', tsx, '--conditions=@boltzmann/source', file],
    {
      encoding: 'utf8',
      timeout: timeoutMs,
    },
  );
  if (run.status !== 0)
    throw new Error(`child ${run.signal ?? `exit ${run.status}`}: ${run.stderr.slice(-400)}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { sync: string; async: string };
}

describe('the file loaders read only regular files, bounded', () => {
  it('refuse a FIFO at once (no writer: a plain read would block forever)', () => {
    const fifo = join(sandbox.dir, 'input.txt');
    execFileSync('mkfifo', [fifo]);
    expect(loadInChild(fifo)).toEqual({ sync: 'DATASET_NOT_A_FILE', async: 'DATASET_NOT_A_FILE' });
  });

  it('refuse /dev/zero at once (a plain read grows without end)', () => {
    expect(loadInChild('/dev/zero')).toEqual({
      sync: 'DATASET_NOT_A_FILE',
      async: 'DATASET_NOT_A_FILE',
    });
  });

  it('refuse a folder with DATASET_NOT_A_FILE naming the path', async () => {
    const folder = join(sandbox.dir, 'a-folder');
    mkdirSync(folder);
    const options = { path: folder, expectedSha256: ANY_SHA };
    for (const { code, message } of [
      await rejectionOf(loadTinyShakespeare(options)),
      thrownBy(() => loadTinyShakespeareSync(options)),
    ]) {
      expect(code).toBe('DATASET_NOT_A_FILE');
      expect(message).toContain(folder);
      expect(message).toMatch(/directory/);
    }
  });

  it('refuse a file over MAX_DATA_FILE_BYTES (a sparse one: nothing is read) with DATASET_TOO_LARGE', async () => {
    expect(MAX_DATA_FILE_BYTES).toBe(64 * 1024 * 1024);
    const big = join(sandbox.dir, 'input.txt');
    writeFileSync(big, '');
    truncateSync(big, MAX_DATA_FILE_BYTES + 1);
    const options = { path: big, expectedSha256: ANY_SHA };
    for (const { code, message } of [
      await rejectionOf(loadTinyShakespeare(options)),
      thrownBy(() => loadTinyShakespeareSync(options)),
    ]) {
      expect(code).toBe('DATASET_TOO_LARGE');
      expect(message).toContain('67,108,865 bytes');
      expect(message).toContain('67,108,864');
    }
  });

  it('refuse a corpus of one distinct character (a vocabulary of 1) from a file, bytes or text', async () => {
    const text = 'a'.repeat(1000);
    const file = join(sandbox.dir, 'input.txt');
    writeFileSync(file, text);
    const options = { path: file, expectedSha256: sha(text) };
    for (const { code, message } of [
      await rejectionOf(loadTinyShakespeare(options)),
      thrownBy(() => loadTinyShakespeareSync(options)),
      thrownBy(() => createCharCorpus(text)),
    ]) {
      expect(code).toBe('DATASET_INVALID_ARGUMENT');
      expect(message).toContain('1 distinct character ("a")');
    }
  });
});
