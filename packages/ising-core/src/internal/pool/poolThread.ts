// One worker behind one interface: Node's worker_threads (reached through nodeBuiltin, never a
// top-level import) or a browser Web Worker. The pool (workerPool.ts) only sees PoolThread.
import type { Worker as NodeWorker } from 'node:worker_threads';
import { nodeBuiltin } from '../../nodeBuiltin.js';
import { workerFactory } from '../../workerFactory.js';
import type { WebWorkerLike, WorkerFactory } from '../../workerFactory.js';

/** A started worker as the pool uses it. */
export interface PoolThread {
  postMessage(message: unknown, transfer: ArrayBuffer[]): void;
  /** Every message the worker posts. */
  onMessage(listener: (message: unknown) => void): void;
  /** Called when the worker fails or exits (not after a silent {@link terminate}). */
  onFailure(listener: (cause: unknown) => void): void;
  /** Node: keep the process alive while a task is out; no-op in a browser. */
  ref(): void;
  unref(): void;
  /** Stops the worker; `silently` (the default) keeps {@link onFailure} quiet, as a crash would not. */
  terminate(silently?: boolean): Promise<void>;
  /**
   * True when the worker can finish starting while its creator blocks in `Atomics.wait` (Node). A
   * browser only starts a worker once its creator returns to the event loop, so a synchronous call
   * there uses the workers that are up and runs the others' share itself.
   */
  readonly startsWhileBlocked: boolean;
}

/** What a worker runs: the worker module, loaded through tsx's loader API when `tsxApi` is set. */
export interface WorkerEntry {
  readonly url: URL;
  /** URL or specifier of `tsx/esm/api`, for running the TypeScript source. */
  readonly tsxApi?: string;
}

// The built package ships dist/batchWorker.js next to dist/index.js. From TypeScript source
// (tests, tsx) a Node worker registers tsx's loader, then imports batchWorker.ts. Passing
// `execArgv: ['--import', 'tsx']` does not work for workers on Node 20 (the hooks do not reach
// the worker: ERR_UNKNOWN_FILE_EXTENSION), hence the bootstrap through tsx's API.
export function workerEntry(): WorkerEntry {
  const fromSource = import.meta.url.endsWith('.ts');
  return threadEntry(
    new URL(fromSource ? './batchWorker.ts' : './batchWorker.js', import.meta.url),
  );
}

/**
 * How a Node worker loads the worker module at `url`: directly when it is JavaScript, through
 * tsx's loader API when it is TypeScript source (tests, tsx). Used for ising-core's own worker
 * and for the attention engine's.
 *
 * @internal Workspace plumbing, not part of the public API.
 */
export function threadEntry(url: URL): WorkerEntry {
  const module = nodeBuiltin<typeof import('node:module')>('node:module');
  const nodeUrl = nodeBuiltin<typeof import('node:url')>('node:url');
  if (!url.href.endsWith('.ts') || module === undefined || nodeUrl === undefined) return { url };
  let tsxApi: string;
  try {
    // The ESM entry: require.resolve would pick tsx's CJS build, whose register() fails in a
    // worker (ERR_MODULE_NOT_FOUND for dist/esm/api/esm/index.mjs) and silently left every
    // "parallel" call on the calling thread. vitest has no import.meta.resolve: fall back there.
    tsxApi =
      typeof import.meta.resolve === 'function'
        ? import.meta.resolve('tsx/esm/api')
        : nodeUrl.pathToFileURL(module.createRequire(import.meta.url).resolve('tsx/esm/api')).href;
  } catch {
    // No tsx: the bootstrap fails at start-up and the pool falls back to the calling thread.
    tsxApi = 'tsx/esm/api';
  }
  return { url, tsxApi };
}

/**
 * The script a Node worker evaluates. A failed start-up flips the shared flag to −1, so a thread
 * blocked in `Atomics.wait` learns of it at once (it cannot receive the 'error' event).
 */
function bootstrapScript(entry: WorkerEntry): string {
  const load =
    entry.tsxApi === undefined
      ? `import(${JSON.stringify(entry.url.href)})`
      : `import(${JSON.stringify(entry.tsxApi)}).then((m) => { m.register(); return import(${JSON.stringify(entry.url.href)}); })`;
  return (
    `${load}.catch(async (error) => { const { workerData } = await import('node:worker_threads');` +
    ` Atomics.store(workerData.ready, 0, -1); Atomics.notify(workerData.ready, 0); throw error; });`
  );
}

/**
 * Why worker threads cannot run here, or `undefined` when they can. Node needs worker_threads; a
 * browser needs Web Workers and `SharedArrayBuffer` (a cross-origin-isolated page).
 */
export function threadsUnsupported(): string | undefined {
  if (nodeBuiltin('node:worker_threads') !== undefined) return undefined;
  const g = globalThis as { Worker?: unknown; SharedArrayBuffer?: unknown };
  if (typeof g.Worker !== 'function')
    return 'this environment has no worker threads or Web Workers';
  if (typeof g.SharedArrayBuffer !== 'function') {
    return 'SharedArrayBuffer is unavailable: serve the page cross-origin isolated (COOP same-origin, COEP require-corp)';
  }
  return undefined;
}

let blockable: boolean | undefined;

/** False on a browser's main thread, where `Atomics.wait` throws: synchronous parallel calls need a thread that may block. */
export function canBlock(): boolean {
  if (blockable !== undefined) return blockable;
  try {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 1, 0);
    blockable = true;
  } catch {
    blockable = false;
  }
  return blockable;
}

/**
 * Starts one worker that reports start-up through `ready` (0 starting, 1 up, −1 failed); `undefined`
 * when it cannot start. In a browser `factory` makes the Web Worker (default: the one of
 * {@link setWorkerFactory}, for ising-core's own worker).
 */
export function spawnThread(
  entry: WorkerEntry,
  ready: Int32Array,
  data: Record<string, unknown> = {},
  factory: WorkerFactory | undefined = workerFactory(),
): PoolThread | undefined {
  const threads = nodeBuiltin<typeof import('node:worker_threads')>('node:worker_threads');
  try {
    if (threads !== undefined)
      return nodeThread(
        new threads.Worker(bootstrapScript(entry), { eval: true, workerData: { ...data, ready } }),
      );
    if (threadsUnsupported() !== undefined) return undefined;
    const Web = (
      globalThis as unknown as {
        Worker: new (url: URL, options: { type: 'module' }) => WebWorkerLike;
      }
    ).Worker;
    const web = factory?.() ?? new Web(entry.url, { type: 'module' });
    // A Web Worker has no workerData: the flag is its first message (queued until it listens).
    web.postMessage({ init: { ...data, ready } }, []);
    return webThread(web);
  } catch {
    return undefined;
  }
}

function nodeThread(worker: NodeWorker): PoolThread {
  let closing = false;
  return {
    startsWhileBlocked: true,
    postMessage: (message, transfer) => worker.postMessage(message, transfer),
    onMessage: (listener) => void worker.on('message', listener),
    onFailure(listener) {
      const fail = (cause: unknown): void => {
        if (!closing) listener(cause);
      };
      worker.on('error', fail);
      worker.on('messageerror', fail);
      worker.on('exit', (code) => fail(new Error(`worker exited with code ${code}`)));
    },
    ref: () => worker.ref(),
    unref: () => worker.unref(),
    async terminate(silently = true) {
      closing = silently;
      await worker.terminate();
    },
  };
}

function webThread(worker: WebWorkerLike): PoolThread {
  let closing = false;
  const listeners: ((cause: unknown) => void)[] = [];
  const fail = (event: { message?: string }): void => {
    if (closing) return;
    const cause = new Error(
      event.message ?? 'the Web Worker failed to load or run (see the console for its script URL)',
    );
    for (const listener of listeners) listener(cause);
  };
  worker.addEventListener('error', fail);
  worker.addEventListener('messageerror', fail);
  return {
    startsWhileBlocked: false,
    postMessage: (message, transfer) => worker.postMessage(message, transfer),
    onMessage: (listener) => worker.addEventListener('message', (event) => listener(event.data)),
    onFailure: (listener) => void listeners.push(listener),
    ref: () => {},
    unref: () => {},
    async terminate(silently = true) {
      closing = silently;
      worker.terminate();
      if (!silently) fail({ message: 'worker terminated' });
    },
  };
}
