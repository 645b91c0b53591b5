import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { IsingError } from '../errors.js';
import { exactBackward, exactForward } from './kernels/exactKernel.js';
import type { ExactForwardResult, ExactProblems } from './kernels/exactKernel.js';
import { createSyncReply, readForward, waitSyncReply } from './syncReply.js';
import type { SyncReply } from './syncReply.js';

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

/** A message to a worker: one task, answered by message or (when `sync` is set) through shared memory. */
export interface WorkerRequest {
  readonly id: number;
  readonly task: WorkerTask;
  /** Set for synchronous calls: the worker answers through shared memory instead of a message. */
  readonly sync?: SyncReply;
}

/** Gradients a backward task returns (compact rows and a partial `∂L/∂J`). */
export type BackwardResult = { fields: Float64Array; couplings: Float64Array };

/** A worker's message answer to an asynchronous task. */
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
  /** Shared start-up flag: 0 starting, 1 ready, −1 failed (readable while this thread is blocked). */
  readonly ready: Int32Array;
  /** Resolves true once the worker's module loaded, false if it failed to start. */
  readonly started: Promise<boolean>;
  readonly pending: Map<number, Pending>;
}

/** Number of threads `'auto'` uses: the cores Node reports. */
export function autoThreadCount(): number {
  return Math.max(1, availableParallelism());
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
    process.emitWarning(message, { type: 'IsingWarning', code: 'ISING_THREADS_CAPPED' });
  }
  return cores;
}

/** For tests: makes the next capped request warn again. */
export function resetThreadCapWarning(): void {
  warnedThreadCap = false;
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

/** What a worker runs: the worker module, loaded through tsx's loader API when `tsxApi` is set. */
export interface WorkerEntry {
  readonly url: URL;
  /** URL or specifier of `tsx/esm/api`, for running the TypeScript source. */
  readonly tsxApi?: string;
}

// The built package ships dist/batchWorker.js next to dist/index.js. From TypeScript source
// (tests, tsx) the worker registers tsx's loader, then imports batchWorker.ts. Passing
// `execArgv: ['--import', 'tsx']` does not work for workers on Node 20 (the hooks do not reach
// the worker: ERR_UNKNOWN_FILE_EXTENSION), hence the bootstrap through tsx's API.
function workerEntry(): WorkerEntry {
  if (!import.meta.url.endsWith('.ts')) return { url: new URL('./batchWorker.js', import.meta.url) };
  let tsxApi: string;
  try {
    // The ESM entry: require.resolve would pick tsx's CJS build, whose register() fails in a
    // worker (ERR_MODULE_NOT_FOUND for dist/esm/api/esm/index.mjs) and silently left every
    // "parallel" call on the calling thread. vitest has no import.meta.resolve: fall back there.
    tsxApi = typeof import.meta.resolve === 'function' ? import.meta.resolve('tsx/esm/api') : pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href;
  } catch {
    // No tsx: the bootstrap fails at start-up and the pool falls back to the calling thread.
    tsxApi = 'tsx/esm/api';
  }
  return { url: new URL('./batchWorker.ts', import.meta.url), tsxApi };
}

/**
 * The script a worker evaluates. A failed start-up flips the shared flag to −1, so a thread
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

  /** Workers started and not disposed (for tests and diagnostics). */
  get size(): number {
    return this.workers.filter((w) => w !== undefined).length;
  }

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
    const ready = new Int32Array(new SharedArrayBuffer(4));
    let worker: Worker;
    try {
      worker = new Worker(bootstrapScript(this.entry), { eval: true, workerData: { ready } });
    } catch {
      return undefined;
    }
    let markStarted: (ok: boolean) => void = () => {};
    const started = new Promise<boolean>((resolve) => (markStarted = resolve));
    const pw: PoolWorker = { worker, ready, started, pending: new Map() };
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
      if (Atomics.load(ready, 0) === 0) Atomics.store(ready, 0, -1);
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

  /**
   * Runs `tasks` in parallel without returning to the event loop: task 0 on the calling thread,
   * task `i` on worker `i − 1`, which answers through shared memory while this thread blocks in
   * `Atomics.wait`. Workers that are not up yet are waited for (up to {@link STARTUP_TIMEOUT_MS});
   * a worker that cannot start makes the pool run everything on the calling thread.
   *
   * @throws {IsingError} ISING_WORKER_FAILED when a worker's kernel fails or does not answer.
   */
  runSync(tasks: readonly WorkerTask[]): TaskResult[] {
    const slots: ({ reply: SyncReply; k: number; stride: number; forward: boolean } | undefined)[] = [undefined];
    for (let i = 1; i < tasks.length; i++) {
      const pw = this.unavailable ? undefined : this.workerAt(i - 1);
      if (pw === undefined || !waitStarted(pw.ready)) {
        this.unavailable = true;
        slots.push(undefined);
        continue;
      }
      const task = tasks[i]!;
      const k = task.problems.spins.length;
      const stride = task.problems.stride;
      const forward = task.kind === 'forward';
      const reply = createSyncReply(forward ? k * stride + 2 * k : k * stride + stride * stride);
      // The task's arrays are this call's private copies: transfer them (they detach here).
      pw.worker.postMessage({ id: this.nextId++, task, sync: reply } satisfies WorkerRequest, transferList(task));
      slots.push({ reply, k, stride, forward });
    }
    const results: TaskResult[] = [runLocally(tasks[0]!)];
    for (let i = 1; i < tasks.length; i++) {
      const slot = slots[i];
      if (slot === undefined) {
        results.push(runLocally(tasks[i]!));
        continue;
      }
      const { reply, k, stride } = slot;
      const answer = waitSyncReply(reply, TASK_TIMEOUT_MS);
      if (!answer.ok) throw new IsingError('ISING_WORKER_FAILED', `exact-enumeration worker failed: ${answer.message}`);
      results.push(
        slot.forward
          ? readForward(reply.payload, k, stride)
          : { fields: reply.payload.slice(0, k * stride), couplings: reply.payload.slice(k * stride) },
      );
    }
    return results;
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

/** How long a synchronous call waits for a worker to start (tsx bootstraps take ~1 s). */
export const STARTUP_TIMEOUT_MS = 20_000;
/** How long a synchronous call waits for a worker's answer before giving up on it. */
const TASK_TIMEOUT_MS = 600_000;

/** Blocks until the shared start-up flag leaves 0; true when the worker is ready. */
function waitStarted(ready: Int32Array): boolean {
  if (Atomics.load(ready, 0) === 0) Atomics.wait(ready, 0, 0, STARTUP_TIMEOUT_MS);
  return Atomics.load(ready, 0) === 1;
}

let pool: ExactWorkerPool | undefined;

/** Runs each task on its own worker (task `i` on worker `i`) of `target` (default: the shared pool); results in task order. */
export function runOnWorkers(tasks: readonly WorkerTask[], target?: ExactWorkerPool): Promise<TaskResult[]> {
  const p = target ?? (pool ??= new ExactWorkerPool());
  return Promise.all(tasks.map((task, i) => p.run(task, i)));
}

/** {@link ExactWorkerPool.runSync} on `target` (default: the shared pool). */
export function runOnWorkersSync(tasks: readonly WorkerTask[], target?: ExactWorkerPool): TaskResult[] {
  const p = target ?? (pool ??= new ExactWorkerPool());
  return p.runSync(tasks);
}

/** Number of live workers in the shared pool (0 before the first parallel call). For tests and diagnostics. */
export function sharedPoolSize(): number {
  return pool?.size ?? 0;
}

/** Terminates the exact-enumeration workers; the next parallel call starts new ones. Safe to call twice. */
export async function disposeWorkerPool(): Promise<void> {
  const p = pool;
  pool = undefined;
  if (p !== undefined) await p.dispose();
}
