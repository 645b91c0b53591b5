import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../index.js';
import { progressRecorder } from '../testing/fixtures.js';
import { startRedisServer } from './redisServer.js';
import {
  benchQueue,
  capture,
  cleanUpAfterAll,
  grid,
  spawnWorker,
} from '../testing/queueTestkit.js';

const { servers, children } = cleanUpAfterAll();

describe('--remove-collected', () => {
  it('removes the finished jobs whose records are written here, and nothing else', async () => {
    const redis = await startRedisServer();
    servers.push(redis);
    const dir = mkdtempSync(join(tmpdir(), 'bench-queue-clean-'));
    const args = [...grid(dir, '0'), '--queue', redis.url]; // 2 runs
    const worker = spawnWorker(redis.url, ['--concurrency', '2']);
    children.push(worker);
    expect(await main(args, { ...capture(), progress: progressRecorder().progress })).toBe(0);
    expect(readdirSync(join(dir, 'runs'))).toHaveLength(2);
    const queue = benchQueue(redis.url);
    expect(await queue.getJobCounts('completed')).toEqual({ completed: 2 });
    // A job that is not one of this grid's runs stays, whatever its state.
    await queue.add('other', { kind: 'not-a-run' }, { jobId: 'other-job' });

    const clean = capture();
    const collect = ['collect', ...args, '--remove-collected'];
    expect(await main(collect, { ...clean, progress: progressRecorder().progress })).toBe(0);
    expect(clean.lines.join('\n')).toContain('removed 2 finished jobs from the queue');
    expect(await queue.getJobCounts('completed')).toEqual({ completed: 0 });
    expect(await queue.getJob('other-job')).toBeDefined();
    expect(readdirSync(join(dir, 'runs'))).toHaveLength(2); // the records stay

    // Run again: the records are here, so nothing is enqueued and nothing more is removed.
    const again = capture();
    expect(
      await main([...args, '--remove-collected'], {
        ...again,
        progress: progressRecorder().progress,
      }),
    ).toBe(0);
    expect(again.lines.join('\n')).toContain('2 finished here');
    // The worker's BullMQ name tells the grid how many runs it trains at once.
    expect(again.lines.join('\n')).toContain('1 worker (2 runs at once) connected');
    expect(again.lines.join('\n')).toContain('removed 0 finished jobs from the queue');
    await queue.close();
    worker.proc.kill('SIGTERM');
    expect((await worker.exit).code).toBe(0);
  }, 120_000);

  it('refuses --remove-collected without --queue (exit 2, BENCH_INVALID_OPTION)', async () => {
    const io = capture();
    const dir = mkdtempSync(join(tmpdir(), 'bench-queue-clean-'));
    expect(await main([...grid(dir, '0'), '--remove-collected'], io)).toBe(2);
    expect(io.lines.join('\n')).toContain(
      'error [BENCH_INVALID_OPTION]: --remove-collected needs --queue <url>',
    );
  });
});
