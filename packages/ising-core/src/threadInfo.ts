import { nodeBuiltin } from './nodeBuiltin.js';
import { autoThreadCount, sharedPool, sharedPoolSize } from './internal/workerPool.js';

/** What {@link threadInfo} reports. */
export interface ThreadInfo {
  /** Worker threads running now in the shared pool (0 before the first parallel call, and after `disposeExactWorkers`). */
  readonly live: number;
  /** False where workers cannot run: no worker threads in this environment, or one failed to start (then every batch runs on the calling thread). */
  readonly available: boolean;
  /** The threads `threads: 'auto'` uses on this machine (its cores). */
  readonly cores: number;
}

/**
 * How many worker threads ising-core runs, and whether it can: a public way to see that a
 * `threads: 2` call really runs on two threads (a bundled or browser build falls back to the
 * calling thread, and says so once with an `ISING_THREADS_UNAVAILABLE` warning).
 *
 * @example
 * estimateExact(batch, { threads: 2 });
 * threadInfo(); // { live: 2, available: true, cores: 2 }
 */
export function threadInfo(): ThreadInfo {
  const hasThreads = nodeBuiltin('node:worker_threads') !== undefined;
  return { live: sharedPoolSize(), available: hasThreads && !sharedPool().unavailable, cores: autoThreadCount() };
}
