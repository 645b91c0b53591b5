import { execFileSync } from 'node:child_process';
import { mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRegularFile } from './internalApi.js';
import type { RegularFileRefusal } from './internalApi.js';

const dir = mkdtempSync(join(tmpdir(), 'ising-regular-file-'));

/** The refusal `readRegularFile` reported for `path`, or the bytes it read as text. */
function attempt(path: string, maxBytes: number): RegularFileRefusal | string {
  try {
    return new TextDecoder().decode(
      readRegularFile(path, maxBytes, (r) => Object.assign(new Error(r.reason), { r })),
    );
  } catch (error) {
    const r = (error as { r?: RegularFileRefusal }).r;
    if (r === undefined) throw error;
    return r;
  }
}

describe('readRegularFile', () => {
  it('reads a regular file of at most maxBytes whole', () => {
    const path = join(dir, 'ok.json');
    writeFileSync(path, '{"a":1}');
    expect(attempt(path, 7)).toBe('{"a":1}');
  });

  it('refuses a directory, a FIFO and /dev/zero without reading or blocking, and an oversize file by its size', () => {
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    expect(attempt(dir, 100)).toMatchObject({ reason: 'not-a-file', kind: 'a directory' });
    expect(attempt(fifo, 100)).toMatchObject({ reason: 'not-a-file', kind: 'a FIFO (named pipe)' });
    expect(attempt('/dev/zero', 100)).toMatchObject({
      reason: 'not-a-file',
      kind: 'a character device',
    });
    const big = join(dir, 'big');
    writeFileSync(big, '');
    truncateSync(big, 2 ** 31); // sparse: announced, never stored
    expect(attempt(big, 2 ** 30)).toEqual({ reason: 'too-large', size: 2 ** 31 });
  });

  it('leaves a missing path to the caller as the file system error', () => {
    expect(() => attempt(join(dir, 'missing'), 10)).toThrow(/ENOENT/);
  });
});
