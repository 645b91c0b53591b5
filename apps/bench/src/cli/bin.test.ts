import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const cli = fileURLToPath(new URL('./bin.ts', import.meta.url));
const run = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', '--conditions=@boltzmann/source', cli, ...args], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    encoding: 'utf8',
    timeout: 50_000,
  });

describe('bench CLI (child process)', () => {
  it('rejects an unknown flag with a coded one-line message and exit code 2, no stack trace', () => {
    const r = run('brackets', '--lenghts', '8');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("error [BENCH_INVALID_OPTION]: unknown option '--lenghts'");
    expect(r.stderr).toContain('(Did you mean --lengths?)');
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(r.stdout).toBe('');
  });

  it('rejects a malformed list and an unknown task the same way', () => {
    const bad = run('shakespeare', '--seeds', '0,one');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(
      /^error \[BENCH_INVALID_OPTION\]: --seeds must be a comma-separated list of non-negative integers, got "0,one"$/m,
    );
    const task = run('poems');
    expect(task.status).toBe(2);
    expect(task.stderr).toContain('error [BENCH_UNKNOWN_TASK]: unknown task "poems"');
    expect(`${bad.stderr}${task.stderr}`).not.toMatch(/^\s+at /m);
  });

  it('prints the grid size and an ETA for the paper preset without running it', () => {
    const r = run(
      'shakespeare',
      '--preset',
      'paper',
      '--dry-run',
      '--results',
      '/tmp/bench-cli-dry-run',
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(
      /grid: 36 runs — 0 finished, 0 to resume, 36 new; \d+ workers?; estimated time ≈ \S+/,
    );
  });

  it('runs a tiny grid through a worker process (reused for the second run) and writes records and the report', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-cli-pool-'));
    const r = run(
      'brackets',
      '--lengths',
      '8',
      '--variants',
      'softmax,boltzmann',
      '--steps',
      '12',
      '--d-model',
      '8',
      '--ffn',
      'off',
      '--batch-size',
      '8',
      '--eval-every',
      '6',
      '--workers',
      '1',
      '--results',
      dir,
    );
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/grid: 2 runs — 0 finished, 0 to resume, 2 new; 1 worker/);
    expect(readdirSync(join(dir, 'runs'))).toHaveLength(2);
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(html).toContain('<th>boltzmann</th>');
    expect(html).toContain('<svg');
  });
});
