import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withoutNodeBuiltins } from '@boltzmann/ising-core/testing';
import { describe, expect, it } from 'vitest';
import { readJsonFile, writeJsonFileAtomic } from './modelFile.js';

describe('writeJsonFileAtomic / readJsonFile', () => {
  it('creates missing folders (the README checkpoint snippet writes run/checkpoint.json) and leaves no temp file', async () => {
    const root = mkdtempSync(join(tmpdir(), 'attention-json-'));
    const path = join(root, 'run', 'nested', 'checkpoint.json');
    await writeJsonFileAtomic(path, { step: 3, weights: [1, 2] });
    expect(await readJsonFile(path)).toEqual({ step: 3, weights: [1, 2] });
    expect(readdirSync(join(root, 'run', 'nested'))).toEqual(['checkpoint.json']);
  });

  it('a corrupt file gets ATTENTION_INVALID_CHECKPOINT naming the path', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'attention-json-bad-')), 'checkpoint.json');
    writeFileSync(path, '{ truncated');
    await expect(readJsonFile(path)).rejects.toMatchObject({
      code: 'ATTENTION_INVALID_CHECKPOINT',
      message: expect.stringContaining(path),
    });
  });

  it('outside Node (no built-ins) reading is ATTENTION_BACKEND_UNAVAILABLE, not a bundler error', async () => {
    await withoutNodeBuiltins(async () => {
      await expect(readJsonFile('run/checkpoint.json')).rejects.toMatchObject({
        code: 'ATTENTION_BACKEND_UNAVAILABLE',
      });
    });
  });
});
