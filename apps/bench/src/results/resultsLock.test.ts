import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockResults, processStart } from './resultsLock.js';

const lockOf = (dir: string): { pid: number; start?: string; token?: string } =>
  JSON.parse(readFileSync(join(dir, '.lock'), 'utf8'));
const linux = process.platform === 'linux';

describe('lockResults', () => {
  it('records pid, start and a token; refuses while a live bench holds the lock; takes over a dead one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-lock-'));
    const release = lockResults(dir);
    const mine = lockOf(dir);
    expect(mine.pid).toBe(process.pid);
    expect(mine.token).toMatch(/^[0-9a-f]{24}$/);
    if (linux) expect(mine.start).toBe(processStart(process.pid));
    release();
    release();
    expect(existsSync(join(dir, '.lock'))).toBe(false);

    // The parent of this test process (node) is alive: its lock must be respected, old style or new.
    writeFileSync(join(dir, '.lock'), String(process.ppid));
    expect(() => lockResults(dir)).toThrow(
      expect.objectContaining({ code: 'BENCH_RESULTS_LOCKED' }),
    );
    expect(() => lockResults(dir)).toThrow(
      new RegExp(`another bench \\(pid ${process.ppid}\\) is using`),
    );
    writeFileSync(
      join(dir, '.lock'),
      JSON.stringify({ pid: process.ppid, start: processStart(process.ppid), token: 'x' }),
    );
    expect(() => lockResults(dir)).toThrow(
      expect.objectContaining({ code: 'BENCH_RESULTS_LOCKED' }),
    );

    // A pid beyond the kernel's pid range belongs to no process: a stale lock.
    writeFileSync(join(dir, '.lock'), '2147483646');
    const again = lockResults(dir);
    expect(lockOf(dir).pid).toBe(process.pid);
    again();
  });

  it.runIf(linux)(
    'takes over a lock whose pid is alive but is another process (pid 1, a reused pid)',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'bench-lock-reused-'));
      // Old-style lock naming pid 1 (init, never a bench).
      writeFileSync(join(dir, '.lock'), '1');
      lockResults(dir)();
      // A live process whose start differs from the one recorded: the pid was reused.
      const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
      try {
        await new Promise((r) => setTimeout(r, 50));
        writeFileSync(
          join(dir, '.lock'),
          JSON.stringify({ pid: sleeper.pid, start: 'another-boot:123', token: 't' }),
        );
        const release = lockResults(dir);
        expect(lockOf(dir).pid).toBe(process.pid);
        // Releasing removes only our own lock: another bench's lock written meanwhile stays.
        writeFileSync(
          join(dir, '.lock'),
          JSON.stringify({ pid: sleeper.pid, start: processStart(sleeper.pid!), token: 'theirs' }),
        );
        release();
        expect(lockOf(dir).token).toBe('theirs');
        expect(() => lockResults(dir)).toThrow(
          expect.objectContaining({ code: 'BENCH_RESULTS_LOCKED' }),
        );
      } finally {
        sleeper.kill();
      }
    },
  );

  it('a .lock that is a directory, or results that are a file, get a coded error', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-lock-dir-'));
    mkdirSync(join(dir, '.lock'));
    expect(() => lockResults(dir)).toThrow(
      expect.objectContaining({ code: 'BENCH_RESULTS_INVALID' }),
    );
    const file = join(dir, 'results.txt');
    writeFileSync(file, 'x');
    expect(() => lockResults(file)).toThrow(
      expect.objectContaining({ code: 'BENCH_RESULTS_INVALID' }),
    );
  });
});
