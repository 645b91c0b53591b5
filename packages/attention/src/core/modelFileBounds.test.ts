// Model files are read only as regular files of bounded size: `--model /dev/zero` once grew the
// process to 12 GB, and a FIFO blocked it for good (ignoring SIGTERM), because the whole path was
// read before anything was checked.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_MODEL_FILE_BYTES, readTransformer } from '../index.js';
import { readJsonFile } from './modelFile.js';

const dir = mkdtempSync(join(tmpdir(), 'attention-model-file-'));

/** What `run` rejected with (`code` and message), or `'timeout'` if it has not settled within 3 s. */
async function outcome(
  run: () => Promise<unknown>,
): Promise<{ code?: string; message?: string } | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), 3000);
  });
  try {
    return await Promise.race([
      run().then(
        () => ({ code: 'no error' }),
        (e: { code?: string; message?: string }) => ({ code: e.code, message: e.message }),
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

describe('readTransformer / readJsonFile on a path that is not a bounded regular file', () => {
  it('refuses a directory, a FIFO and a device with ATTENTION_NOT_A_FILE naming the path', async () => {
    const fifo = join(dir, 'model.fifo');
    execFileSync('mkfifo', [fifo]);
    try {
      for (const path of [dir, fifo, '/dev/zero']) {
        for (const read of [readTransformer, readJsonFile]) {
          const got = await outcome(() => read(path));
          expect({ path, got }).toMatchObject({
            path,
            got: { code: 'ATTENTION_NOT_A_FILE', message: expect.stringContaining(path) },
          });
        }
      }
    } finally {
      // A reader that blocked on the FIFO (the bug) gets end-of-file when a writer comes and goes;
      // with no reader the non-blocking open fails (ENXIO) and nothing waits.
      try {
        closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
      } catch {
        // No reader: nothing to release.
      }
    }
  });

  it('refuses a file over MAX_MODEL_FILE_BYTES before reading it, naming the path and the limit', async () => {
    const path = join(dir, 'huge.json');
    writeFileSync(path, '');
    // Sparse: the size is announced, no disk space is used.
    truncateSync(path, MAX_MODEL_FILE_BYTES + 1);
    const got = await outcome(() => readTransformer(path));
    expect(got).toMatchObject({ code: 'ATTENTION_FILE_TOO_LARGE' });
    expect(got !== 'timeout' && got.message).toMatch(path);
    expect(got !== 'timeout' && got.message).toContain('MAX_MODEL_FILE_BYTES');
  });
});
