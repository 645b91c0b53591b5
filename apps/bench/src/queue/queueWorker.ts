import { hostname } from 'node:os';
import { echo } from '@boltzmann/ising-core/internal';
import { Worker } from 'bullmq';
import type { Job, JobJsonRaw } from 'bullmq';
import { runLabel } from '../grid/expandGrid.js';
import { formatError } from '../benchError.js';
import { createBenchRegistry } from '../samplers/registry.js';
import { MALFORMED_JOB_KEY, jobOptionsProblem } from './runJobSchema.js';
import { childProcessEntry, trainingExecArgv } from '../training/trainingProcess.js';
import type { MainIo } from '../io.js';
import { formatDuration } from '../grid/progress.js';
import { checkRedis, connectionWarner, redisOptions } from './queueConnection.js';
import { PASSWORD_ENV, redactQueue } from './queueUrl.js';
import type { QueueSpec } from './queueUrl.js';
import { QUEUE_NAME, WORKER_ENV, workerName } from './queueJobs.js';
import type { RunJobData, RunJobResult } from './queueJobs.js';

/** A parsed `bench worker` invocation (its flags: commands/worker.ts). */
export interface WorkerCommand {
  readonly queue: QueueSpec;
  /** Runs trained at once, each in its own process. */
  readonly concurrency: number;
  /** Shared checkpoints folder; undefined: checkpoints go to Redis. */
  readonly checkpoints: string | undefined;
  readonly dataPath: string | undefined;
  /** Sampler plugin modules this worker loads (a job can only name a sampler, never a module). */
  readonly plugins: readonly string[];
  /**
   * This worker's own sampler options (endpoint, region, dry-run folder, credentials…): merged
   * over each job's options when its sampler is created, never written. A job may not set them.
   */
  readonly samplerOptions: Readonly<Record<string, unknown>>;
  /** `--sampler-timeout` in ms (0 = none); undefined: the attention package's default. */
  readonly samplerTimeoutMs: number | undefined;
  /** How long a job's lock lives without renewal: a dead worker's run is picked up after about this long. */
  readonly lockDurationMs: number;
}

/**
 * Runs a BullMQ worker until SIGTERM/SIGINT (`io.signal`): each job is trained in a sandboxed
 * process. On the signal the running jobs checkpoint and go back to the queue, then it exits 0.
 *
 * @returns the exit code.
 * @throws BENCH_QUEUE_UNREACHABLE, BENCH_QUEUE_AUTH when Redis is not there at start-up.
 */
export async function runBenchWorker(command: WorkerCommand, io: MainIo): Promise<number> {
  const spec = command.queue;
  const log = (line: string): void => io.out(redactQueue(line, spec));
  const version = await checkRedis(spec);
  // The processors need no Redis connection (BullMQ relays progress and data over IPC): they do
  // not get the password.
  const env: Record<string, string | undefined> = { ...process.env };
  delete env[PASSWORD_ENV];
  if (command.checkpoints) env[WORKER_ENV.checkpoints] = command.checkpoints;
  if (command.dataPath) env[WORKER_ENV.data] = command.dataPath;
  env[WORKER_ENV.plugins] = JSON.stringify(command.plugins);
  env[WORKER_ENV.samplerOptions] = JSON.stringify(command.samplerOptions);
  if (command.samplerTimeoutMs !== undefined)
    env[WORKER_ENV.samplerTimeoutMs] = String(command.samplerTimeoutMs);
  // The worker's plugins load here first, so a broken one stops the worker, not each job.
  await createBenchRegistry(command.plugins);
  const name = workerName(hostname(), process.pid, command.concurrency);
  const worker = new BenchQueueWorker(QUEUE_NAME, childProcessEntry('queue/queueProcessor'), {
    name,
    connection: redisOptions(spec),
    concurrency: command.concurrency,
    useWorkerThreads: false,
    workerForkOptions: { execArgv: trainingExecArgv(), env },
    lockDuration: command.lockDurationMs,
    stalledInterval: command.lockDurationMs,
    // A run may outlive a few dead workers before it counts as failed.
    maxStalledCount: 3,
    autorun: false,
  });
  worker.on('error', connectionWarner(spec, log));
  worker.on('stalled', (jobId) =>
    log(
      `job ${echo(jobId, 200)} stalled (its worker stopped answering); it goes back to the queue`,
    ),
  );
  worker.on('completed', (job, result) => {
    const r = result.record;
    log(
      `completed ${runLabel(r.config)}: ${r.metricName} ${r.finalMetric.toFixed(4)} (${formatDuration(r.wallSeconds)})`,
    );
    void job;
  });
  worker.on('failed', (job, error) => {
    if (job) log(`failed ${echo(job.name, 200)}: ${error.message}`);
  });
  log(
    `bench worker ${name}: queue ${QUEUE_NAME} on ${spec.masked} (Redis ${version}), ` +
      `${command.concurrency} at once, checkpoints in ${command.checkpoints ?? 'Redis'}`,
  );
  const stopped = new Promise<void>((resolve) => {
    const stop = (): void => {
      log('stopping: running jobs checkpoint and go back to the queue…');
      worker.cancelAllJobs('the worker is stopping');
      resolve();
    };
    if (io.signal?.aborted) stop();
    else io.signal?.addEventListener('abort', stop, { once: true });
  });
  const running = worker.run().catch((error: unknown) => log(formatError(error)));
  await stopped;
  // Running jobs checkpoint within a step; handing them back needs Redis. Without an answer the
  // worker leaves anyway: its runs come back as stalled, from their last stored checkpoint.
  const closed = await settlesWithin(worker.close(), CLOSE_GRACE_MS);
  if (!closed) {
    log(
      `Redis did not answer within ${CLOSE_GRACE_MS / 1000} s: leaving now; the running jobs are recovered as stalled`,
    );
    await settlesWithin(worker.close(true), 2000);
    // ioredis keeps reconnecting to the absent server: do not let that hold the process.
    setTimeout(() => process.exit(0), 500).unref();
    return 0;
  }
  await settlesWithin(running, 2000);
  log('stopped');
  return 0;
}

/**
 * A BullMQ worker that turns a job Redis holds in a form no bench job has (data that is not JSON,
 * options that are not a bench job's) into a job the processor fails with BENCH_INVALID_JOB,
 * without its options. (BullMQ parses and acts on them inside its fetch loop, after the job was
 * moved to active: it would stay active until it stalled, again and again, and its errors would
 * read as a lost connection.)
 */
class BenchQueueWorker extends Worker<RunJobData, RunJobResult> {
  protected override createJob(raw: JobJsonRaw, jobId: string): Job<RunJobData, RunJobResult> {
    const malformed = (why: string): Job<RunJobData, RunJobResult> => {
      const data = JSON.stringify({ [MALFORMED_JOB_KEY]: why });
      return super.createJob({ ...raw, data, opts: '{}', progress: '0' }, jobId);
    };
    const optionsProblem = jobOptionsProblem(raw.opts);
    if (optionsProblem !== undefined) return malformed(optionsProblem);
    try {
      return super.createJob(raw, jobId);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      return malformed(`its data in Redis is not valid JSON (${echo(why, 80)})`);
    }
  }
}

/** How long a stopping worker waits for its jobs to be handed back. */
const CLOSE_GRACE_MS = 10_000;

/** Whether `promise` settles within `ms` (it is not cancelled otherwise). */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([
      promise.then(
        () => true,
        () => true,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
