/*
 * Test helpers of the queue tests: `bench worker` child processes and a look into the queue.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import type { RunRecord } from '../types.js';
import { redisOptions } from './queueConnection.js';
import { parseQueueUrl } from './queueUrl.js';
import { QUEUE_NAME } from './queueJobs.js';

const cli = fileURLToPath(new URL('../cli.ts', import.meta.url));

/** A `bench …` child process with its output collected. */
export interface BenchChild {
  readonly proc: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `node cli.ts …args` as the package scripts do (tsx, source condition). */
export function spawnBench(args: readonly string[], env: NodeJS.ProcessEnv = {}): BenchChild {
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions=@boltzmann/source', cli, ...args],
    {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let text = '';
  proc.stdout?.on('data', (c: Buffer) => {
    text += c.toString();
  });
  proc.stderr?.on('data', (c: Buffer) => {
    text += c.toString();
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { proc, output: () => text, exit };
}

/** A `bench worker` on `url` with short locks and frequent progress (tests). */
export function spawnWorker(url: string, extra: readonly string[] = []): BenchChild {
  return spawnBench(
    ['worker', '--queue', url, '--concurrency', '1', '--lock-duration', '2000', ...extra],
    { BENCH_WORKER_PROGRESS_SECONDS: '0.2' },
  );
}

/** Polls `check` every 100 ms until it returns a value, or throws after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 60_000,
): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() - t0 > timeoutMs)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A BullMQ queue handle on the bench queue of `url`, for looking. */
export function benchQueue(url: string): Queue {
  const queue = new Queue(QUEUE_NAME, { connection: redisOptions(parseQueueUrl(url, {})) });
  queue.on('error', () => undefined);
  return queue;
}

/** A record without what differs between two trainings of the same run (timings). */
export function withoutTimings(
  record: RunRecord,
): Omit<RunRecord, 'startedAt' | 'finishedAt' | 'wallSeconds' | 'stepsPerSecond'> {
  const { startedAt: _a, finishedAt: _b, wallSeconds: _c, stepsPerSecond: _d, ...rest } = record;
  return rest;
}
