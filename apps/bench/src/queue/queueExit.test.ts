/*
 * A queued grid and `bench collect` end by themselves once their work is done: following the queue
 * leaves no timer and no abort listener behind, however many times it looked (issue 24).
 */
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { getEventListeners } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandGrid, parseBenchArgs } from '../index.js';
import { progressRecorder } from '../testing/fixtures.js';
import { runQueuedGrid } from './queueGrid.js';
import { parseQueueUrl } from './queueUrl.js';
import { testRedis } from './redisServer.js';
import type { BenchChild } from '../testing/queueTestkit.js';
import {
  benchQueue,
  cleanUpAfterAll,
  grid,
  spawnBench,
  spawnWorker,
  waitFor,
} from '../testing/queueTestkit.js';

const { servers, children } = cleanUpAfterAll();

/** One tiny run of 20 steps. */
const oneRun = (dir: string): string[] => [
  ...grid(dir, '0'),
  '--variants',
  'softmax',
  '--steps',
  '20',
  '--eval-every',
  '20',
  '--plain',
];

/** The child's exit, or a failure naming what it printed when it is still running after `ms`. */
async function exitWithin(child: BenchChild, ms: number, what: string) {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(`${what} still running ${ms} ms after its work was done:\n${child.output()}`),
        ),
      ms,
    );
  });
  try {
    return await Promise.race([child.exit, late]);
  } finally {
    clearTimeout(timer);
  }
}

const timeouts = (): number =>
  process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

describe('following the queue', () => {
  it('`bench <task> --queue` and `bench collect` exit by themselves (rc 0) once the grid is done, with no listener warning', async () => {
    const redis = await testRedis(6);
    servers.push(redis);
    const dir = mkdtempSync(join(tmpdir(), 'bench-queue-exit-'));
    const coordinator = spawnBench([...oneRun(dir), '--queue', redis.url]);
    children.push(coordinator);
    await waitFor('the run enqueued', () =>
      coordinator.output().includes('1 enqueued') ? true : undefined,
    );
    // More than 10 looks at the queue (one a second) before any run finishes: the old code added
    // an abort listener per look, and Node warns past 10.
    await new Promise((r) => setTimeout(r, 12_000));
    const worker = spawnWorker(redis.url);
    children.push(worker);
    await waitFor('the record written', () =>
      existsSync(join(dir, 'runs')) && readdirSync(join(dir, 'runs')).length === 1
        ? true
        : undefined,
    );
    const ended = await exitWithin(coordinator, 20_000, 'bench shakespeare --queue');
    expect(ended, coordinator.output()).toEqual({ code: 0, signal: null });
    expect(coordinator.output()).toContain('report:');
    expect(coordinator.output()).not.toMatch(/MaxListenersExceededWarning|Warning:/);

    // `bench collect` into another folder: the job is finished already, one look writes it.
    const elsewhere = mkdtempSync(join(tmpdir(), 'bench-queue-exit-collect-'));
    const collect = spawnBench(['collect', ...oneRun(elsewhere), '--queue', redis.url]);
    children.push(collect);
    const collected = await exitWithin(collect, 45_000, 'bench collect');
    expect(collected, collect.output()).toEqual({ code: 0, signal: null });
    expect(readdirSync(join(elsewhere, 'runs'))).toHaveLength(1);
    expect(collect.output()).not.toMatch(/MaxListenersExceededWarning|Warning:/);
    worker.proc.kill('SIGTERM');
    expect((await worker.exit).code).toBe(0);
  }, 120_000);

  it('many looks at a waiting run keep one abort listener and no timers; none is left after Ctrl-C', async () => {
    const redis = await testRedis(7);
    servers.push(redis);
    const dir = mkdtempSync(join(tmpdir(), 'bench-queue-polls-'));
    const configs = expandGrid(parseBenchArgs(oneRun(dir), () => undefined)!);
    const controller = new AbortController();
    const before = timeouts();
    const rec = progressRecorder();
    const following = runQueuedGrid(configs, {
      settings: { checkpointEvery: 20, logEvery: 5, resultsDir: dir, plugins: [] },
      progress: rec.progress,
      signal: controller.signal,
      out: () => undefined,
      queue: parseQueueUrl(redis.url),
      pollMs: 5,
    });
    // No worker: the run waits, and the grid looks at the queue every 5 ms.
    const queue = benchQueue(redis.url);
    await waitFor('the run enqueued', async () =>
      (await queue.getJobCounts('waiting')).waiting === 1 ? true : undefined,
    );
    await queue.close();
    const seen: { listeners: number; timeouts: number }[] = [];
    for (let i = 0; i < 20; i += 1) {
      await new Promise((r) => setTimeout(r, 25));
      seen.push({
        listeners: getEventListeners(controller.signal, 'abort').length,
        timeouts: timeouts() - before,
      });
    }
    expect(Math.max(...seen.map((s) => s.listeners))).toBeLessThanOrEqual(1);
    // The pause between two looks (and the sleep of this loop): never one per look.
    expect(Math.max(...seen.map((s) => s.timeouts))).toBeLessThanOrEqual(3);
    controller.abort();
    const outcome = await following;
    expect(outcome).toMatchObject({ total: 1, interrupted: true, unfinished: 1 });
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(timeouts()).toBeLessThanOrEqual(before);
  }, 60_000);
});
