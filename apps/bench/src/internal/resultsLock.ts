import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { BenchError } from '../benchError.js';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes `<dir>/.lock` so two benches never train the same runs into one results directory.
 * A lock left by a process that no longer exists is taken over.
 *
 * @param dir the experiment's results directory.
 * @returns a release function (idempotent).
 * @throws BENCH_RESULTS_LOCKED when a live process holds the lock.
 */
export function lockResults(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, '.lock');
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        rmSync(path, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number.parseInt(readFileSync(path, 'utf8'), 10);
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) {
        throw new BenchError('BENCH_RESULTS_LOCKED', `another bench (pid ${pid}) is using ${dir}; wait for it, stop it, or pass a different --results`);
      }
      rmSync(path, { force: true });
    }
  }
  throw new BenchError('BENCH_RESULTS_LOCKED', `could not lock ${dir} (${path} keeps reappearing)`);
}
