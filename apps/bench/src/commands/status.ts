import type { Job } from 'bullmq';
import type { CommandSpec } from './commandSpec.js';
import type { MainIo } from '../io.js';
import { formatDuration } from '../grid/progress.js';
import { checkRedis, redisOptions } from '../queue/queueConnection.js';
import { PASSWORD_ENV, parseQueueUrl, queueSecrets, redactQueue } from '../queue/queueUrl.js';
import type { QueueSpec } from '../queue/queueUrl.js';
import { connectedWorkers, progressOf, QUEUE_NAME, workersText } from '../queue/queueJobs.js';

/** A parsed `bench status` invocation. */
export interface StatusCommand {
  readonly queue: QueueSpec;
  /** Move every failed run back to the queue. */
  readonly retryFailed: boolean;
  /** Most jobs listed per state. */
  readonly limit: number;
}

/** The command `bench status --queue URL [--retry-failed] [--limit N]`. */
export const statusCommand: CommandSpec<StatusCommand> = {
  name: 'status',
  summary: 'show the runs on a queue',
  description: 'show the queued runs: waiting, active (with progress), finished, failed',
  define: (cmd) => {
    cmd
      .requiredOption(
        '--queue <url>',
        `redis://host:port/db or rediss://… (password in $${PASSWORD_ENV})`,
      )
      .option('--retry-failed', 'move every failed run back to the queue')
      .option('--limit <n>', 'most runs listed per state', '20');
  },
  parse: (options) => {
    const raw = options as { queue: string; retryFailed?: boolean; limit: string };
    const limit = Number(raw.limit);
    return {
      queue: parseQueueUrl(raw.queue),
      retryFailed: raw.retryFailed === true,
      limit: Number.isInteger(limit) && limit >= 0 ? limit : 20,
    };
  },
  run: (command, io) => runStatus(command, io),
  secrets: (command) => queueSecrets(command.queue),
};

function activeLine(job: Job): string {
  const p = progressOf(job);
  if (!p) return `  ${job.name}  starting (${job.processedBy ?? 'a worker'})`;
  const eta = Number.isFinite(p.etaSeconds) ? formatDuration(p.etaSeconds) : '?';
  const from = p.startStep > 0 ? `, resumed at ${p.startStep}` : '';
  return `  ${job.name}  step ${p.step}/${p.steps}${from} loss ${p.loss.toFixed(4)} ${p.stepsPerSecond.toFixed(1)} steps/s ETA ${eta}  on ${p.host}`;
}

/**
 * Prints the queue's runs by state (active ones with their progress and worker, failed ones
 * with their reason) and, with `--retry-failed`, moves the failed ones back to the queue.
 *
 * @returns the exit code (0).
 * @throws BENCH_QUEUE_UNREACHABLE, BENCH_QUEUE_AUTH.
 */
export async function runStatus(command: StatusCommand, io: MainIo): Promise<number> {
  const spec = command.queue;
  const out = (line: string): void => io.out(redactQueue(line, spec));
  await checkRedis(spec);
  // BullMQ is imported when the command runs, so `bench --help` does not load it.
  const { Queue } = await import('bullmq');
  const queue = new Queue(QUEUE_NAME, { connection: redisOptions(spec) });
  queue.on('error', () => undefined);
  try {
    const counts = await queue.getJobCounts(
      'waiting',
      'prioritized',
      'delayed',
      'active',
      'completed',
      'failed',
    );
    const waiting = (counts.waiting ?? 0) + (counts.prioritized ?? 0) + (counts.delayed ?? 0);
    const connected = await connectedWorkers(queue);
    out(
      `queue ${QUEUE_NAME} on ${spec.masked}: ${waiting} waiting, ${counts.active ?? 0} active, ` +
        `${counts.completed ?? 0} finished, ${counts.failed ?? 0} failed; ${connected ? workersText(connected) : '? workers'} connected`,
    );
    const list = async (state: 'active' | 'wait' | 'failed'): Promise<Job[]> =>
      command.limit === 0 ? [] : queue.getJobs([state], 0, command.limit - 1, true);
    const active = await list('active');
    if (active.length > 0) out('active:');
    for (const job of active) out(activeLine(job));
    const queued = await list('wait');
    if (queued.length > 0) out(`waiting (first ${queued.length}):`);
    for (const job of queued) out(`  ${job.name}`);
    const failed = await list('failed');
    if (failed.length > 0) out('failed:');
    for (const job of failed) out(`  ${job.name}: ${job.failedReason ?? 'failed'}`);
    const more = (counts.failed ?? 0) - failed.length;
    if (more > 0) out(`  … and ${more} more`);
    if (command.retryFailed) {
      // Every failed job, not only the listed ones.
      const all = await queue.getJobs(['failed'], 0, -1, true);
      for (const job of all) await job.retry('failed');
      out(`retried ${all.length} failed run${all.length === 1 ? '' : 's'}: they are waiting again`);
    } else if ((counts.failed ?? 0) > 0) {
      out(`\`bench status --queue ${spec.masked} --retry-failed\` runs the failed ones again`);
    }
    return 0;
  } finally {
    await queue.close().catch(() => undefined);
  }
}
