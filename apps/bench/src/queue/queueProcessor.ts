/*
 * BullMQ sandboxed processor of `bench worker`: BullMQ forks one process per concurrent job slot
 * (its build, dist/queueProcessor.js, or this file with the tsx loader; see queueWorker.ts) and
 * calls the default export for each job. Training is CPU-bound and synchronous between steps; in
 * its own process it cannot starve the worker's lock renewals, and each process owns its own
 * TensorFlow.js backend, as the local pool's do.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { redactSecrets, writeFileAtomic } from '@boltzmann/ising-core/internal';
import type { SamplerRegistry } from '@boltzmann/ising-core';
import type { SandboxedJob } from 'bullmq';
import { WaitingError } from 'bullmq';
import { gitCommit } from '../results/gitCommit.js';
import { runId } from '../grid/expandGrid.js';
import { formatDuration } from '../grid/progress.js';
import { createBenchRegistry } from '../samplers/registry.js';
import { runLabel } from '../grid/expandGrid.js';
import {
  checkpointPath,
  metricsPath,
  modelPath,
  readRecord,
  recordPath,
} from '../results/runFiles.js';
import { checkpointForRedis, modelForRedis, stageJobCheckpoint } from './queuedFiles.js';
import { watchParent } from '../training/parentWatchdog.js';
import { trainRun } from '../training/trainRun.js';
import type { TrainHooks } from '../training/trainRun.js';
import { formatError } from '../benchError.js';
import type { RunSettings } from '../types.js';
import { WORKER_ENV, workerSettingsFromEnv } from './queueJobs.js';
import { parseRunJob } from './runJobSchema.js';
import type { RunJobData, RunJobProgress, RunJobResult } from './queueJobs.js';

let stopRequested = false;
// SIGTERM (or Ctrl-C reaching the whole process group): checkpoint at the end of this step.
process.on('SIGTERM', () => {
  stopRequested = true;
});
process.on('SIGINT', () => {
  stopRequested = true;
});
// Without a parent, BullMQ's own uncaughtException handler (report the error to the parent, then
// exit) fails to report, and its rejection comes back as a new uncaught exception: an endless
// loop of ticks that holds the main thread (the watchdog below would kill it within half a
// second). Exit before it starts.
const exitIfOrphaned = (): void => {
  if (!process.connected) process.exit(1);
};
process.prependListener('uncaughtException', exitIfOrphaned);
process.prependListener('unhandledRejection', exitIfOrphaned);
// A dead parent also breaks stdout (the pipe BullMQ reads): not worth an exception.
process.stdout.on('error', exitIfOrphaned);
process.stderr.on('error', exitIfOrphaned);
// A parent that died before this module was loaded (its 'disconnect' is already past).
exitIfOrphaned();
// The worker process died (SIGKILL, a crash): the job will be recovered as stalled and resumed
// elsewhere, so this orphan must not keep training or writing checkpoints beside its successor.
// No stop at the end of the step as at Ctrl-C: its checkpoint, progress and hand-back all go
// through the dead parent. Exit at once, or be killed at once if the main thread is held (a
// spinning synchronous sampler: issue 38).
watchParent(() => process.exit(1), { graceMs: 0 });

const host = `${hostname()}:${process.ppid}`;
let registry: SamplerRegistry | undefined;
/** What this worker's own command line gave (`--plugin`, `--sampler-options`), never a job. */
const workerOwn = workerSettingsFromEnv(process.env);
const say = (line: string): void => void process.stdout.write(`[${host}] ${line}\n`);

/**
 * Trains the run of one job through the same `trainRun` as a local grid. It resumes from the
 * job's checkpoint (in `job.data`, or the shared folder), checkpoints every `checkpointEvery`
 * steps, and reports progress; stopped (SIGTERM, `worker.cancelAllJobs`) it checkpoints and puts
 * the job back in the queue for another worker.
 */
export default async function processRun(
  job: SandboxedJob<RunJobData, RunJobResult>,
  token?: string,
  signal?: AbortSignal,
): Promise<RunJobResult> {
  return trainJob(job, token, signal).catch((error: unknown) => {
    // BullMQ keeps only the message: carry the package's code in it (`error [CODE]: …`), as the
    // coordinator reports a local run's failure. A WaitingError is BullMQ's own signal.
    if (error instanceof WaitingError) throw error;
    throw new Error(redactSecrets(formatError(error), workerOwn.samplerOptions));
  });
}

async function trainJob(
  job: SandboxedJob<RunJobData, RunJobResult>,
  token: string | undefined,
  signal: AbortSignal | undefined,
): Promise<RunJobResult> {
  // Nothing from Redis is used before it passes the schema: not a path, not a plugin, not a
  // sampler option that says where requests go.
  const data = parseRunJob(job.data, String(job.id));
  const { config } = data;
  const id = runId(config);
  if (data.commit !== gitCommit())
    say(
      `warning: job ${job.id} was enqueued at commit ${data.commit ?? '(none)'}, this worker runs ${gitCommit() ?? '(no git)'}`,
    );
  const shared = process.env[WORKER_ENV.checkpoints];
  const dir = shared ?? join(tmpdir(), `bench-worker-${process.pid}`);
  const label = runLabel(config);
  if (shared) {
    // The run finished on a worker that died before it could report it: no second training.
    const record = readRecord(dir, id);
    if (record) {
      say(`${label}: already finished in ${dir}, reporting it`);
      return {
        record,
        ...modelOf(dir, id, data),
        ...metricsOf(dir, id),
        host,
        resumedFrom: config.steps,
      };
    }
  } else {
    stageCheckpoint(String(job.id), data, id, dir);
  }
  const where = shared ? checkpointPath(dir, id) : 'Redis';
  // Set by trainRun once the checkpoint was checked and the model built (onStart): a checkpoint
  // set aside there is warned about first, and the start line then says step 0.
  let resumedFrom = 0;
  const settings = workerRunSettings(data, dir);
  const everyMs = 1000 * Number(process.env[WORKER_ENV.progressSeconds] ?? 1);
  let last = 0;
  let pending: Promise<void> = Promise.resolve();
  registry ??= await createBenchRegistry(workerOwn.plugins);
  const result = await trainRun(config, settings, registry, hooks());
  function hooks(): TrainHooks {
    return {
      onStart(startStep) {
        resumedFrom = startStep;
        const start =
          startStep > 0
            ? `resuming ${label} from step ${startStep}/${config.steps} (checkpoint in ${where})`
            : `start ${label} (${config.steps} steps)`;
        say(`${start}, job ${job.id}`);
        pending = Promise.resolve(job.log(`${host}: ${start}`));
      },
      onProgress(p) {
        const now = Date.now();
        if (now - last < everyMs && p.step !== p.steps) return;
        last = now;
        const etaSeconds =
          p.stepsPerSecond > 0 ? (p.steps - p.step) / p.stepsPerSecond : Number.NaN;
        const progress: RunJobProgress = {
          ...p,
          etaSeconds,
          startStep: resumedFrom,
          host,
          pid: process.pid,
        };
        pending = job.updateProgress(progress);
      },
      async onCheckpoint(checkpoint) {
        if (shared) return;
        await pending;
        // `updateData` replaces the whole of job.data: the config stays, the checkpoint and the
        // metrics it kept are new (a worker that resumes the run continues both).
        const metrics = metricsOf(dir, id);
        await job.updateData({ ...data, checkpoint: checkpointForRedis(checkpoint), ...metrics });
      },
      shouldStop: () => {
        exitIfOrphaned();
        return stopRequested || signal?.aborted === true;
      },
      warn: (message) => say(`warning: ${message}`),
    };
  }
  await pending;
  if (result === 'stopped') {
    say(`${label}: stopped, checkpointed; handing it back to the queue`);
    await job.log(`${host}: stopped and checkpointed; back in the queue`);
    // Straight back to `wait` (not failed, no stall to wait for): the next free worker resumes it.
    await job.moveToWait(token);
    throw new WaitingError();
  }
  const files = await takeRunFiles(job, data, dir, !shared);
  say(
    `done ${label}: ${result.metricName} ${result.finalMetric.toFixed(4)} (${formatDuration(result.wallSeconds)})`,
  );
  return { record: result, ...files, host, resumedFrom };
}

/**
 * A finished run's model and metrics, for its job's result. From a scratch folder (checkpoints in
 * Redis) they are taken: the folder keeps nothing, and the job's data drops its checkpoint.
 */
async function takeRunFiles(
  job: SandboxedJob<RunJobData, RunJobResult>,
  data: RunJobData,
  dir: string,
  scratch: boolean,
): Promise<{ model?: unknown; metrics?: string }> {
  const id = runId(data.config);
  const files = { ...modelOf(dir, id, data), ...metricsOf(dir, id) };
  if (scratch) {
    const { checkpoint: _, metrics: __, ...rest } = data;
    await job.updateData(rest);
    rmSync(recordPath(dir, id), { force: true });
    rmSync(modelPath(dir, id), { force: true });
    rmSync(metricsPath(dir, id), { force: true });
  }
  return files;
}

/** The run's metrics file, as text for the job's result (the coordinator writes it). */
function metricsOf(dir: string, id: string): { metrics?: string } {
  const path = metricsPath(dir, id);
  return existsSync(path) ? { metrics: readFileSync(path, 'utf8') } : {};
}

function modelOf(dir: string, id: string, data: RunJobData): { model?: unknown } {
  const path = modelPath(dir, id);
  return data.settings.saveModels && existsSync(path)
    ? { model: modelForRedis(readFileSync(path)) }
    : {};
}

/**
 * Writes the checkpoint a job carries (checkpoints in Redis) into the scratch folder, once it is
 * known to belong to this run; a stale one is removed, a foreign one only reported.
 */
function stageCheckpoint(jobId: string, data: RunJobData, id: string, dir: string): void {
  mkdirSync(dir, { recursive: true });
  const problem = stageJobCheckpoint(data.checkpoint, id, data.config, dir);
  const metrics = metricsPath(dir, id);
  rmSync(metrics, { force: true });
  if (problem)
    say(
      `warning: job ${jobId} carries a checkpoint that cannot be used (${problem}); starting from step 0`,
    );
  else if (data.checkpoint !== undefined && data.metrics !== undefined) {
    // The rows up to the checkpoint: the metrics tracker keeps those of its steps and checks each.
    mkdirSync(dirname(metrics), { recursive: true });
    writeFileAtomic(metrics, data.metrics);
  }
}

/** A job's run settings: intervals from the job, everything else from this worker's own flags. */
function workerRunSettings(data: RunJobData, dir: string): RunSettings {
  return {
    checkpointEvery: data.settings.checkpointEvery,
    logEvery: data.settings.logEvery,
    ...(data.settings.saveModels ? { saveModels: true } : {}),
    resultsDir: dir,
    ...(process.env[WORKER_ENV.data] ? { dataPath: process.env[WORKER_ENV.data] } : {}),
    // The worker's own --sampler-options (endpoints, regions, credentials): merged over the
    // job's when the sampler is created, never written, like credentials.
    samplerSecrets: workerOwn.samplerOptions,
    plugins: workerOwn.plugins,
    ...(workerOwn.samplerTimeoutMs === undefined
      ? {}
      : { samplerTimeoutMs: workerOwn.samplerTimeoutMs }),
  };
}
