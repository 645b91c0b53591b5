/*
 * `bench worker --queue URL [--concurrency N] [--checkpoints DIR] [--data PATH] [--plugin PATH]…
 * [--sampler-options JSON|@FILE] [--sampler-option K=V]… [--sampler-timeout S] [--lock-duration MS]`: its flags and checks
 * here; the BullMQ worker itself (queue/queueWorker.ts) is loaded when it runs.
 */
import { cpus } from 'node:os';
import type { Command } from 'commander';
import type { CommandSpec } from './commandSpec.js';
import { parseInteger, parseSamplerTimeout, repeatable } from '../parseValues.js';
import { addSamplerOptionFlags, samplerOptionsFromFlags } from '../samplerOptionFlags.js';
import { userPath } from '../paths.js';
import { PASSWORD_ENV, parseQueueUrl, queueSecrets } from '../queue/queueUrl.js';
import type { WorkerCommand } from '../queue/queueWorker.js';

/** Declares the flags of `bench worker`. */
function defineWorkerFlags(cmd: Command): void {
  cmd
    .requiredOption(
      '--queue <url>',
      `redis://host:port/db or rediss://… (password in $${PASSWORD_ENV})`,
    )
    .option('--concurrency <n>', 'runs trained at once (default: number of cores)')
    .option('--checkpoints <dir>', 'shared checkpoints folder (default: checkpoints in Redis)')
    .option('--data <path>', 'path of Tiny Shakespeare input.txt on this machine')
    .option(
      '--plugin <path>',
      'load a sampler plugin module for the jobs that name its sampler; repeatable',
      repeatable,
      [] as string[],
    );
  addSamplerOptionFlags(
    cmd,
    "this worker's own sampler options (endpoint, region, …), merged over each job's; jobs may not set them",
  );
  cmd
    .option(
      '--sampler-timeout <s>',
      'seconds one sampler call may take before its run fails (0 = no limit) (default: 1800)',
    )
    .option(
      '--lock-duration <ms>',
      "a job's lock: a dead worker's run resumes elsewhere after about this long",
      '30000',
    );
}

/** What commander parsed for `bench worker`, checked. */
function toWorkerCommand(raw: Readonly<Record<string, unknown>>): WorkerCommand {
  const s = (k: string): string | undefined =>
    typeof raw[k] === 'string' ? (raw[k] as string) : undefined;
  return {
    queue: parseQueueUrl(s('queue')!),
    concurrency: s('concurrency')
      ? parseInteger('--concurrency', s('concurrency')!, 1, 256)
      : Math.max(1, cpus().length),
    checkpoints: s('checkpoints') ? userPath(s('checkpoints')!) : undefined,
    dataPath: s('data') ? userPath(s('data')!) : undefined,
    plugins: ((raw.plugin as string[] | undefined) ?? []).map(userPath),
    samplerOptions: samplerOptionsFromFlags(raw) ?? {},
    samplerTimeoutMs: parseSamplerTimeout(s('samplerTimeout')),
    lockDurationMs: parseInteger('--lock-duration', s('lockDuration') ?? '30000', 1000),
  };
}

/** The command `bench worker`: train the runs of grids enqueued with `--queue` until stopped. */
export const workerCommand: CommandSpec<WorkerCommand> = {
  name: 'worker',
  summary: 'train the runs of grids enqueued with --queue',
  description: 'train the runs of grids enqueued with --queue, one process per run',
  define: defineWorkerFlags,
  parse: toWorkerCommand,
  run: async (command, io) => {
    const { runBenchWorker } = await import('../queue/queueWorker.js');
    return runBenchWorker(command, io);
  },
  secrets: (command) => queueSecrets(command.queue),
};
