import { Queue } from 'bullmq';
import { estimateGridSeconds } from '../grid/eta.js';
import { etaEngineHere } from '../grid/etaKernels.js';
import { runId } from '../grid/expandGrid.js';
import { runGrid } from '../grid/executor.js';
import { gridOut } from '../grid/plan.js';
import { formatDuration } from '../grid/progress.js';
import type { GridExecutor, GridOptions, GridOutcome, PlannedGrid } from '../grid/types.js';
import { gitCommit } from '../results/gitCommit.js';
import type { RunConfig } from '../types.js';
import { checkRedis, connectionWarner, redisOptions } from './queueConnection.js';
import { followGrid } from './queueFollow.js';
import type { EnqueuedGrid, QueueGridOptions } from './queueGridTypes.js';
import { redactQueue } from './queueUrl.js';
import { QUEUE_NAME, connectedWorkers, enqueueRuns, jobIdOf, workersText } from './queueJobs.js';
import type { QueuedRun, QueuedSettings } from './queueJobs.js';

export type { QueueGridOptions } from './queueGridTypes.js';

/** The settings a job carries: no results folder, no paths, no plugins, no credentials. */
function queuedSettings(options: GridOptions): QueuedSettings {
  const s = options.settings;
  return {
    checkpointEvery: s.checkpointEvery,
    logEvery: s.logEvery,
    ...(s.saveModels ? { saveModels: true } : {}),
  };
}

/**
 * The executor of a grid on the BullMQ queue: it enqueues every run that has no record in the
 * results folder (job ids make a second enqueue a no-op), then follows the runs with the same
 * progress display as a local grid and writes each finished run's record as it arrives.
 * Interrupting it stops the following only: the runs go on on the workers.
 *
 * @param options the grid's options plus the queue. Its own lines hide the queue's password; the
 *   grid loop's lines go through `options.out` as they are (see {@link runQueuedGrid}).
 * @throws BENCH_QUEUE_UNREACHABLE, BENCH_QUEUE_AUTH when it opens.
 */
export function queueExecutor(options: QueueGridOptions): GridExecutor {
  const spec = options.queue;
  const print = gridOut(options);
  const out = (line: string): void => print(redactQueue(line, spec));
  const commit = gitCommit();
  let version = '';
  let queue: Queue | undefined;
  let enqueued: EnqueuedGrid | undefined;
  return {
    resumesLocalCheckpoints: false,
    // The ETA is one core's work; the announcement adds the connected workers' wall time.
    slots: () => 1,
    async open() {
      version = await checkRedis(spec);
    },
    async announce(grid, work) {
      queue = new Queue(QUEUE_NAME, { connection: redisOptions(spec) });
      queue.on(
        'error',
        connectionWarner(spec, (l) => options.progress.log(l)),
      );
      enqueued = await enqueueGrid(queue, grid, options, commit);
      return planLine(grid, enqueued, work, version, options);
    },
    run: (grid) => followGrid(grid, enqueued!, options, commit, out),
    async close() {
      options.progress.stop();
      await queue?.close().catch(() => undefined);
    },
  };
}

/**
 * Runs a grid on the BullMQ queue ({@link queueExecutor}): what `bench --queue` and
 * `bench collect` do.
 *
 * @param configs the runs (from `expandGrid`).
 * @param options the grid's options plus the queue.
 * @returns the records of the grid's finished runs (this and earlier sessions), its failures,
 *   and how many runs are still unfinished.
 * @throws BENCH_QUEUE_UNREACHABLE, BENCH_QUEUE_AUTH at start-up; BENCH_RESULTS_LOCKED.
 */
export function runQueuedGrid(
  configs: readonly RunConfig[],
  options: QueueGridOptions,
): Promise<GridOutcome> {
  const out = gridOut(options);
  const redacted = { ...options, out: (line: string) => out(redactQueue(line, options.queue)) };
  return runGrid(configs, queueExecutor(redacted), redacted);
}

/** Enqueues the grid's runs that have no record here (none for `collectOnly`). */
async function enqueueGrid(
  queue: Queue,
  grid: PlannedGrid,
  options: QueueGridOptions,
  commit: string | null,
): Promise<EnqueuedGrid> {
  const runs: QueuedRun[] = grid.configs.map((config) => ({
    config,
    id: runId(config),
    jobId: jobIdOf(config, commit),
  }));
  const notDone = runs.filter((r) => !grid.done.has(r.id));
  const settings = queuedSettings(options);
  const { added, existing } = options.collectOnly
    ? { added: 0, existing: notDone.length }
    : await enqueueRuns(queue, notDone, settings, commit);
  const connected = await connectedWorkers(queue);
  return { queue, runs, notDone, settings, connected, added, existing };
}

/** The first line of a queued grid's plan: what is finished, enqueued, connected, and the ETA. */
function planLine(
  grid: PlannedGrid,
  e: EnqueuedGrid,
  work: number,
  version: string,
  options: QueueGridOptions,
): string {
  const { connected, notDone, runs } = e;
  // With workers connected, also the wall time if they train the grid alone, each slot as
  // fast as this machine's ETA model, on this machine's kernels, as `work` (grid/plan.ts; other
  // machines may be faster or slower).
  const engine = etaEngineHere(options.settings.engine);
  const wall =
    connected && connected.runsAtOnce > 1 && notDone.length > 1
      ? `, ≈ ${formatDuration(estimateGridSeconds(grid.pending, connected.runsAtOnce, engine))} on the ${connected.runsAtOnce} runs the workers train at once`
      : '';
  return (
    `grid: ${runs.length} run${runs.length === 1 ? '' : 's'} — ${grid.done.size} finished here, ` +
    (options.collectOnly
      ? `${notDone.length} to collect from the queue`
      : `${e.existing} already in the queue, ${e.added} enqueued`) +
    `; queue ${QUEUE_NAME} on ${options.queue.masked} (Redis ${version}), ${connected ? workersText(connected) : '? workers'} connected; ` +
    `≈ ${formatDuration(work)} of one core's work${wall} (rough, ±50 %)`
  );
}
