// Following a queued grid: looks at its jobs until every run has finished or failed, writing
// each finished run's record into the results folder as it arrives.
import { runDetail } from '../grid/whatRuns.js';
import type { Queue } from 'bullmq';
import { runLabel } from '../grid/expandGrid.js';
import { gridOut, gridOutcome } from '../grid/plan.js';
import { formatDuration } from '../grid/progress.js';
import type { GridOutcome, PlannedGrid, RunFailure } from '../grid/types.js';
import type { RunRecord } from '../recordTypes.js';
import { abortableWaits } from './queueConnection.js';
import type { EnqueuedGrid, QueueGridOptions } from './queueGridTypes.js';
import { redactQueue } from './queueUrl.js';
import { enqueueRuns, removeFinishedJobs, snapshotRuns, writeJobResult } from './queueJobs.js';
import { writeJobMetrics } from './queuedMetrics.js';
import type { QueueSnapshot, QueuedRun, QueuedSettings } from './queueJobs.js';

/** Follows an enqueued grid to its end (or returns at once when detached), writing its records. */
export async function followGrid(
  grid: PlannedGrid,
  e: EnqueuedGrid,
  options: QueueGridOptions,
  commit: string | null,
  out: (line: string) => void,
): Promise<GridOutcome> {
  const masked = options.queue.masked;
  if (e.connected?.workers === 0 && !options.collectOnly && e.notDone.length > 0)
    out(`no worker is connected yet: run \`bench worker --queue ${masked}\` on each machine`);
  const failures: RunFailure[] = [];
  if (options.detach) {
    out(
      `detached: the runs train on the workers; \`bench collect <same task and flags> --queue ${masked}\` writes the results`,
    );
    return gridOutcome(grid, failures, false, e.notDone.length);
  }
  const { queue, runs } = e;
  const unfinished = await follow(
    queue,
    runs,
    grid.done,
    failures,
    options,
    e.settings,
    commit,
    out,
  );
  if (options.removeCollected) {
    const removed = await removeFinishedJobs(
      queue,
      runs.filter((r) => grid.done.has(r.id)),
    );
    out(`removed ${removed} finished job${removed === 1 ? '' : 's'} from the queue`);
  }
  const stopped = options.signal?.aborted === true && unfinished > 0;
  return gridOutcome(grid, failures, stopped, unfinished);
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
      progress.start(r.id, runLabel(r.config), r.config.steps, startStep, runDetail(r.config));
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
      await takeSnapshot(snapshot, t, options);
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
async function takeSnapshot(
  snapshot: QueueSnapshot,
  t: Tracking,
  options: QueueGridOptions,
): Promise<void> {
  const { progress } = options;
  const warn = (m: string): void => gridOut(options)(`warning: ${m}`);
  for (const [id, result] of snapshot.completed) {
    const r = t.byId.get(id)!;
    t.ended.add(id);
    try {
      const record = writeJobResult(options.settings.resultsDir, r, result);
      await writeJobMetrics(options.settings, r, record, result.metrics, warn);
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
