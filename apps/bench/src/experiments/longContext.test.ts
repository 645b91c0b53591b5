import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../index.js';
import { bench } from '../testing/fixtures.js';

/**
 * A 4-step, 16-wide model, batch 2, 4 validation windows, in this process, on one engine thread
 * (the convergence counts below are one thread's: each thread records its own calls).
 */
const TINY = [
  '--steps',
  '4',
  '--workers',
  '0',
  '--engine-threads',
  '1',
  '--d-model',
  '16',
  '--batch-size',
  '2',
  '--eval-windows',
  '4',
  '--eval-every',
  '4',
];

describe('long context in the bench', () => {
  it('a T = 64 mean-field run completes and records its fixed-point convergence per interval', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-long-mf-'));
    const r = await bench(
      'shakespeare',
      '--variants',
      'boltzmann',
      '--lengths',
      '64',
      '--sampler',
      'mean-field',
      '--steps',
      '60',
      '--workers',
      '0',
      '--engine-threads',
      '1',
      '--d-model',
      '16',
      '--batch-size',
      '4',
      '--eval-windows',
      '8',
      '--eval-every',
      '60',
      '--log-every',
      '20',
      '--results',
      dir,
    );
    expect(r.text).not.toContain('error');
    expect(r.code).toBe(0);
    const [file] = readdirSync(join(dir, 'runs'));
    const record = JSON.parse(readFileSync(join(dir, 'runs', file!), 'utf8')) as RunRecord;
    expect(record.finalMetric).toBeGreaterThan(1);
    const c = record.convergence!;
    expect(c.points.map((p) => p.step)).toEqual([20, 40, 60]);
    expect(c.total.problems).toBe(60 * 4 * 64);
    expect(c.total.calls).toBe(60);
    expect(c.total.missed).toBe(c.points.reduce((s, p) => s + p.missed, 0));
    expect(c.total.maxIterations).toBeGreaterThan(0);
  });

  it('exact at T = 32 is refused before training with a coded error naming the samplers that fit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-long-exact-'));
    const r = await bench(
      'shakespeare',
      '--variants',
      'boltzmann',
      '--lengths',
      '32',
      '--sampler',
      'exact',
      '--dry-run',
      '--results',
      dir,
    );
    expect(r.code).toBe(1);
    expect(r.text).toMatch(
      /error \[BENCH_SAMPLER_TOO_SMALL\]: sampler "exact" handles at most \d+ spins, the grid has T = 32; samplers that take T = 32: .*mean-field/,
    );
  });

  it('--lengths accepts up to 1024, and no more', async () => {
    const ok = await bench(
      'shakespeare',
      '--variants',
      'softmax',
      '--lengths',
      '1024',
      '--dry-run',
      '--results',
      mkdtempSync(join(tmpdir(), 'bench-long-1024-')),
    );
    expect(ok.code).toBe(0);
    const bad = await bench('shakespeare', '--lengths', '1025', '--dry-run');
    expect(bad.code).toBe(2);
    expect(bad.text).toMatch(/--lengths must be a comma-separated list of integers in \[1, 1024\]/);
  });
});

describe('banded couplings with the transfer matrix', () => {
  it('trains T = 48 exactly with --couplings banded:4, and refuses a full J before training', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-long-tm-'));
    const args = [
      'shakespeare',
      '--variants',
      'boltzmann',
      '--lengths',
      '48',
      '--sampler',
      'transfer-matrix',
      '--sampler-options',
      '{"bandwidth":4}',
      ...TINY,
      '--results',
      dir,
    ];
    const refused = await bench(...args);
    expect(refused.code).toBe(1);
    expect(refused.text).toMatch(
      /error \[BENCH_INVALID_OPTION\]: --sampler transfer-matrix is exact only for a banded J: pass --couplings banded:w with w ≤ its bandwidth 4/,
    );
    const r = await bench(...args, '--couplings', 'banded:4');
    expect(r.text).not.toContain('error');
    expect(r.code).toBe(0);
    const [file] = readdirSync(join(dir, 'runs'));
    const record = JSON.parse(readFileSync(join(dir, 'runs', file!), 'utf8')) as RunRecord;
    expect(record.config.couplingForm).toBe('banded:4');
    const J = record.couplings!;
    for (let j = 0; j < 48; j++)
      for (let k = j + 5; k < 48; k++) expect(Math.abs(J[j * 48 + k]!)).toBe(0);
  });
});

describe('deeper models in the bench', () => {
  it('trains a 2-block, 2-head boltzmann model with tap and records the config', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-gpt-layers-'));
    const r = await bench(
      'shakespeare',
      '--variants',
      'boltzmann',
      '--lengths',
      '16',
      '--sampler',
      'tap',
      '--layers',
      '2',
      '--heads',
      '2',
      ...TINY,
      '--results',
      dir,
    );
    expect(r.text).not.toContain('error');
    expect(r.code).toBe(0);
    const [file] = readdirSync(join(dir, 'runs'));
    const record = JSON.parse(readFileSync(join(dir, 'runs', file!), 'utf8')) as RunRecord;
    expect([record.config.layers, record.config.heads]).toEqual([2, 2]);
    expect(record.convergence!.total.calls).toBe(4 * 2 * 2); // steps × layers × heads
  });
});
