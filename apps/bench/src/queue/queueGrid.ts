import { Queue } from 'bullmq';
import { estimateGridSeconds } from '../grid/eta.js';
import { runId } from '../grid/expandGrid.js';
import { gitCommit } from '../results/gitCommit.js';
import { lockResults } from '../results/resultsLock.js';
import { formatDuration } from '../grid/progress.js';
import { readRecord } from '../results/runFiles.js';
import { runLabel } from '../grid/expandGrid.js';
import type { GridOutcome, GridRunOptions, RunFailure } from '../grid/types.js';
import type { RunConfig, RunRecord } from '../types.js';
import { abortableWaits, checkRedis, connectionWarner, redisOptions } from './queueConnection.js';
import { redactQueue } from './queueUrl.js';
import type { QueueSpec } from './queueUrl.js';
import {
  QUEUE_NAME,
  connectedWorkers,
  enqueueRuns,
  jobIdOf,
  removeFinishedJobs,
  snapshotRuns,
  workersText,
  writeJobResult,
} from './queueJobs.js';
import type { QueueSnapshot, QueuedRun, QueuedSettings } from './queueJobs.js';

/** Options of {@link runQueuedGrid}: those of a local grid plus the queue. */
export interface QueueGridOptions extends GridRunOptions {
  readonly queue: QueueSpec;
  /** Enqueue and return at once; `bench collect` writes the results later. */
  readonly detach?: boolean;
  /** `bench collect`: enqueue nothing, write what has finished, wait for nothing. */
  readonly collectOnly?: boolean;
  /** Milliseconds between two looks at the queue while following the grid. */
  readonly pollMs?: number;
  /** Remove each finished job from Redis once its record is in the results folder. */
  readonly removeCollected?: boolean;
}

/** What happened to a queued grid. */
export interface QueueGridOutcome extends GridOutcome {
  /** Runs neither finished nor failed when the command returned (detached, collected early, interrupted). */
  readonly unfinished: number;
}

/** The settings a job carries: no results folder, no paths, no plugins, no credentials. */
function queuedSettings(options: GridRunOptions): QueuedSettings {
  const s = options.settings;
  return {
    checkpointEvery: s.checkpointEvery,
    logEvery: s.logEvery,
    ...(s.saveModels ? { saveModels: true } : {}),
  };
}

/**
 * Runs a grid on the BullMQ queue: enqueues every run that has no record in the results folder
 * (job ids make a second enqueue a no-op), then follows the runs with the same progress display
 * as a local grid and writes each finished run's record as it arrives. Interrupting it stops the
 * following only: the runs go on on the workers.
 *
 * @param configs the runs (from `expandGrid`).
 * @param options the local grid's options plus the queue.
 * @returns the records of the grid's finished runs (this and earlier sessions), its failures,
 *   and how many runs are still unfinished.
 * @throws BENCH_QUEUE_UNREACHABLE, BENCH_QUEUE_AUTH at start-up.
 */
export async function runQueuedGrid(
  configs: readonly RunConfig[],
  options: QueueGridOptions,
): Promise<QueueGridOutcome> {
  const spec = options.queue;
  const out = (line: string): void =>
    (options.out ?? ((l: string) => process.stdout.write(`${l}\n`)))(redactQueue(line, spec));
  const dir = options.settings.resultsDir;
  const commit = gitCommit();
  const runs: QueuedRun[] = configs.map((config) => ({
    config,
    id: runId(config),
    jobId: jobIdOf(config, commit),
  }));
  const done = new Map<string, RunRecord>();
  for (const r of runs) {
    const record = readRecord(dir, r.id);
    if (record) done.set(r.id, record);
  }
  const version = await checkRedis(spec);
  const release = lockResults(dir);
  const queue = new Queue(QUEUE_NAME, { connection: redisOptions(spec) });
  queue.on(
    'error',
    connectionWarner(spec, (l) => options.progress.log(l)),
  );
  try {
    const notDone = runs.filter((r) => !done.has(r.id));
    const settings = queuedSettings(options);
    const { added, existing } = options.collectOnly
      ? { added: 0, existing: notDone.length }
      : await enqueueRuns(queue, notDone, settings, commit);
    const connected = await connectedWorkers(queue);
    const remaining = notDone.map((r) => ({ config: r.config, doneFraction: 0 }));
    const work = estimateGridSeconds(remaining, 1);
    // With workers connected, also the wall time if they train the grid alone, each slot as
    // fast as this machine's ETA model (other machines may be faster or slower).
    const wall =
      connected && connected.runsAtOnce > 1 && notDone.length > 1
        ? `, ≈ ${formatDuration(estimateGridSeconds(remaining, connected.runsAtOnce))} on the ${connected.runsAtOnce} runs the workers train at once`
        : '';
    out(
      `grid: ${runs.length} run${runs.length === 1 ? '' : 's'} — ${done.size} finished here, ` +
        (options.collectOnly
          ? `${notDone.length} to collect from the queue`
          : `${existing} already in the queue, ${added} enqueued`) +
        `; queue ${QUEUE_NAME} on ${spec.masked} (Redis ${version}), ${connected ? workersText(connected) : '? workers'} connected; ` +
        `≈ ${formatDuration(work)} of one core's work${wall} (rough, ±50 %)`,
    );
    out(`results: ${dir}`);
    if (connected?.workers === 0 && !options.collectOnly && notDone.length > 0)
      out(
        `no worker is connected yet: run \`bench worker --queue ${spec.masked}\` on each machine`,
      );
    const failures: RunFailure[] = [];
    if (options.detach) {
      out(
        `detached: the runs train on the workers; \`bench collect <same task and flags> --queue ${spec.masked}\` writes the results`,
      );
      return outcome(runs, done, failures, notDone.length, false);
    }
    const unfinished = await follow(queue, runs, done, failures, options, settings, commit, out);
    if (options.removeCollected) {
      const removed = await removeFinishedJobs(
        queue,
        runs.filter((r) => done.has(r.id)),
      );
      out(`removed ${removed} finished job${removed === 1 ? '' : 's'} from the queue`);
    }
    const interrupted = options.signal?.aborted === true && unfinished > 0;
    return outcome(runs, done, failures, unfinished, interrupted);
  } finally {
    options.progress.stop();
    await queue.close().catch(() => undefined);
    release();
  }
}

function outcome(
  runs: readonly QueuedRun[],
  done: ReadonlyMap<string, RunRecord>,
  failures: RunFailure[],
  unfinished: number,
  interrupted: boolean,
): QueueGridOutcome {
  const records = runs.map((r) => done.get(r.id)).filter((r): r is RunRecord => !!r);
  return { total: runs.length, records, failures, interrupted, unfinished };
}

/** What a follow keeps between two looks at the queue. */
interface Tracking {
  readonly byId: ReadonlyMap<string, QueuedRun>;
  /** Runs finished or failed (here or in the queue). */
  readonly ended: Set<string>;
  readonly done: Map<string, RunRecord>;
  readonly failures: RunFailure[];
  /** Shows a run's progress line (once). */
  readonly show: (r: QueuedRun, startStep: number) => void;
}

/**
 * Looks at the grid's jobs every `pollMs` until each has finished or failed (or once, for
 * `collectOnly`), showing active runs and writing finished ones. Jobs that vanished from Redis
 * (a server that came back empty) are enqueued again.
 *
 * @returns how many runs are neither finished nor failed.
 */
async function follow(
  queue: Queue,
  runs: readonly QueuedRun[],
  done: Map<string, RunRecord>,
  failures: RunFailure[],
  options: QueueGridOptions,
  settings: QueuedSettings,
  commit: string | null,
  out: (line: string) => void,
): Promise<number> {
  const { progress } = options;
  const shown = new Set<string>();
  const t: Tracking = {
    byId: new Map(runs.map((r) => [r.id, r])),
    ended: new Set<string>(done.keys()),
    done,
    failures,
    show: (r, startStep) => {
      if (shown.has(r.id)) return;
      shown.add(r.id);
      progress.start(r.id, runLabel(r.config), r.config.steps, startStep);
    },
  };
  // One abort listener for the whole follow, no timer left behind by any look or pause.
  const waits = abortableWaits(options.signal);
  try {
    for (;;) {
      if (options.signal?.aborted) break;
      let snapshot: QueueSnapshot | null;
      try {
        // Through an outage the commands wait for the reconnection; Ctrl-C still ends the wait.
        snapshot = await waits.race(snapshotRuns(queue, runs, t.ended));
      } catch (error) {
        // A refused command (a server that is loading its data, …): look again shortly.
        const why = error instanceof Error ? error.message : String(error);
        progress.log(
          redactQueue(
            `warning: the queue did not answer (${why.slice(0, 120)}); trying again`,
            options.queue,
          ),
        );
        await waits.pause(options.pollMs ?? 1000);
        continue;
      }
      if (snapshot === null) break;
      takeSnapshot(snapshot, t, options);
      if (snapshot.missing.length > 0 && !options.collectOnly) {
        await enqueueRuns(queue, snapshot.missing, settings, commit);
        progress.log(
          `warning: ${snapshot.missing.length} run${snapshot.missing.length === 1 ? ' was' : 's were'} missing from the queue (a Redis restarted without its data?); enqueued again`,
        );
      }
      const left = runs.length - t.ended.size;
      if (options.collectOnly) {
        if (left > 0)
          out(
            `${left} run${left === 1 ? '' : 's'} not finished yet: ${snapshot.active.size} active, ${snapshot.waiting.length} waiting, ${snapshot.missing.length} not in the queue`,
          );
        return left;
      }
      if (left === 0) return 0;
      await waits.pause(options.pollMs ?? 1000);
    }
    return runs.length - t.ended.size;
  } finally {
    waits.dispose();
  }
}

/** Writes the finished runs of a look at the queue, and shows the failed and active ones. */
function takeSnapshot(snapshot: QueueSnapshot, t: Tracking, options: QueueGridOptions): void {
  const { progress } = options;
  for (const [id, result] of snapshot.completed) {
    const r = t.byId.get(id)!;
    t.ended.add(id);
    try {
      const record = writeJobResult(options.settings.resultsDir, r, result);
      t.done.set(id, record);
      t.show(r, result.resumedFrom);
      progress.end(
        id,
        `${record.metricName} ${record.finalMetric.toFixed(4)} (${formatDuration(record.wallSeconds)}, ${result.host})`,
      );
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      t.failures.push({ id, label: runLabel(r.config), code: 'BENCH_RUN_FAILED', message });
      progress.end(id, `failed: error [BENCH_RUN_FAILED]: ${message}`);
    }
  }
  for (const [id, reason] of snapshot.failed) {
    const r = t.byId.get(id)!;
    t.ended.add(id);
    const [, code, message] = /^(?:error )?\[?([A-Z][A-Z0-9_]+)\]?: (.*)$/s.exec(reason) ?? [];
    t.failures.push({
      id,
      label: runLabel(r.config),
      code: code ?? 'BENCH_RUN_FAILED',
      message: message ?? reason,
    });
    t.show(r, 0);
    progress.end(id, `failed: ${reason} (\`bench status --retry-failed\` runs it again)`);
  }
  for (const [id, p] of snapshot.active) {
    t.show(t.byId.get(id)!, p?.startStep ?? 0);
    if (p) progress.update({ id, ...p });
  }
}
