// The local executor of a grid: a pool of forked worker processes (pool/poolProcess.ts), each
// training one run at a time, resumed runs, then the longest first.
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { runOrder } from '../grid/eta.js';
import { logEngineLine } from '../grid/engineLine.js';
import { runLabel } from '../grid/expandGrid.js';
import { runDetail } from '../grid/whatRuns.js';
import { gridOutcome, localPlanLine } from '../grid/plan.js';
import { formatDuration } from '../grid/progress.js';
import type {
  GridExecutor,
  GridOutcome,
  GridRunOptions,
  PendingRun,
  PlannedGrid,
  RunFailure,
} from '../grid/types.js';
import { childProcessEntry, trainingExecArgv } from '../training/trainingProcess.js';
import type { FromWorker, ToWorker } from './poolMessages.js';

function spawnWorker(): ChildProcess {
  return fork(childProcessEntry('pool/poolProcess'), [], {
    // One run per process: each owns its TF.js wasm backend (no threads in Node). The threaded
    // samplers (exact, tap, mean-field, transfer-matrix) spread a large batch over worker threads
    // of their own (`threads` in --sampler-options, default 'auto': all cores above a batch size),
    // which then share the machine's cores with the other runs.
    execArgv: trainingExecArgv(),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

/**
 * The executor of a grid on `options.workers` worker processes (at most one per pending run):
 * resumed runs, then the longest first (runOrder), Ctrl-C checkpoints every active run. A worker
 * that dies fails its run only; a new worker takes the remaining runs.
 *
 * @param options pool size, run settings, progress display, stop signal.
 * @example
 * const outcome = await runGrid(expandGrid(cmd), poolExecutor(options), options);
 */
export function poolExecutor(options: GridRunOptions): GridExecutor {
  const slots = (pending: number): number => Math.max(1, Math.min(options.workers, pending));
  return {
    resumesLocalCheckpoints: true,
    slots,
    announce: async (grid, etaSeconds) => {
      const workers = slots(grid.pending.length);
      return localPlanLine(grid, etaSeconds, `${workers} worker${workers === 1 ? '' : 's'}`);
    },
    run: (grid) => runPool(grid, slots(grid.pending.length), options),
  };
}

/** What the pool keeps while its workers train the grid. */
interface Pool {
  readonly options: GridRunOptions;
  /** Runs no worker has taken yet, in runOrder's order. */
  readonly queue: PendingRun[];
  readonly active: Set<ChildProcess>;
  readonly done: PlannedGrid['done'];
  readonly failures: RunFailure[];
  /** Ctrl-C: no worker takes another run. */
  stopping: boolean;
  /** Called once the last worker has exited. */
  allExited: () => void;
}

async function runPool(
  grid: PlannedGrid,
  workers: number,
  options: GridRunOptions,
): Promise<GridOutcome> {
  const pool: Pool = {
    options,
    queue: runOrder(grid.pending),
    active: new Set(),
    done: grid.done,
    failures: [],
    stopping: options.signal?.aborted === true,
    allExited: () => undefined,
  };
  if (pool.queue.length > 0)
    await new Promise<void>((resolve) => {
      const onAbort = (): void => {
        pool.stopping = true;
        options.progress.log('stopping: workers are checkpointing their runs…');
        for (const child of pool.active) child.send?.({ type: 'stop' } satisfies ToWorker);
      };
      options.signal?.addEventListener('abort', onAbort, { once: true });
      pool.allExited = () => {
        options.signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      for (let i = 0; i < workers; i += 1) startWorker(pool);
    });
  options.progress.stop();
  if (!pool.stopping) {
    // Workers that could not start leave runs behind: report them rather than exit 0.
    for (const t of pool.queue)
      pool.failures.push({
        id: t.id,
        label: runLabel(t.config),
        code: 'BENCH_RUN_FAILED',
        message: 'not run: no worker process was left to run it',
      });
  }
  return gridOutcome(grid, pool.failures, pool.stopping);
}

/** Forks one worker that takes runs from the pool's queue until it is empty (or the pool stops). */
function startWorker(pool: Pool): void {
  const { progress } = pool.options;
  const child = spawnWorker();
  pool.active.add(child);
  let current: PendingRun | undefined;
  let ended = false;
  // The start line waits for the worker's verdict on the run's checkpoint (its 'start' message);
  // a run that ends before it gets one from step 0, so its end line has its label.
  let started = false;
  let engineLine: string | undefined;
  const begin = (startStep: number): void => {
    if (current && !started) {
      const { id, config } = current;
      progress.start(id, runLabel(config), config.steps, startStep, runDetail(config, engineLine));
    }
    started = true;
  };
  const next = (): void => {
    current = pool.stopping ? undefined : pool.queue.shift();
    started = false;
    engineLine = undefined;
    if (!current) {
      child.send({ type: 'exit' } satisfies ToWorker);
      return;
    }
    child.send({
      type: 'run',
      config: current.config,
      settings: pool.options.settings,
    } satisfies ToWorker);
  };
  child.on('message', (msg: FromWorker) => {
    if (msg.type === 'ready') next();
    else if (msg.type === 'start') {
      logEngineLine(progress, msg.engine);
      engineLine = msg.engine;
      begin(msg.startStep);
    } else if (msg.type === 'progress') progress.update(msg.progress);
    else if (msg.type === 'warn') progress.log(`warning: ${msg.message}`);
    else if (current) {
      begin(0);
      endRun(pool, current, msg);
      current = undefined;
      if (!pool.stopping) next();
    }
  });
  child.on('error', (error) => {
    // IPC to a worker that already exited: its 'exit' handler accounts for the run.
    progress.log(`warning: worker process: ${error.message}`);
  });
  child.on('exit', (code, sig) => {
    if (ended) return;
    ended = true;
    pool.active.delete(child);
    begin(0);
    workerExited(pool, current, sig ?? `code ${code}`, code !== 0 || sig !== null);
    if (pool.active.size === 0) pool.allExited();
  });
}

/** Accounts for a run its worker ended: its record, its checkpoint, or its failure. */
function endRun(
  pool: Pool,
  run: PendingRun,
  msg: Extract<FromWorker, { type: 'done' | 'stopped' | 'failed' }>,
): void {
  const { progress } = pool.options;
  if (msg.type === 'done') {
    pool.done.set(run.id, msg.record);
    progress.end(
      run.id,
      `${msg.record.metricName} ${msg.record.finalMetric.toFixed(4)} (${formatDuration(msg.record.wallSeconds)})`,
    );
  } else if (msg.type === 'stopped') {
    progress.end(run.id, 'checkpointed');
  } else {
    const label = runLabel(run.config);
    pool.failures.push({ id: run.id, label, code: msg.code, message: msg.message });
    progress.end(run.id, `failed: error [${msg.code}]: ${msg.message}`);
  }
}

/**
 * Accounts for a worker that exited: the run it held is stopped (Ctrl-C) or failed, and a
 * failed run's worker is replaced while runs remain.
 *
 * @param how the signal, or `code N`.
 * @param abnormal a signal or a non-zero exit code.
 */
function workerExited(
  pool: Pool,
  current: PendingRun | undefined,
  how: string,
  abnormal: boolean,
): void {
  const { progress } = pool.options;
  if (!current) {
    if (!pool.stopping && abnormal)
      progress.log(`warning: a worker process exited (${how}) before taking a run`);
    return;
  }
  if (pool.stopping) {
    progress.end(current.id, 'stopped (its last checkpoint is kept)');
    return;
  }
  const why = `worker process exited (${how}) during the run`;
  pool.failures.push({
    id: current.id,
    label: runLabel(current.config),
    code: 'BENCH_RUN_FAILED',
    message: why,
  });
  progress.end(current.id, `failed: error [BENCH_RUN_FAILED]: ${why}`);
  // Keep the pool at full strength for the remaining runs.
  if (pool.queue.length > 0) startWorker(pool);
}
