import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { IsingError } from '../errors.js';
import { exactBackward, exactForward } from './kernels/exactKernel.js';
import type { ExactForwardResult, ExactProblems } from './kernels/exactKernel.js';

/** A unit of work for one thread. */
export type WorkerTask =
  | { readonly kind: 'forward'; readonly problems: ExactProblems }
  | {
      readonly kind: 'backward';
      readonly problems: ExactProblems;
      readonly up: Float64Array;
      readonly norm: Float64Array;
      readonly grad: Float64Array;
    };

export interface WorkerRequest {
  readonly id: number;
  readonly task: WorkerTask;
}

export type BackwardResult = { fields: Float64Array; couplings: Float64Array };

export type WorkerReply =
  | { readonly id: number; readonly ok: true; readonly forward: ExactForwardResult }
  | { readonly id: number; readonly ok: true; readonly backward: BackwardResult }
  | { readonly id: number; readonly ok: false; readonly message: string };

type TaskResult = ExactForwardResult | BackwardResult;

interface Pending {
  readonly task: WorkerTask;
  resolve(value: TaskResult): void;
  reject(error: unknown): void;
}

interface PoolWorker {
  readonly worker: Worker;
  /** Resolves true once the worker's module loaded, false if it failed to start. */
  readonly started: Promise<boolean>;
  readonly pending: Map<number, Pending>;
}

/** Number of threads `'auto'` uses: the cores Node reports. */
export function autoThreadCount(): number {
  return Math.max(1, availableParallelism());
}

function runLocally(task: WorkerTask): TaskResult {
  return task.kind === 'forward'
    ? exactForward(task.problems)
    : exactBackward(task.problems, { up: task.up, norm: task.norm }, task.grad);
}

function transferList(task: WorkerTask): ArrayBuffer[] {
  const arrays = [task.problems.couplings, task.problems.spins, task.problems.fields];
  if (task.kind === 'backward') arrays.push(task.up, task.norm, task.grad);
  return arrays.map((a) => a.buffer as ArrayBuffer);
}

/** How to start a worker: a module URL, or (from TypeScript source) a bootstrap evaluated as a script. */
export interface WorkerEntry {
  readonly url: URL;
  /** When set, the worker runs this script instead of `url` (which the script imports). */
  readonly bootstrap?: string;
}

// The built package ships dist/batchWorker.js next to dist/index.js. From TypeScript source
// (tests, tsx) the worker registers tsx's loader, then imports batchWorker.ts. Passing
// `execArgv: ['--import', 'tsx']` does not work for workers on Node 20 (the hooks do not reach
// the worker: ERR_UNKNOWN_FILE_EXTENSION), hence the bootstrap through tsx's API.
function workerEntry(): WorkerEntry {
  if (!import.meta.url.endsWith('.ts')) return { url: new URL('./batchWorker.js', import.meta.url) };
  const url = new URL('./batchWorker.ts', import.meta.url);
  let api: string;
  try {
    api = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href;
  } catch {
    // No tsx: the bootstrap fails at start-up and the pool falls back to the calling thread.
    api = 'tsx/esm/api';
  }
  const bootstrap = `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(url.href)}); });`;
  return { url, bootstrap };
}

/**
 * Lazily started `worker_threads` that run the exact kernels. Workers are unref'd while idle
 * (they never keep the process alive), ref'd while they hold a task, and reused across calls.
 * If a worker cannot start (e.g. tsx is missing when running from source) the pool marks
 * itself unavailable and every task runs on the calling thread instead.
 */
export class ExactWorkerPool {
  private readonly workers: (PoolWorker | undefined)[] = [];
  private nextId = 1;
  /** True once a worker failed to start; tasks then run on the calling thread. */
  unavailable = false;

  constructor(private readonly entry: WorkerEntry = workerEntry()) {}

  async run(task: WorkerTask, slot: number): Promise<TaskResult> {
    const pw = this.unavailable ? undefined : this.workerAt(slot);
    // Wait for start-up before posting: transferring detaches the buffers, and a worker that
    // never starts must leave them intact for the single-thread fallback.
    if (pw === undefined || !(await pw.started)) {
      this.unavailable = true;
      return runLocally(task);
    }
    const id = this.nextId++;
    return new Promise<TaskResult>((resolve, reject) => {
      pw.pending.set(id, { task, resolve, reject });
      pw.worker.ref();
      pw.worker.postMessage({ id, task } satisfies WorkerRequest, transferList(task));
    });
  }

  private workerAt(slot: number): PoolWorker | undefined {
    const existing = this.workers[slot];
    if (existing !== undefined) return existing;
    let worker: Worker;
    try {
      const { url, bootstrap } = this.entry;
      worker = bootstrap === undefined ? new Worker(url) : new Worker(bootstrap, { eval: true });
    } catch {
      return undefined;
    }
    let markStarted: (ok: boolean) => void = () => {};
    const started = new Promise<boolean>((resolve) => (markStarted = resolve));
    const pw: PoolWorker = { worker, started, pending: new Map() };
    this.workers[slot] = pw;
    // Ref'd until start-up settles so an awaiting caller is not abandoned by an idle event loop.
    worker.on('message', (msg: WorkerReply | { ready: true }) => {
      if ('ready' in msg) {
        markStarted(true);
        if (pw.pending.size === 0) worker.unref();
        return;
      }
      const pending = pw.pending.get(msg.id);
      if (pending === undefined) return;
      pw.pending.delete(msg.id);
      if (pw.pending.size === 0) worker.unref();
      if (!msg.ok) pending.reject(new IsingError('ISING_WORKER_FAILED', `exact-enumeration worker failed: ${msg.message}`));
      else pending.resolve('forward' in msg ? msg.forward : msg.backward);
    });
    const fail = (cause: unknown): void => {
      markStarted(false);
      if (this.workers[slot] === pw) this.workers[slot] = undefined;
      const pending = [...pw.pending.values()];
      pw.pending.clear();
      void worker.terminate();
      const detail = cause instanceof Error ? cause.message : String(cause);
      for (const p of pending) p.reject(new IsingError('ISING_WORKER_FAILED', `exact-enumeration worker failed: ${detail}`, { cause }));
    };
    worker.on('error', fail);
    worker.on('messageerror', fail);
    worker.on('exit', (code) => fail(new Error(`worker exited with code ${code}`)));
    return pw;
  }

  async dispose(): Promise<void> {
    const live = this.workers.splice(0).filter((w): w is PoolWorker => w !== undefined);
    await Promise.all(
      live.map(async (w) => {
        w.worker.removeAllListeners('exit');
        for (const p of w.pending.values()) p.reject(new IsingError('ISING_WORKER_FAILED', 'exact-enumeration workers were disposed during a call'));
        w.pending.clear();
        await w.worker.terminate();
      }),
    );
  }
}

let pool: ExactWorkerPool | undefined;

/** Runs each task on its own worker (task `i` on worker `i`) of `target` (default: the shared pool); results in task order. */
export function runOnWorkers(tasks: readonly WorkerTask[], target?: ExactWorkerPool): Promise<TaskResult[]> {
  const p = target ?? (pool ??= new ExactWorkerPool());
  return Promise.all(tasks.map((task, i) => p.run(task, i)));
}

/** Terminates the exact-enumeration workers; the next parallel call starts new ones. Safe to call twice. */
export async function disposeWorkerPool(): Promise<void> {
  const p = pool;
  pool = undefined;
  if (p !== undefined) await p.dispose();
}
