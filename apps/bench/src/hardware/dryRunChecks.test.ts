import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { estimateRunSeconds, expandGrid, main, parseBenchArgs } from '../index.js';

async function dry(...argv: string[]): Promise<{ code: number; text: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-dry-checks-'));
  const lines: string[] = [];
  const code = await main(
    [...argv, '--dry-run', '--workers', '0', '--results', join(dir, 'results')],
    { out: (l) => void lines.push(l), err: (l) => void lines.push(l) },
  );
  return { code, text: lines.join('\n') };
}

describe('--dry-run performs every start-up check of a real run', () => {
  it('an unknown sampler', async () => {
    const r = await dry('shakespeare', '--lengths', '4', '--sampler', 'nope');
    expect(r.code).toBe(1);
    expect(r.text).toMatch(
      /error \[BENCH_INVALID_OPTION\]: --sampler "nope" is not one of the registered samplers: \(known: exact, .*ibm\)/,
    );
  });

  it('a missing or corrupt --data file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-dry-data-'));
    const missing = await dry('shakespeare', '--lengths', '4', '--data', join(dir, 'nothing.txt'));
    expect(missing.code).toBe(1);
    expect(missing.text).toMatch(/error \[DATASET_[A-Z_]+\]/);
    const corrupt = join(dir, 'input.txt');
    writeFileSync(corrupt, 'not Tiny Shakespeare');
    const bad = await dry('shakespeare', '--lengths', '4', '--data', corrupt);
    expect(bad.code).toBe(1);
    expect(bad.text).toMatch(/error \[DATASET_CORRUPT\]/);
  });

  it('an impossible bracket spec', async () => {
    // Prefix strings of length 1 contain no closing bracket to predict.
    const r = await dry('brackets', '--lengths', '1', '--mode', 'prefix');
    expect(r.code).toBe(1);
    expect(r.text).toMatch(/error \[DATASET_[A-Z_]+\]/);
  });

  it('bad sampler options, before any worker starts', async () => {
    const r = await dry(
      'shakespeare',
      '--lengths',
      '4',
      '--sampler',
      'gibbs',
      '--sampler-options',
      '{"chain":4}',
    );
    expect(r.code).toBe(1);
    expect(r.text).toMatch(/error \[ISING_INVALID_ARGUMENT\]: gibbs: unknown option "chain"/);
  });

  it('results that are a file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-dry-file-'));
    const file = join(dir, 'results');
    writeFileSync(file, '');
    const lines: string[] = [];
    const code = await main(['shakespeare', '--dry-run', '--results', file], {
      out: (l) => void lines.push(l),
      err: (l) => void lines.push(l),
    });
    expect(code).toBe(1);
    expect(lines.join('\n')).toMatch(/error \[BENCH_RESULTS_INVALID\]: --results .* is a file/);
  });
});

describe('the ETA models the sampler that runs', () => {
  const seconds = (sampler: string, T: number, variant = 'boltzmann') =>
    estimateRunSeconds(
      expandGrid(
        parseBenchArgs(
          ['shakespeare', '--lengths', String(T), '--variants', variant, '--sampler', sampler],
          () => undefined,
        )!,
      )[0]!,
    );

  it('mean-field and gibbs cost polynomially in T, not 2^T', () => {
    // Enumeration at T = 64 would be ~1e13 s; an approximate sampler's run is hours at most.
    expect(seconds('mean-field', 64)).toBeLessThan(24 * 3600);
    expect(seconds('gibbs', 64)).toBeLessThan(7 * 24 * 3600);
    expect(seconds('mean-field', 64)).toBeGreaterThan(seconds('mean-field', 16));
    // Enumeration's own share (over the softmax model) grows as 2^T once it outweighs the
    // per-problem overhead.
    const enumeration = (T: number) => seconds('exact', T) - seconds('exact', T, 'softmax');
    expect(enumeration(20)).toBeGreaterThan(enumeration(12) * 10);
    expect(enumeration(24)).toBeGreaterThan(enumeration(20) * 10);
  });
});
