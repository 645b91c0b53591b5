/*
 * Test helpers of the queue tests: `bench worker` child processes, the tiny grid they run, clean-up
 * and a look into the queue.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { afterAll } from 'vitest';
import { tinyShakespeareArgs } from './fixtures.js';
import type { RunRecord } from '../recordTypes.js';
import { redisOptions } from '../queue/queueConnection.js';
import { parseQueueUrl } from '../queue/queueUrl.js';
import { QUEUE_NAME } from '../queue/queueJobs.js';

const cli = fileURLToPath(new URL('../cli/bin.ts', import.meta.url));

export const STEPS = 150;
/** 6 tiny runs (2 variants × 3 seeds) of 150 steps (or `steps`), checkpoints every 20. */
export const grid = (dir: string, seeds = '0,1,2', steps = STEPS) =>
  tinyShakespeareArgs(dir, { steps, evalEvery: 50, checkpointEvery: 20, seeds });

/**
 * The Redis servers and bench children a test file starts, to push onto: after the file's last
 * test the children still running are killed and the servers stopped.
 */
export function cleanUpAfterAll(): {
  servers: { stop(): Promise<void> }[];
  children: BenchChild[];
} {
  const servers: { stop(): Promise<void> }[] = [];
  const children: BenchChild[] = [];
  afterAll(async () => {
    for (const c of children) if (c.proc.exitCode === null) c.proc.kill('SIGKILL');
    for (const s of servers) await s.stop();
  });
  return { servers, children };
}

/** An `out`/`err` pair for `main` that keeps every line it is given. */
export function capture() {
  const lines: string[] = [];
  return { lines, out: (l: string) => void lines.push(l), err: (l: string) => void lines.push(l) };
}

/** A `bench …` child process with its output collected. */
export interface BenchChild {
  readonly proc: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `node cli/bin.ts …args` as the package scripts do (tsx, source condition). */
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

/**
 * A record without what differs between two trainings of the same run: timings, and the grid's
 * worker processes in its environment (a local grid's `--workers`; a queue worker records none).
 */
export function withoutTimings(
  record: RunRecord,
): Omit<RunRecord, 'startedAt' | 'finishedAt' | 'wallSeconds' | 'stepsPerSecond' | 'timing'> {
  const { startedAt: _a, finishedAt: _b, wallSeconds: _c, stepsPerSecond: _d, ...rest } = record;
  const { timing: _e, environment, ...untimed } = rest;
  if (environment === undefined) return untimed;
  const { workers: _f, ...machine } = environment;
  return { ...untimed, environment: machine };
}

/** An HTTP server on 127.0.0.1 that records every request it gets. */
export async function trapServer(): Promise<{ url: string; hits: string[]; close(): void }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url} ${JSON.stringify(req.headers)}`);
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, hits, close: () => server.close() };
}
