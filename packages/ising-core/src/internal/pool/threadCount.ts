// How many threads: the cores of this machine, and the cap on a request.
import { emitWarning, nodeBuiltin } from '../../nodeBuiltin.js';

/** Number of threads `'auto'` uses: the cores Node reports (the browser's `hardwareConcurrency` elsewhere). */
export function autoThreadCount(): number {
  const os = nodeBuiltin<typeof import('node:os')>('node:os');
  const cores =
    os?.availableParallelism() ??
    (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator
      ?.hardwareConcurrency ??
    1;
  return Math.max(1, cores);
}

let warnedThreadCap = false;

/**
 * `min(requested, cores)` for a validated positive integer: more threads than cores only add
 * start-up time and memory (`threads: 1e6` once started 586 workers, 5.5 GiB, on 2 cores). Warns
 * once per process, through `process.emitWarning` (code `ISING_THREADS_CAPPED`), when it lowers a request.
 */
export function capThreadCount(requested: number): number {
  const cores = autoThreadCount();
  if (requested <= cores) return requested;
  if (!warnedThreadCap) {
    warnedThreadCap = true;
    const message = `threads: ${requested} is more than the ${cores} cores available; using ${cores} threads`;
    emitWarning(message, 'ISING_THREADS_CAPPED');
  }
  return cores;
}

/** For tests: makes the next capped request warn again. */
export function resetThreadCapWarning(): void {
  warnedThreadCap = false;
}
