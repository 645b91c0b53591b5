// Workers are worker_threads in Node and Web Workers in a browser, both behind PoolThread
// (poolThread.ts); where neither can run, every batch runs on the calling thread.
import { transferList, workerError } from './poolMessages.js';
import type {
  PoolTask,
  TaskResult,
  WorkerReply,
  WorkerRequest,
  WorkerTask,
} from './poolMessages.js';
import { canBlock, spawnThread, threadsUnsupported, workerEntry } from './poolThread.js';
import type { PoolThread, WorkerEntry } from './poolThread.js';
import { STARTUP_TIMEOUT_MS, startedWithin, waitStarted } from './poolStartup.js';
import type { StartingWorker } from './poolStartup.js';
import { IsingError } from '../../errors.js';
import { runLocally, warnFallback } from './poolFallback.js';
import { createSyncReply, readForward, waitSyncReply } from './syncReply.js';
import type { SyncReply } from './syncReply.js';

interface Pending {
  readonly task: WorkerTask;
  resolve(value: TaskResult): void;
  reject(error: unknown): void;
}

export interface PoolWorker extends StartingWorker {
  readonly thread: PoolThread;
  /** Unique per started worker: a sampler handle is only valid on the worker that made it. */
  readonly serial: number;
  readonly pending: Map<number, Pending>;
}

/**
 * Lazily started workers (worker_threads in Node, Web Workers in a browser) that run the exact
 * kernels and the threaded samplers. Node workers are unref'd while idle (they never keep the
 * process alive), ref'd while they hold a task, and reused across calls. If a worker cannot start
 * (e.g. tsx is missing when running from source) the pool marks itself unavailable and every task
 * runs on the calling thread instead.
 */
export class ExactWorkerPool {
  private readonly workers: (PoolWorker | undefined)[] = [];
  private nextId = 1;
  private nextSerial = 1;
  private unavailableFlag = false;

  /** True once a worker failed to start; tasks then run on the calling thread (said once per process by a warning). */
  get unavailable(): boolean {
    return this.unavailableFlag;
  }

  set unavailable(value: boolean) {
    if (value && !this.unavailableFlag) warnFallback();
    this.unavailableFlag = value;
  }

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
      pw.thread.ref();
      pw.thread.postMessage({ id, task } satisfies WorkerRequest, transferList(task));
    });
  }

  private workerAt(slot: number): PoolWorker | undefined {
    const existing = this.workers[slot];
    if (existing !== undefined) return existing;
    if (threadsUnsupported() !== undefined) return undefined; // the calling thread does the work
    const ready = new Int32Array(new SharedArrayBuffer(4));
    const thread = spawnThread(this.entry, ready);
    if (thread === undefined) return undefined;
    let markStarted: (ok: boolean) => void = () => {};
    const started = new Promise<boolean>((resolve) => (markStarted = resolve));
    const pw: PoolWorker = {
      thread,
      serial: this.nextSerial++,
      ready,
      started,
      pending: new Map(),
    };
    this.workers[slot] = pw;
    // Ref'd until start-up settles so an awaiting caller is not abandoned by an idle event loop.
    thread.onMessage((data) => {
      const msg = data as WorkerReply | { ready: true };
      if ('ready' in msg) {
        markStarted(true);
        if (pw.pending.size === 0) thread.unref();
        return;
      }
      const pending = pw.pending.get(msg.id);
      if (pending === undefined) return;
      pw.pending.delete(msg.id);
      if (pw.pending.size === 0) thread.unref();
      if (!msg.ok) pending.reject(workerError('exact-enumeration', msg.message));
      else pending.resolve('forward' in msg ? msg.forward : msg.backward);
    });
    thread.onFailure((cause) => {
      markStarted(false);
      if (Atomics.load(ready, 0) === 0) Atomics.store(ready, 0, -1);
      if (this.workers[slot] === pw) this.workers[slot] = undefined;
      const pending = [...pw.pending.values()];
      pw.pending.clear();
      void thread.terminate();
      const detail = cause instanceof Error ? cause.message : String(cause);
      for (const p of pending)
        p.reject(
          new IsingError('ISING_WORKER_FAILED', `exact-enumeration worker failed: ${detail}`, {
            cause,
          }),
        );
    });
    return pw;
  }

  /**
   * Starts the workers for `slots` slots and resolves, once each is up or has failed, with how
   * many are up. In a browser call it before synchronous parallel work: a Web Worker only starts
   * while its creator is free, so a synchronous call runs a still-starting worker's share itself.
   */
  async start(slots: number): Promise<number> {
    if (this.unavailable) return 0;
    const workers = Array.from({ length: slots }, (_, slot) => this.workerAt(slot));
    const ups = await Promise.all(
      workers.map((pw) => (pw === undefined ? false : startedWithin(pw, STARTUP_TIMEOUT_MS))),
    );
    if (ups.some((up) => !up)) this.unavailable = true;
    return ups.filter(Boolean).length;
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
    // Sizes are read before posting: posting transfers (detaches) the tasks' arrays.
    const jobs = tasks.slice(1).map((task, i) => {
      const k = task.problems.spins.length;
      const stride = task.problems.stride;
      return {
        slot: i,
        task,
        k,
        stride,
        replyLength: task.kind === 'forward' ? k * stride + 2 * k : k * stride + stride * stride,
      };
    });
    const { local, replies } = this.runSplitSync(
      jobs,
      () => runLocally(tasks[0]!),
      'exact-enumeration',
    );
    return [
      local,
      ...replies.map((payload, i): TaskResult => {
        const { task, k, stride } = jobs[i]!;
        if (payload === undefined) return runLocally(task);
        return task.kind === 'forward'
          ? readForward(payload, k, stride)
          : { fields: payload.slice(0, k * stride), couplings: payload.slice(k * stride) };
      }),
    ];
  }

  /**
   * Posts each job to its worker `slot`, runs `local` on the calling thread meanwhile, then blocks
   * in `Atomics.wait` for every answer (a flat payload of `replyLength` values). A job whose worker
   * cannot start gets `undefined` (serial 0): the caller runs it itself. A job with `serial` must
   * reach the worker that had that serial (the one holding its handle). A failure's message ends
   * with the job's `where`, when it has one.
   *
   * @throws {IsingError} the worker's own IsingError code when it threw one; ISING_WORKER_FAILED when
   *   a worker fails, does not answer, or (for a job with `serial`) is no longer the worker it was.
   */
  runSplitSync<L>(
    jobs: readonly {
      readonly slot: number;
      readonly task: PoolTask;
      readonly replyLength: number;
      readonly serial?: number;
      readonly where?: string;
    }[],
    local: () => L,
    what: string,
  ): { local: L; replies: (Float64Array | undefined)[]; serials: number[] } {
    for (const job of jobs) {
      if (job.serial === undefined) continue;
      const pw = this.workers[job.slot];
      if (pw === undefined || pw.serial !== job.serial || Atomics.load(pw.ready, 0) !== 1) {
        throw new IsingError(
          'ISING_WORKER_FAILED',
          `${what} worker ${job.slot} that holds this estimate has exited; estimate the batch again (or pass threads: 1)`,
        );
      }
    }
    const posted: (SyncReply | undefined)[] = [];
    const serials: number[] = [];
    // A browser's main thread may not block: the whole call runs here (said once, with why).
    const blocking = jobs.length > 0 && !this.unavailable && canBlock();
    if (jobs.length > 0 && !blocking && !this.unavailable) {
      warnFallback(
        "the calling thread may not block (a browser's main thread): call ising-core from a Web Worker for threads",
      );
    }
    for (const job of jobs) {
      const pw = blocking ? this.workerAt(job.slot) : undefined;
      const state =
        pw === undefined
          ? -1
          : pw.thread.startsWhileBlocked
            ? waitStarted(pw.ready)
            : Atomics.load(pw.ready, 0);
      if (state !== 1) {
        // −1: it cannot start, so the pool stops trying; 0: a browser worker still starting.
        if (state === -1 && blocking) this.unavailable = true;
        posted.push(undefined);
        serials.push(0);
        continue;
      }
      const reply = createSyncReply(job.replyLength);
      // The task's arrays are this call's private copies: transfer them (they detach here).
      pw!.thread.postMessage(
        { id: this.nextId++, task: job.task, sync: reply } satisfies WorkerRequest,
        transferList(job.task),
      );
      posted.push(reply);
      serials.push(pw!.serial);
    }
    const mine = local();
    const replies = posted.map((reply, i) => {
      if (reply === undefined) return undefined;
      const answer = waitSyncReply(reply, TASK_TIMEOUT_MS);
      const where = jobs[i]!.where;
      if (!answer.ok)
        throw workerError(
          what,
          where === undefined ? answer.message : `${answer.message} (${where})`,
        );
      return reply.payload;
    });
    return { local: mine, replies, serials };
  }

  /** Posts a task that needs no answer (e.g. `sampler-drop`) to worker `slot` if it is still the one with `serial`. */
  post(slot: number, task: PoolTask, serial: number): void {
    const pw = this.workers[slot];
    if (pw === undefined || pw.serial !== serial || Atomics.load(pw.ready, 0) !== 1) return;
    pw.thread.postMessage({ id: this.nextId++, task } satisfies WorkerRequest, transferList(task));
  }

  /** For tests: kills worker `slot` as a crash would (its handles are lost). */
  async terminateWorker(slot: number): Promise<void> {
    const pw = this.workers[slot];
    if (pw === undefined) return;
    // Marked dead before the 'exit' event: a synchronous caller must not post to it and wait.
    Atomics.store(pw.ready, 0, -1);
    this.workers[slot] = undefined;
    await pw.thread.terminate(false);
  }

  async dispose(): Promise<void> {
    const live = this.workers.splice(0).filter((w): w is PoolWorker => w !== undefined);
    await Promise.all(
      live.map(async (w) => {
        for (const p of w.pending.values())
          p.reject(
            new IsingError(
              'ISING_WORKER_FAILED',
              'exact-enumeration workers were disposed during a call',
            ),
          );
        w.pending.clear();
        await w.thread.terminate();
      }),
    );
  }
}

/** How long a synchronous call waits for a worker's answer before giving up on it. */
const TASK_TIMEOUT_MS = 600_000;
