import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// Direct module import: the barrel pulls in TF.js and the cloud SDKs (seconds per test file).
import { writeFileAtomic, writeJsonAtomic } from './atomicWrite.js';

describe('writeFileAtomic', () => {
  it('creates parent directories, replaces the file, and leaves no temporary files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-atomic-'));
    const path = join(dir, 'a', 'b', 'x.json');
    writeJsonAtomic(path, { v: 1 });
    writeJsonAtomic(path, { v: 2 });
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ v: 2 });
    expect(readdirSync(join(dir, 'a', 'b'))).toEqual(['x.json']);
  });

  it('keeps the old content and cleans up when the write fails', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-atomic-'));
    const path = join(dir, 'x.txt');
    writeFileSync(path, 'old');
    // A directory where the destination should be: rename fails after the temp file was written.
    const blocked = join(dir, 'sub');
    writeFileAtomic(join(blocked, 'inner.txt'), 'x');
    expect(() => writeFileAtomic(blocked, 'new')).toThrow();
    expect(readFileSync(path, 'utf8')).toBe('old');
    expect(readdirSync(dir).sort()).toEqual(['sub', 'x.txt']);
  });
});
