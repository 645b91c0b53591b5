import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { estimateGridSeconds, estimateRunSeconds } from '../grid/eta.js';
import { runId, runLabel } from '../grid/expandGrid.js';
import type { GridOutcome, GridRunOptions, RunFailure } from '../grid/types.js';
import type { FromWorker, ToWorker } from './poolMessages.js';
import { formatDuration } from '../grid/progress.js';
import { lockResults } from '../results/resultsLock.js';
import { trainingExecArgv } from '../training/trainingProcess.js';
import { readCheckpoint, readRecord } from '../results/runFiles.js';
import type { RunConfig, RunRecord } from '../types.js';

function spawnWorker(): ChildProcess {
  return fork(new URL('./poolProcess.ts', import.meta.url), [], {
    // One run per process: each owns its TF.js wasm backend (no threads in Node). A sampler may
    // use more threads of its own (`threads` in --sampler-options: exact, tap, mean-field,
    // transfer-matrix), which then share the machine's cores with the other runs.
    execArgv: trainingExecArgv(),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

/**
 * Runs a grid on a pool of worker processes (longest runs first), skipping finished runs
 * and resuming checkpointed ones. Prints the plan with a rough ETA first.
 *
 * @param configs the runs (from `expandGrid`).
 * @param options pool size, results directory, progress display, stop signal.
 * @returns finished records (this and earlier sessions), failures, and whether it was interrupted.
 * @example
 * const outcome = await runGrid(expandGrid(cmd), { workers: 2, settings, progress: plainProgress() });
 */
export async function runGrid(
  configs: readonly RunConfig[],
  options: GridRunOptions,
): Promise<GridOutcome> {
  const out = options.out ?? ((l: string) => process.stdout.write(`${l}\n`));
  const dir = options.settings.resultsDir;
  // Lock before looking at checkpoints: reading one may discard it (when unreadable), and a
  // second bench must not touch runs the first is training. A dry run only reads.
  const release = options.dryRun ? () => undefined : lockResults(dir);
  try {
    const done = new Map<string, RunRecord>();
    const pending: { config: RunConfig; id: string; doneFraction: number; startStep: number }[] =
      [];
    for (const config of configs) {
      const id = runId(config);
      const record = readRecord(dir, id);
      if (record) {
        done.set(id, record);
        continue;
      }
      const ckpt = readCheckpoint(dir, id, (m) => out(`warning: ${m}`), !options.dryRun, config);
      pending.push({
        config,
        id,
        doneFraction: ckpt ? ckpt.step / config.steps : 0,
        startStep: ckpt?.step ?? 0,
      });
    }
    const resuming = pending.filter((t) => t.startStep > 0).length;
    const workers =
      options.workers === 0 ? 0 : Math.max(1, Math.min(options.workers, pending.length));
    const eta = estimateGridSeconds(pending, Math.max(1, workers));
    options.onPlan?.({ runs: configs.length, pending: pending.length, etaSeconds: eta });
    out(
      `grid: ${configs.length} run${configs.length === 1 ? '' : 's'} — ${done.size} finished, ${resuming} to resume, ${pending.length - resuming} new; ` +
        (pending.length === 0
          ? 'nothing to train'
          : `${workers === 0 ? 'in-process (no workers)' : `${workers} worker${workers === 1 ? '' : 's'}`}; estimated time ≈ ${formatDuration(eta)} (rough, ±50 %)`),
    );
    out(`results: ${dir}`);
    if (options.dryRun) {
      for (const t of pending)
        out(
          `  ${runLabel(t.config)}  ${t.config.steps} steps${t.startStep ? ` (from ${t.startStep})` : ''}  ≈ ${formatDuration(estimateRunSeconds(t.config) * (1 - t.doneFraction))}`,
        );
      return {
        total: configs.length,
        records: configs.map((c) => done.get(runId(c))).filter((r): r is RunRecord => !!r),
        failures: [],
        interrupted: false,
      };
    }
    return await runPool(configs, pending, done, options);
  } finally {
    release();
  }
}

async function runPool(
  configs: readonly RunConfig[],
  pending: { config: RunConfig; id: string; doneFraction: number; startStep: number }[],
  done: Map<string, RunRecord>,
  options: GridRunOptions,
): Promise<GridOutcome> {
  pending.sort(
    (a, b) =>
      estimateRunSeconds(b.config) * (1 - b.doneFraction) -
      estimateRunSeconds(a.config) * (1 - a.doneFraction),
  );

  const failures: RunFailure[] = [];
  if (options.workers === 0) {
    const { runInProcess } = await import('./inProcessExecutor.js');
    await runInProcess(pending, options, done, failures);
    options.progress.stop();
    const records = configs.map((c) => done.get(runId(c))).filter((r): r is RunRecord => !!r);
    return {
      total: configs.length,
      records,
      failures,
      interrupted: options.signal?.aborted === true && records.length < configs.length,
    };
  }
  let stopping = options.signal?.aborted === true;
  const active = new Set<ChildProcess>();
  const queue = [...pending];

  await new Promise<void>((resolveAll) => {
    if (queue.length === 0) return resolveAll();
    const onAbort = (): void => {
      stopping = true;
      options.progress.log('stopping: workers are checkpointing their runs…');
      for (const child of active) child.send?.({ type: 'stop' } satisfies ToWorker);
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const startOne = (): void => {
      const child = spawnWorker();
      active.add(child);
      let current: (typeof pending)[number] | undefined;
      let ended = false;
      const next = (): void => {
        current = stopping ? undefined : queue.shift();
        if (!current) {
          child.send({ type: 'exit' } satisfies ToWorker);
          return;
        }
        options.progress.start(
          current.id,
          runLabel(current.config),
          current.config.steps,
          current.startStep,
        );
        child.send({
          type: 'run',
          config: current.config,
          settings: options.settings,
        } satisfies ToWorker);
      };
      child.on('message', (msg: FromWorker) => {
        if (msg.type === 'ready') next();
        else if (msg.type === 'progress') options.progress.update(msg.progress);
        else if (msg.type === 'warn') options.progress.log(`warning: ${msg.message}`);
        else if (
          current &&
          (msg.type === 'done' || msg.type === 'stopped' || msg.type === 'failed')
        ) {
          const c = current;
          if (msg.type === 'done') {
            done.set(c.id, msg.record);
            options.progress.end(
              c.id,
              `${msg.record.metricName} ${msg.record.finalMetric.toFixed(4)} (${formatDuration(msg.record.wallSeconds)})`,
            );
          } else if (msg.type === 'stopped') {
            options.progress.end(c.id, 'checkpointed');
          } else {
            failures.push({
              id: c.id,
              label: runLabel(c.config),
              code: msg.code,
              message: msg.message,
            });
            options.progress.end(c.id, `failed: error [${msg.code}]: ${msg.message}`);
          }
          current = undefined;
          if (!stopping) next();
        }
      });
      child.on('error', (error) => {
        // IPC to a worker that already exited: its 'exit' handler accounts for the run.
        options.progress.log(`warning: worker process: ${error.message}`);
      });
      child.on('exit', (code, sig) => {
        if (ended) return;
        ended = true;
        active.delete(child);
        if (!current && !stopping && (code !== 0 || sig !== null)) {
          options.progress.log(
            `warning: a worker process exited (${sig ?? `code ${code}`}) before taking a run`,
          );
        }
        if (current) {
          const c = current;
          if (stopping) options.progress.end(c.id, 'stopped (its last checkpoint is kept)');
          else {
            const why = `worker process exited (${sig ?? `code ${code}`}) during the run`;
            failures.push({
              id: c.id,
              label: runLabel(c.config),
              code: 'BENCH_RUN_FAILED',
              message: why,
            });
            options.progress.end(c.id, `failed: error [BENCH_RUN_FAILED]: ${why}`);
            // Keep the pool at full strength for the remaining runs.
            if (queue.length > 0) startOne();
          }
        }
        if (active.size === 0) {
          options.signal?.removeEventListener('abort', onAbort);
          resolveAll();
        }
      });
    };
    for (let i = 0; i < Math.max(1, Math.min(options.workers, pending.length)); i += 1) startOne();
  });
  options.progress.stop();
  if (!stopping) {
    // Workers that could not start leave runs behind: report them rather than exit 0.
    for (const t of queue) {
      failures.push({
        id: t.id,
        label: runLabel(t.config),
        code: 'BENCH_RUN_FAILED',
        message: 'not run: no worker process was left to run it',
      });
    }
  }
  const records = configs.map((c) => done.get(runId(c))).filter((r): r is RunRecord => !!r);
  return {
    total: configs.length,
    records,
    failures,
    interrupted: stopping && records.length < configs.length,
  };
}
