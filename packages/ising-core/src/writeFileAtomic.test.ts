import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { atomicTempWriter, writeFileAtomic } from './internalApi.js';

describe('writeFileAtomic', () => {
  it('creates parent folders, writes text and bytes as they are, and leaves no temporary file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ising-atomic-'));
    const path = join(dir, 'a', 'b', 'x.bin');
    writeFileAtomic(path, 'first');
    writeFileAtomic(path, Uint8Array.of(0, 255, 10));
    expect([...readFileSync(path)]).toEqual([0, 255, 10]);
    expect(readdirSync(join(dir, 'a', 'b'))).toEqual(['x.bin']);
  });

  it('keeps the old file and removes its temporary file when the rename fails', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ising-atomic-'));
    writeFileSync(join(dir, 'x.txt'), 'old');
    // A non-empty folder where the file should go: the temporary file is written, the rename fails.
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'inner.txt'), 'x');
    expect(() => writeFileAtomic(join(dir, 'sub'), 'new')).toThrow();
    expect(readFileSync(join(dir, 'x.txt'), 'utf8')).toBe('old');
    expect(readdirSync(dir).sort()).toEqual(['sub', 'x.txt']);
  });

  it('names the writer of its temporary files, and of nothing else', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ising-atomic-'));
    // A write that fails at its rename shows the temporary name it used (a folder is in the way).
    mkdirSync(join(dir, 'x.json', 'inner'), { recursive: true });
    let temp = '';
    try {
      writeFileAtomic(join(dir, 'x.json'), '{}');
    } catch (error) {
      temp = /\.x\.json\.[^'"\s]+\.tmp/.exec(String(error))?.[0] ?? '';
    }
    expect(atomicTempWriter(temp)).toBe(process.pid);
    for (const other of [
      'x.json',
      'notes.tmp',
      '.x.json.tmp',
      '.x.json.12.tmp',
      '.x.json.1.2.UPPER.tmp',
    ])
      expect(atomicTempWriter(other), other).toBeUndefined();
  });
});
