import { randomBytes } from 'node:crypto';
import {
  closeSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { BenchError } from '../benchError.js';

/** What a lock file records: who holds it, and enough to tell that process from a reused pid. */
interface LockOwner {
  readonly pid: number;
  /** The holder's start: boot id and start tick (Linux), so a reused pid does not match. */
  readonly start?: string;
  /** A random token of the holder, so a release never removes another bench's lock. */
  readonly token?: string;
}

/** Whether process `pid` exists (EPERM: it does, as another user's). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const readProc = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

/**
 * A process's start identity on Linux: the boot id and field 22 of `/proc/<pid>/stat` (start
 * time in clock ticks since boot). Undefined where /proc is not available.
 */
export function processStart(pid: number): string | undefined {
  const stat = readProc(`/proc/${pid}/stat`);
  const boot = readProc('/proc/sys/kernel/random/boot_id')?.trim();
  if (stat === undefined || boot === undefined) return undefined;
  // The command name (field 2) may hold spaces and parentheses: fields count from the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = fields[19];
  return ticks === undefined ? undefined : `${boot}:${ticks}`;
}

function parseOwner(text: string): LockOwner | undefined {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return { pid: Number(trimmed) };
  try {
    const v = JSON.parse(trimmed) as Partial<LockOwner> | null;
    if (v !== null && typeof v === 'object' && Number.isInteger(v.pid)) {
      return {
        pid: v.pid!,
        ...(typeof v.start === 'string' ? { start: v.start } : {}),
        ...(typeof v.token === 'string' ? { token: v.token } : {}),
      };
    }
  } catch {
    // Not JSON: a corrupt lock, held by nobody.
  }
  return undefined;
}

/** True when the lock's owner is a live process that is still the one that wrote the lock. */
function held(owner: LockOwner | undefined): boolean {
  if (owner === undefined || owner.pid <= 0 || owner.pid === process.pid || !alive(owner.pid))
    return false;
  const now = processStart(owner.pid);
  if (owner.start !== undefined) return now === undefined || now === owner.start;
  // An old-style lock holds only a pid: trust it only while that pid runs Node.
  const cmdline = readProc(`/proc/${owner.pid}/cmdline`);
  return cmdline === undefined || /node|tsx|bench/.test(cmdline);
}

/**
 * Takes `<dir>/.lock` so two benches never train the same runs into one results directory.
 * The lock records the pid, the process's start identity and a random token; a lock whose
 * process is gone, or whose pid now belongs to another process (pid 1, a reused pid), is taken
 * over.
 *
 * @param dir the experiment's results directory.
 * @returns a release function (idempotent; it removes the lock only while it is still ours).
 * @throws BENCH_RESULTS_LOCKED when a live bench holds the lock; BENCH_RESULTS_INVALID when
 *   `dir` or its `.lock` is not what it must be (a file, a directory).
 */
export function lockResults(dir: string): () => void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw new BenchError(
      'BENCH_RESULTS_INVALID',
      `cannot use ${dir} as the results directory: ${(error as Error).message}`,
      { cause: error },
    );
  }
  const path = join(dir, '.lock');
  const owner: LockOwner = {
    pid: process.pid,
    token: randomBytes(12).toString('hex'),
    ...(processStart(process.pid) ? { start: processStart(process.pid)! } : {}),
  };
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, JSON.stringify(owner));
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        if (parseOwner(readProc(path) ?? '')?.token === owner.token) rmSync(path, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (!lstatSync(path).isFile()) {
        throw new BenchError(
          'BENCH_RESULTS_INVALID',
          `${path} is not a lock file (a directory or a link); remove it and rerun`,
        );
      }
      const current = parseOwner(readProc(path) ?? '');
      if (held(current)) {
        throw new BenchError(
          'BENCH_RESULTS_LOCKED',
          `another bench (pid ${current!.pid}) is using ${dir}; wait for it, stop it, or pass a different --results (if no bench is running, delete ${path})`,
        );
      }
      rmSync(path, { force: true });
    }
  }
  throw new BenchError('BENCH_RESULTS_LOCKED', `could not lock ${dir} (${path} keeps reappearing)`);
}
