import { spawn, spawnSync } from 'node:child_process';
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

const launcher = fileURLToPath(new URL('../../bin/bench.mjs', import.meta.url));
const launch = (...args: string[]) =>
  spawnSync(process.execPath, [launcher, ...args], { encoding: 'utf8', timeout: 50_000 });

describe('the bench launcher (bin/bench.mjs, `pnpm exec bench`)', () => {
  it('forwards the arguments and the exit code, from any folder', () => {
    const version = launch('--version');
    expect(version.status).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    const help = launch('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^ {2}collect .*queued grid$/m);
    const typo = launch('reprot');
    expect(typo.status).toBe(2);
    expect(typo.stderr).toContain('unknown task "reprot": did you mean "report"?');
  });

  it("passes SIGTERM on: the bench stops as asked and its exit code (130) is the launcher's", async () => {
    const model = fileURLToPath(
      new URL(
        '../../../../docs/results/shakespeare/models/shakespeare-boltzmann-T8-d64-ffn-s0-a66b289e5469.json',
        import.meta.url,
      ),
    );
    const child = spawn(process.execPath, [
      launcher,
      'sample',
      '--model',
      model,
      '--chars',
      '1000000',
    ]);
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    // The first generated characters: the bench is running its sampling loop.
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(130);
    expect(stderr).toContain('error [BENCH_INTERRUPTED]');
  }, 60_000);
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
