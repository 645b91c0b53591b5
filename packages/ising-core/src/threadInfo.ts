import { IsingError } from './errors.js';
import { threadsUnsupported } from './internal/pool/poolThread.js';
import { autoThreadCount, capThreadCount } from './internal/pool/threadCount.js';
import { sharedPool, sharedPoolSize } from './internal/pool/sharedPool.js';

/**
 * What {@link threadInfo} reports.
 *
 * @category Runtime
 */
export interface ThreadInfo {
  /** Worker threads running now in the shared pool (0 before the first parallel call, and after `disposeExactWorkers`). */
  readonly live: number;
  /**
   * False where workers cannot run: no worker threads or Web Workers here, no `SharedArrayBuffer`
   * (a browser page that is not cross-origin isolated), or a worker failed to start (then every
   * batch runs on the calling thread).
   */
  readonly available: boolean;
  /** The threads `threads: 'auto'` uses on this machine (its cores). */
  readonly cores: number;
}

/**
 * How many worker threads ising-core runs, and whether it can: a public way to see that a
 * `threads: 2` call really runs on two threads (a bundled or browser build that cannot start its
 * workers falls back to the calling thread, and says so once with an `ISING_THREADS_UNAVAILABLE`
 * warning that gives the reason).
 *
 * @summary How many worker threads ising-core runs, and whether it can.
 * @example
 * import { createIsingBatch, disposeExactWorkers, estimateExact, threadInfo } from '@boltzmann/ising-core';
 *
 * const batch = createIsingBatch({ fields: new Float64Array(8), couplings: new Float64Array(64), spins: [8], stride: 8 });
 * estimateExact(batch, { threads: 2 });
 * console.log(threadInfo()); // e.g. { live: 2, available: true, cores: 2 }: the calling thread and one worker
 * await disposeExactWorkers();
 * @category Runtime
 */
export function threadInfo(): ThreadInfo {
  return {
    live: sharedPoolSize(),
    available: threadsUnsupported() === undefined && !sharedPool().unavailable,
    cores: autoThreadCount(),
  };
}

/**
 * Starts the workers a `threads` option needs (the calling thread counts as one, so `threads − 1`
 * workers; `'auto'` = the cores) and resolves once they are up, with {@link threadInfo}. Optional
 * in Node, where a synchronous call waits for its workers to start. In a browser call it before
 * training: a Web Worker only starts while its creator is free, so a synchronous call made while
 * a worker is still starting runs that worker's share on the calling thread.
 *
 * @summary Starts the worker threads a `threads` option needs and resolves once they are up.
 * @throws {IsingError} ISING_INVALID_ARGUMENT when `threads` is not a positive integer or `'auto'`.
 *
 * @example
 * import { disposeExactWorkers, startThreads } from '@boltzmann/ising-core';
 *
 * // In a browser, call setWorkerFactory first.
 * const { live } = await startThreads(2); // live: 2 (or 1 where workers cannot run)
 * console.log(live);
 * await disposeExactWorkers();
 * @category Runtime
 */
export async function startThreads(threads: number | 'auto' = 'auto'): Promise<ThreadInfo> {
  if (threads !== 'auto' && !(Number.isInteger(threads) && threads >= 1)) {
    throw new IsingError(
      'ISING_INVALID_ARGUMENT',
      `startThreads: threads must be a positive integer or 'auto'; got ${String(threads)}`,
    );
  }
  const count = threads === 'auto' ? autoThreadCount() : capThreadCount(threads);
  if (count > 1 && threadsUnsupported() === undefined) await sharedPool().start(count - 1);
  return threadInfo();
}
