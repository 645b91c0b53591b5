import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockResults } from './resultsLock.js';

describe('lockResults', () => {
  it('writes the pid, refuses while a live process holds the lock, takes over a dead one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-lock-'));
    const release = lockResults(dir);
    expect(readFileSync(join(dir, '.lock'), 'utf8')).toBe(String(process.pid));
    release();
    release();
    expect(existsSync(join(dir, '.lock'))).toBe(false);

    // The parent of this test process is alive: its lock must be respected.
    writeFileSync(join(dir, '.lock'), String(process.ppid));
    expect(() => lockResults(dir)).toThrow(expect.objectContaining({ code: 'BENCH_RESULTS_LOCKED' }));
    expect(() => lockResults(dir)).toThrow(new RegExp(`another bench \\(pid ${process.ppid}\\) is using`));

    // A pid beyond the kernel's pid range belongs to no process: a stale lock.
    writeFileSync(join(dir, '.lock'), '2147483646');
    const again = lockResults(dir);
    expect(readFileSync(join(dir, '.lock'), 'utf8')).toBe(String(process.pid));
    again();
  });
});
