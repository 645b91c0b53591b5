/**
 * The engine's worker threads: started once on the shared arena, each runs its shard of every
 * threaded pass (engineWorker.ts), with its own causal op or meeting the calling thread at the
 * op's barriers (causalPlacement.ts). The
 * calling thread blocks in `Atomics.wait` (Node, or a browser worker), with a deadline, so a
 * dead worker becomes ATTENTION_WORKER_FAILED instead of a hang.
 */
import {
  canBlock,
  spawnThread,
  threadEntry,
  threadsUnsupported,
} from '@boltzmann/ising-core/internal';
import type { ConvergenceSummary, WorkerFactory } from '@boltzmann/ising-core';
import type { PoolThread } from '@boltzmann/ising-core/internal';
import { AttentionError } from '../../core/errors.js';
import type { ResolvedTransformerConfig } from '../../core/transformerConfigTypes.js';
import type { EngineMemory } from '../arena.js';
import type { CausalPlan } from './causalPlacement.js';
import type { EngineAdamW } from '../adamW.js';
import {
  ABORT,
  ADAMW,
  ARRIVED,
  BATCH,
  CALLER_GRADS,
  COMMAND,
  DONE,
  EXIT,
  FAILED,
  GRADS,
  LENGTH,
  PASS,
  RELEASED,
  SEQ,
  STEP,
  bump,
  createControl,
  readMessage,
  slot,
  readConvergence,
  waitFor,
  writeHyper,
} from './control.js';
import type { Control } from './control.js';

/** How long a worker may go without progress before it counts as dead. */
const STALL_MS = 120_000;
const START_MS = 60_000;

/** The workers as the engine's threaded pass drives them. */
export interface EngineWorkers {
  /** Number of workers (threads − 1). */
  readonly count: number;
  /** Starts a pass on every worker. */
  issue(pass: { batch: number; length: number; step: number | undefined }): void;
  /**
   * The calling thread's gradients of the current pass are complete. A pass of two or more shards
   * then sums its gradients on every thread (parallel/optimizerTail.ts).
   */
  gradientsDone(): void;
  /** Waits until every worker's gradients of the current pass are complete. */
  awaitGradients(): void;
  /** Worker `w`'s Σ g² over its range of the summed gradients, after the last finished pass. */
  squares(w: number): number;
  /** Starts an AdamW update of every worker's range of the parameters. */
  issueAdamW(hyper: EngineAdamW): void;
  /** The convergence worker `w` recorded in the last pass (a recording sampler on the shards). */
  convergence(w: number): ConvergenceSummary | undefined;
  /** Waits until workers 1 … `busy` have reached their next causal-op barrier. */
  arrivals(busy: number): void;
  /** Lets workers 1 … `busy` past the barrier they wait at. */
  release(busy: number): void;
  /** Stops the pass on every worker (after a failure on the calling thread). */
  abort(): void;
  /** Waits until every worker has finished the pass; throws ATTENTION_WORKER_FAILED for one that failed. */
  finish(): void;
  /** Ends the workers. */
  dispose(): Promise<void>;
}

function workerUrl(): URL {
  const fromSource = import.meta.url.endsWith('.ts');
  return new URL(fromSource ? './engineWorker.ts' : './engineWorker.js', import.meta.url);
}

/**
 * Why threads cannot run here, or undefined.
 *
 * @category Engine
 */
export function engineThreadsUnsupported(): string | undefined {
  const reason = threadsUnsupported();
  if (reason !== undefined) return reason;
  if (!canBlock())
    return "the calling thread may not block (a browser page's main thread): train in a Web Worker";
  return undefined;
}

function failed(control: Control, w: number, what: string): AttentionError {
  return new AttentionError(
    'ATTENTION_WORKER_FAILED',
    `engine worker ${w} ${what}: ${readMessage(control, w) || 'no message'}`,
  );
}

let factory: WorkerFactory | undefined;

/**
 * Tells the engine how to start its Web Workers in a browser, where a bundler decides the worker
 * script's URL (`@boltzmann/attention/engine-worker`).
 *
 * Without it, a browser loads `./engineWorker.js` beside the package's module (an unbundled
 * `dist/`). Node ignores it.
 *
 * @example
 * // not run: a browser bundle's entry (Vite bundles the engine's worker)
 * import { setEngineWorkerFactory } from '@boltzmann/attention';
 * import type { WebWorkerLike } from '@boltzmann/ising-core';
 *
 * declare const Worker: new (url: URL, options: { type: 'module' }) => WebWorkerLike; // the DOM's
 * // esbuild: bundle '@boltzmann/attention/engine-worker' as its own entry point, engine-worker.js
 * setEngineWorkerFactory(() => new Worker(new URL('./engine-worker.js', import.meta.url), { type: 'module' }));
 * // With Vite: import EngineWorker from '@boltzmann/attention/engine-worker?worker';
 * // setEngineWorkerFactory(() => new EngineWorker());
 * @category Engine
 */
export function setEngineWorkerFactory(create: WorkerFactory | undefined): void {
  if (create !== undefined && typeof create !== 'function')
    throw new AttentionError(
      'ATTENTION_INVALID_ARGUMENT',
      `setEngineWorkerFactory takes a function that returns a Worker, or undefined; got ${typeof create}`,
    );
  factory = create;
}

/**
 * Waits (without blocking: a browser starts a worker only while its creator is free) until every
 * worker is up; throws ATTENTION_THREADS_UNAVAILABLE when one cannot start.
 */
async function awaitStart(ready: Int32Array[], control: Control): Promise<void> {
  const deadline = performance.now() + START_MS;
  for (const [i, flag] of ready.entries()) {
    for (;;) {
      const value = Atomics.load(flag, 0);
      if (value === 1) break;
      // −1: the worker failed its start; its message says why, else its module failed to load.
      const why = value === -1 ? readMessage(control, i + 1) || 'its module failed to load' : '';
      if (value === -1 || performance.now() > deadline)
        throw new AttentionError(
          'ATTENTION_THREADS_UNAVAILABLE',
          `engine worker ${i + 1} did not start${value === -1 ? ` (${why})` : ` in ${START_MS / 1000} s`}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
}

/** Starts workers 1 … `count` with their start-up data and waits until they are up. */
async function spawnWorkers(
  count: number,
  control: Control,
  data: (w: number) => Record<string, unknown>,
): Promise<PoolThread[]> {
  const entry = threadEntry(workerUrl());
  const ready = Array.from({ length: count }, () => new Int32Array(new SharedArrayBuffer(4)));
  const started: PoolThread[] = [];
  for (let w = 1; w <= count; w++) {
    const thread = spawnThread(entry, ready[w - 1]!, data(w), factory);
    if (thread === undefined) {
      for (const t of started) void t.terminate();
      throw new AttentionError(
        'ATTENTION_THREADS_UNAVAILABLE',
        `engine worker ${w} could not be created`,
      );
    }
    thread.unref();
    started.push(thread);
  }
  try {
    await awaitStart(ready, control);
  } catch (error) {
    for (const t of started) void t.terminate();
    throw error;
  }
  return started;
}

/** The kernels the calling thread runs (engine.kernels.backend): the workers run the same. */
export interface KernelChoice {
  readonly name: 'native' | 'wasm';
  readonly isa: string;
}

/**
 * Starts `threads − 1` workers on `memory` (a shared arena), running the causal op as `causal`
 * places it. Throws ATTENTION_THREADS_UNAVAILABLE when they cannot run here or do not start.
 */
export async function startEngineWorkers(
  memory: EngineMemory,
  config: ResolvedTransformerConfig,
  threads: number,
  causal: CausalPlan = { placement: 'calling-thread' },
  backend: KernelChoice = { name: 'wasm', isa: 'f32x4' },
): Promise<EngineWorkers> {
  const reason = engineThreadsUnsupported();
  if (reason !== undefined) throw new AttentionError('ATTENTION_THREADS_UNAVAILABLE', reason);
  const control = createControl();
  const { ints } = control;
  const count = threads - 1;
  const started = await spawnWorkers(count, control, (w) => ({
    memory,
    control,
    config,
    worker: w,
    threads,
    causal,
    backend,
  }));
  // The current command's SEQ, and each worker's counters at the start of the current pass.
  let seq = 0;
  const arrived = new Array<number>(count + 1).fill(0);
  const done = new Array<number>(count + 1).fill(0);
  const deadline = (w: number, what: string) => {
    const until = performance.now() + STALL_MS;
    return () => {
      if (Atomics.load(ints, slot(w, FAILED)) !== 0) throw failed(control, w, 'failed');
      if (performance.now() > until)
        throw failed(control, w, `made no progress in ${STALL_MS / 1000} s ${what}`);
    };
  };
  return {
    count,
    issue({ batch, length, step }) {
      Atomics.store(ints, ABORT, 0);
      Atomics.store(ints, BATCH, batch);
      Atomics.store(ints, LENGTH, length);
      Atomics.store(ints, STEP, step ?? -1);
      Atomics.store(ints, COMMAND, PASS);
      seq = bump(ints, SEQ);
    },
    gradientsDone() {
      Atomics.store(ints, CALLER_GRADS, seq);
      Atomics.notify(ints, CALLER_GRADS);
    },
    awaitGradients() {
      for (let w = 1; w <= count; w++)
        waitFor(ints, slot(w, GRADS), seq, deadline(w, 'before the gradient sum'));
    },
    squares: (w) => control.floats[w]!,
    convergence: (w) => readConvergence(control, w),
    issueAdamW(hyper) {
      writeHyper(control, hyper);
      Atomics.store(ints, COMMAND, ADAMW);
      seq = bump(ints, SEQ);
    },
    arrivals(busy) {
      for (let w = 1; w <= busy; w++) {
        arrived[w] = arrived[w]! + 1;
        waitFor(ints, slot(w, ARRIVED), arrived[w]!, deadline(w, 'before a barrier'));
      }
    },
    release(busy) {
      for (let w = 1; w <= busy; w++) bump(ints, slot(w, RELEASED));
    },
    abort() {
      Atomics.store(ints, ABORT, 1);
      for (let w = 1; w <= count; w++) bump(ints, slot(w, RELEASED));
      // Wake the workers waiting for a thread's gradients, so that they see the abort at once.
      Atomics.notify(ints, CALLER_GRADS);
      for (let w = 1; w <= count; w++) Atomics.notify(ints, slot(w, GRADS));
    },
    finish() {
      let error: AttentionError | undefined;
      for (let w = 1; w <= count; w++) {
        done[w] = done[w]! + 1;
        try {
          waitFor(ints, slot(w, DONE), done[w]!, deadline(w, 'finishing a pass'));
        } catch (e) {
          error ??= e as AttentionError;
        }
        // Barriers a failed or aborted worker skipped: its counters run on from where it stopped.
        arrived[w] = Atomics.load(ints, slot(w, ARRIVED));
        Atomics.store(ints, slot(w, RELEASED), arrived[w]!);
        if (Atomics.load(ints, slot(w, FAILED)) !== 0) {
          error ??= failed(control, w, 'failed');
          Atomics.store(ints, slot(w, FAILED), 0);
        }
      }
      if (error !== undefined) throw error;
    },
    async dispose() {
      Atomics.store(ints, COMMAND, EXIT);
      bump(ints, SEQ);
      await Promise.all(started.map((t) => t.terminate()));
    },
  };
}
