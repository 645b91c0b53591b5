import { IsingError } from './errors.js';

/**
 * The part of a browser `Worker` the pool uses (structural, so this package needs no DOM types).
 * @category Runtime
 */
export interface WebWorkerLike {
  postMessage(message: unknown, transfer: Transferable[]): void;
  addEventListener(
    type: 'message' | 'error' | 'messageerror',
    listener: (event: { data?: unknown; message?: string }) => void,
  ): void;
  terminate(): void;
}

/** What a transfer list may hold here: the arrays' buffers. */
type Transferable = ArrayBuffer;

/**
 * Makes one Web Worker that runs `@boltzmann/ising-core/worker`.
 *
 * @category Runtime
 */
export type WorkerFactory = () => WebWorkerLike;

let factory: WorkerFactory | undefined;

/**
 * Tells ising-core how to start its Web Workers in a browser, where a bundler decides the worker
 * script's URL.
 *
 * Without it, the pool tries `./batchWorker.js` beside the package's own module (an unbundled
 * `dist/`, as a CDN serves it) and falls back to the calling thread, with one
 * `ISING_THREADS_UNAVAILABLE` warning, when that fails. Node ignores it (worker_threads find their
 * file). Pass `undefined` to restore the default.
 *
 * Threads in a browser also need `SharedArrayBuffer` (a cross-origin-isolated page: COOP
 * `same-origin` and COEP `require-corp` headers) and a calling thread that may block, i.e. a Web
 * Worker, not the page's main thread.
 *
 * @throws {IsingError} ISING_INVALID_ARGUMENT when `create` is neither a function nor undefined.
 *
 * @example
 * // not run: a browser bundle's entry (esbuild bundles '@boltzmann/ising-core/worker' as ising-worker.js)
 * import { setWorkerFactory } from '@boltzmann/ising-core';
 * import type { WebWorkerLike } from '@boltzmann/ising-core';
 *
 * declare const Worker: new (url: URL, options: { type: 'module' }) => WebWorkerLike; // the DOM's
 * setWorkerFactory(() => new Worker(new URL('./ising-worker.js', import.meta.url), { type: 'module' }));
 * // With Vite: import IsingWorker from '@boltzmann/ising-core/worker?worker';
 * // setWorkerFactory(() => new IsingWorker());
 * @category Runtime
 */
export function setWorkerFactory(create: WorkerFactory | undefined): void {
  if (create !== undefined && typeof create !== 'function') {
    throw new IsingError(
      'ISING_INVALID_ARGUMENT',
      `setWorkerFactory takes a function that returns a Worker, or undefined; got ${typeof create}`,
    );
  }
  factory = create;
}

/** The factory set by {@link setWorkerFactory}, if any. */
export function workerFactory(): WorkerFactory | undefined {
  return factory;
}
