import { createHash } from 'node:crypto';
import type { Job, Queue } from 'bullmq';
import { writeJsonAtomic } from '../results/atomicWrite.js';
import { BenchError } from '../benchError.js';
import { canonicalJson, runId } from '../grid/expandGrid.js';
import { recordPath } from '../results/runFiles.js';
import { writeJobModel } from './queuedFiles.js';
import { earlyStopRecordProblem } from '../results/earlyStopChecks.js';
import { environmentProblem } from '../results/environment.js';
import type { Checkpoint } from '../results/runFiles.js';
import type { RunConfig, RunSettings } from '../types.js';
import type { RunRecord } from '../recordTypes.js';

/** Environment of the processor processes, set by `bench worker`. */
export const WORKER_ENV = {
  /** A shared checkpoints folder (`--checkpoints`); unset: checkpoints go to Redis. */
  checkpoints: 'BENCH_WORKER_CHECKPOINTS',
  /** Tiny Shakespeare file of this machine (`--data`). */
  data: 'BENCH_WORKER_DATA',
  /** The worker's `--plugin` modules (a JSON array of absolute paths). */
  plugins: 'BENCH_WORKER_PLUGINS',
  /** The worker's own `--sampler-options` (JSON), merged over each job's; never written. */
  samplerOptions: 'BENCH_WORKER_SAMPLER_OPTIONS',
  /** The worker's `--sampler-timeout`, in ms (unset: the attention package's default). */
  samplerTimeoutMs: 'BENCH_WORKER_SAMPLER_TIMEOUT_MS',
  /** Seconds between progress reports (tests make it short). */
  progressSeconds: 'BENCH_WORKER_PROGRESS_SECONDS',
} as const;

/** The BullMQ queue every bench grid shares (one Redis, or one Redis database, per grid farm). */
export const QUEUE_NAME = 'bench';

/**
 * The run settings a job carries: how often to checkpoint and log, whether to keep the model.
 * Never a path, a plugin or a credential: a worker takes those from its own command line
 * (`--data`, `--plugin`, `--sampler-options`) and environment.
 */
export type QueuedSettings = Pick<RunSettings, 'checkpointEvery' | 'logEvery'> & {
  readonly saveModels?: boolean;
};

/** `job.data` of a run. */
export interface RunJobData {
  readonly version: 1;
  readonly config: RunConfig;
  /** The code commit that enqueued the run (part of the job id). */
  readonly commit: string | null;
  readonly settings: QueuedSettings;
  /**
   * The run's last checkpoint, when workers checkpoint to Redis (the default): the base64 of its
   * safetensors file (queue/queuedFiles.ts), or the JSON object an earlier release carried.
   */
  readonly checkpoint?: string | Checkpoint;
  /** With `checkpoint`: the text of the run's `metrics/<id>.jsonl` at that checkpoint. */
  readonly metrics?: string;
}

/** `job.returnvalue` of a finished run. */
export interface RunJobResult {
  readonly record: RunRecord;
  /** `--save-models`: the base64 of the run's `models/<id>.safetensors` (a JSON object from an earlier release). */
  readonly model?: unknown;
  /** The text of the run's `metrics/<id>.jsonl` on the worker (absent from older workers). */
  readonly metrics?: string;
  /** Who trained it (not part of the record, so a queued record equals a local one). */
  readonly host: string;
  /** The step the last attempt started from (0, or a checkpoint's). */
  readonly resumedFrom: number;
}

/** Progress a worker reports through `job.updateProgress`. */
export interface RunJobProgress {
  readonly step: number;
  readonly steps: number;
  readonly loss: number;
  readonly stepsPerSecond: number;
  /** Seconds left at the current speed (NaN before the first step). */
  readonly etaSeconds: number;
  /** The step this attempt started from. */
  readonly startStep: number;
  readonly host: string;
  /** The process training it. */
  readonly pid: number;
}

/**
 * The job id of a run: its run id plus a hash of the task, its full config and the code commit.
 * Adding a job whose id exists is a no-op in BullMQ, so enqueueing a grid twice adds nothing, and
 * a new commit gets new jobs (its results may differ).
 *
 * @example
 * jobIdOf(config, 'a1b2…'); // 'shakespeare-softmax-T4-d8-noffn-s0-3f9a2c1b7d04.c-5e1f0a9b2c3d'
 */
export function jobIdOf(config: RunConfig, commit: string | null): string {
  const hash = createHash('sha256')
    .update(canonicalJson({ task: config.experiment, config, commit }))
    .digest('hex')
    .slice(0, 12);
  return `${runId(config)}.c-${hash}`;
}

/** A run of the grid as the queue sees it. */
export interface QueuedRun {
  readonly config: RunConfig;
  readonly id: string;
  readonly jobId: string;
}

/**
 * Adds the runs that are not in the queue yet (by job id), in the given order.
 *
 * @returns how many were added and how many were there already (in any state).
 */
export async function enqueueRuns(
  queue: Queue,
  runs: readonly QueuedRun[],
  settings: QueuedSettings,
  commit: string | null,
): Promise<{ added: number; existing: number }> {
  const states = await Promise.all(runs.map((r) => queue.getJobState(r.jobId)));
  const missing = runs.filter((_, i) => states[i] === 'unknown');
  if (missing.length > 0) {
    await queue.addBulk(
      missing.map((r) => ({
        name: r.id,
        data: { version: 1, config: r.config, commit, settings } satisfies RunJobData,
        opts: { jobId: r.jobId, attempts: 1, removeOnComplete: false, removeOnFail: false },
      })),
    );
  }
  return { added: missing.length, existing: runs.length - missing.length };
}

/** Where the runs of a grid stand in the queue. */
export interface QueueSnapshot {
  /** Runs that finished, with their results. */
  readonly completed: ReadonlyMap<string, RunJobResult>;
  readonly failed: ReadonlyMap<string, string>;
  readonly active: ReadonlyMap<string, RunJobProgress | undefined>;
  readonly waiting: readonly string[];
  /** Runs whose job is not in Redis (never enqueued, or lost with a Redis that restarted empty). */
  readonly missing: readonly QueuedRun[];
}

/** A job's progress when it is one a bench worker reported. */
export function progressOf(job: Job | undefined): RunJobProgress | undefined {
  const p = job?.progress;
  return p !== null && typeof p === 'object' && typeof (p as RunJobProgress).step === 'number'
    ? (p as RunJobProgress)
    : undefined;
}

/**
 * Looks up every run (by run id) that is not in `skip`: its job's state, and the result of a
 * finished job or the reason of a failed one.
 */
export async function snapshotRuns(
  queue: Queue,
  runs: readonly QueuedRun[],
  skip: ReadonlySet<string>,
): Promise<QueueSnapshot> {
  const toAdd = runs.filter((r) => !skip.has(r.id));
  const states = await Promise.all(toAdd.map((r) => queue.getJobState(r.jobId)));
  const completed = new Map<string, RunJobResult>();
  const failed = new Map<string, string>();
  const active = new Map<string, RunJobProgress | undefined>();
  const waiting: string[] = [];
  const missing: QueuedRun[] = [];
  await Promise.all(
    toAdd.map(async (r, i) => {
      const state = states[i];
      if (state === 'unknown') return void missing.push(r);
      if (state !== 'completed' && state !== 'failed' && state !== 'active')
        return void waiting.push(r.id);
      const job = await queue.getJob(r.jobId);
      if (!job) return void missing.push(r);
      if (state === 'completed') completed.set(r.id, job.returnvalue as RunJobResult);
      else if (state === 'failed') failed.set(r.id, job.failedReason ?? 'failed');
      else active.set(r.id, progressOf(job));
    }),
  );
  return { completed, failed, active, waiting, missing };
}

/**
 * Writes a finished job's record (and model) into the results folder, as a local run would.
 *
 * @throws BENCH_RUN_FAILED when the job's result is not the record of this run.
 */
export function writeJobResult(
  resultsDir: string,
  run: QueuedRun,
  result: RunJobResult,
): RunRecord {
  const record = result?.record;
  // A result from Redis is data: it must be the record of exactly the run this grid asked for.
  if (
    record?.id !== run.id ||
    typeof record.finalMetric !== 'number' ||
    canonicalJson(record.config) !== canonicalJson(run.config) ||
    earlyStopRecordProblem(record) !== undefined ||
    environmentProblem(record) !== undefined
  ) {
    throw new BenchError(
      'BENCH_INVALID_JOB',
      `job ${run.jobId} finished without a record of run ${run.id} (its result names another run or config, its earlyStop does not fit it, or its environment is not one)`,
    );
  }
  if (result.model !== undefined) writeJobModel(resultsDir, run.id, result.model);
  writeJsonAtomic(recordPath(resultsDir, run.id), record);
  return record;
}

/**
 * Removes the finished (completed) jobs of `runs` from Redis: their records are in the results
 * folder, so the queue no longer needs them. Jobs in any other state are left.
 *
 * @returns how many jobs were removed.
 */
export async function removeFinishedJobs(
  queue: Queue,
  runs: readonly QueuedRun[],
): Promise<number> {
  let removed = 0;
  for (const r of runs) {
    const job = await queue.getJob(r.jobId);
    if (job === undefined || (await job.getState()) !== 'completed') continue;
    await job.remove();
    removed++;
  }
  return removed;
}

/** A `bench worker`'s BullMQ name: host, pid and how many runs it trains at once. */
export const workerName = (host: string, pid: number, concurrency: number): string =>
  `${host}:${pid}:x${concurrency}`;

/**
 * The workers connected to the queue and how many runs they train at once in all (from their
 * names; a worker named otherwise counts as one run at once). Null when Redis cannot list clients.
 */
export async function connectedWorkers(
  queue: Queue,
): Promise<{ workers: number; runsAtOnce: number } | null> {
  const clients = await queue.getWorkers().catch(() => null);
  if (!clients) return null;
  let runsAtOnce = 0;
  for (const c of clients) {
    const x = /:x(\d+)$/.exec(String(c.rawname ?? ''));
    runsAtOnce += x ? Number(x[1]) : 1;
  }
  return { workers: clients.length, runsAtOnce };
}

/** `2 workers (3 runs at once)`, or `1 worker` when that says it all. */
export function workersText(c: { workers: number; runsAtOnce: number }): string {
  const base = `${c.workers} worker${c.workers === 1 ? '' : 's'}`;
  return c.workers > 0 && c.runsAtOnce !== c.workers
    ? `${base} (${c.runsAtOnce} run${c.runsAtOnce === 1 ? '' : 's'} at once)`
    : base;
}

/** What a worker's own command line gives each of its runs (see {@link WORKER_ENV}). */
export interface WorkerOwnSettings {
  readonly plugins: readonly string[];
  readonly samplerOptions: Readonly<Record<string, unknown>>;
  readonly samplerTimeoutMs?: number;
}

/**
 * Reads the worker's own `--plugin` and `--sampler-options` from the environment `bench worker`
 * gives its processor processes (set by the worker itself, never by a job).
 */
export function workerSettingsFromEnv(env: NodeJS.ProcessEnv): WorkerOwnSettings {
  const plugins = JSON.parse(env[WORKER_ENV.plugins] ?? '[]') as unknown;
  const samplerOptions = JSON.parse(env[WORKER_ENV.samplerOptions] ?? '{}') as unknown;
  const timeout = Number(env[WORKER_ENV.samplerTimeoutMs]);
  return {
    ...(env[WORKER_ENV.samplerTimeoutMs] && timeout >= 0 ? { samplerTimeoutMs: timeout } : {}),
    plugins: Array.isArray(plugins) ? plugins.filter((p) => typeof p === 'string') : [],
    samplerOptions:
      samplerOptions !== null &&
      typeof samplerOptions === 'object' &&
      !Array.isArray(samplerOptions)
        ? (samplerOptions as Record<string, unknown>)
        : {},
  };
}
