import { mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { Redis } from 'ioredis';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../index.js';
import { progressRecorder } from '../testing/fixtures.js';
import { progressOf } from './queueJobs.js';
import { freePort, startRedisServer } from './redisServer.js';
import {
  benchQueue,
  capture,
  cleanUpAfterAll,
  grid,
  spawnBench,
  spawnWorker,
  waitFor,
} from '../testing/queueTestkit.js';

const { servers, children } = cleanUpAfterAll();

describe('a grid on the queue', () => {
  it.each([
    ['with its data (AOF)', true],
    ['empty (no persistence): the coordinator enqueues the lost runs again', false],
  ])(
    'a Redis that goes away mid-grid and comes back %s: the grid completes',
    async (_, persist) => {
      const redis = await startRedisServer({ persist });
      servers.push(redis);
      const dir = mkdtempSync(join(tmpdir(), 'bench-queue-outage-'));
      // This worker checkpoints to a shared folder instead of Redis.
      const shared = mkdtempSync(join(tmpdir(), 'bench-queue-shared-'));
      const w = spawnWorker(redis.url, ['--lock-duration', '15000', '--checkpoints', shared]);
      children.push(w);
      const io = capture();
      const rec = progressRecorder();
      // Long enough runs that the outage falls in the middle of one, however fast a step is.
      const args = [...grid(dir, '0', 1500), '--queue', redis.url];
      const coordinator = main(args, { ...io, progress: rec.progress });
      const queue = benchQueue(redis.url);
      await waitFor('a run past step 30', async () => {
        for (const job of await queue.getJobs(['active']))
          if ((progressOf(job)?.step ?? 0) >= 30) return true;
        return undefined;
      });
      await queue.close();
      await redis.stop();
      await new Promise((r) => setTimeout(r, 3000));
      await redis.start();
      expect(await coordinator).toBe(0);
      expect(readdirSync(join(dir, 'runs'))).toHaveLength(2);
      // The shared folder was used: the runs' files are there, their checkpoints removed at the end.
      expect(readdirSync(join(shared, 'runs')).sort()).toEqual(
        readdirSync(join(dir, 'runs')).sort(),
      );
      expect(readdirSync(join(shared, 'checkpoints'))).toEqual([]);
      expect(w.output()).toContain(`checkpoints in ${shared}`);
      expect(`${io.lines.join('\n')}\n${rec.lines.join('\n')}`).toMatch(
        /lost the connection to Redis at redis:\/\/127\.0\.0\.1:\d+\/0/,
      );
      if (!persist)
        expect(rec.lines.join('\n')).toMatch(/missing from the queue .*; enqueued again/);
      w.proc.kill('SIGTERM');
      expect((await w.exit).code).toBe(0);
    },
    120_000,
  );

  it('a password-protected Redis: the password is in no output, file or queue entry; a wrong one or a closed port is a coded error', async () => {
    const password = 'Qz9-queue-secret-never-shown';
    const redis = await startRedisServer({ password });
    servers.push(redis);
    const dir = mkdtempSync(join(tmpdir(), 'bench-queue-password-'));
    const args = [
      ...grid(dir, '0'),
      '--variants',
      'softmax',
      '--save-models',
      '--queue',
      redis.url,
    ];
    const w = spawnBench(['worker', '--queue', redis.url, '--concurrency', '1'], {
      BENCH_REDIS_PASSWORD: password,
    });
    children.push(w);
    const io = capture();
    const before = process.env.BENCH_REDIS_PASSWORD;
    process.env.BENCH_REDIS_PASSWORD = password;
    try {
      expect(await main(args, { ...io, progress: progressRecorder().progress })).toBe(0);
    } finally {
      if (before === undefined) delete process.env.BENCH_REDIS_PASSWORD;
      else process.env.BENCH_REDIS_PASSWORD = before;
    }
    w.proc.kill('SIGTERM');
    expect((await w.exit).code).toBe(0);
    expect(readdirSync(join(dir, 'models'))).toHaveLength(1);
    const files = (readdirSync(dir, { recursive: true }) as string[]).filter((f) =>
      statSync(join(dir, f)).isFile(),
    );
    expect(files.length).toBeGreaterThan(3);
    for (const f of files) expect(readFileSync(join(dir, f), 'utf8'), f).not.toContain(password);
    expect(io.lines.join('\n')).not.toContain(password);
    expect(w.output()).toContain('completed shakespeare softmax');
    expect(w.output()).not.toContain(password);
    // Everything the queue holds in Redis.
    const client = new Redis({ host: '127.0.0.1', port: redis.port, password });
    const values: string[] = [];
    for (const key of await client.keys('*')) {
      const type = await client.type(key);
      if (type === 'hash') values.push(JSON.stringify(await client.hgetall(key)));
      else if (type === 'list') values.push(...(await client.lrange(key, 0, -1)));
      else if (type === 'zset') values.push(...(await client.zrange(key, 0, -1)));
      else if (type === 'set') values.push(...(await client.smembers(key)));
      else if (type === 'string') values.push((await client.get(key)) ?? '');
      else if (type === 'stream') values.push(JSON.stringify(await client.xrange(key, '-', '+')));
    }
    await client.quit();
    expect(values.join('\n')).toContain('shakespeare-softmax-T4');
    expect(values.join('\n')).not.toContain(password);

    // A wrong password and a closed port: one coded line each, within seconds, nothing shown.
    const t0 = Date.now();
    const wrong = spawnBench(['worker', '--queue', redis.url], {
      BENCH_REDIS_PASSWORD: `${password}-old`,
    });
    children.push(wrong);
    expect((await wrong.exit).code).toBe(1);
    expect(wrong.output()).toMatch(
      new RegExp(
        `^error \\[BENCH_QUEUE_AUTH\\]: Redis at redis://127\\.0\\.0\\.1:${redis.port}/0 refused`,
        'm',
      ),
    );
    expect(wrong.output()).not.toContain(password);
    const port = await freePort();
    const closed = capture();
    const masked = `redis://bench:${password}@127.0.0.1:${port}/0`;
    expect(
      await main([...grid(dir, '0'), '--queue', masked], {
        ...closed,
        progress: progressRecorder().progress,
      }),
    ).toBe(1);
    expect(closed.lines.join('\n')).toContain(
      `error [BENCH_QUEUE_UNREACHABLE]: cannot reach Redis at redis://bench:***@127.0.0.1:${port}/0`,
    );
    expect(closed.lines.join('\n')).not.toContain(password);
    expect(Date.now() - t0).toBeLessThan(20_000);
  }, 120_000);

  it('a run that fails on a worker is reported with its package code, and the grid exits 1', async () => {
    const redis = await startRedisServer();
    servers.push(redis);
    const dir = mkdtempSync(join(tmpdir(), 'bench-queue-fail-'));
    const w = spawnWorker(redis.url, ['--data', join(dir, 'no-such-input.txt')]);
    children.push(w);
    const io = capture();
    const rec = progressRecorder();
    const args = [...grid(dir, '0'), '--variants', 'softmax', '--queue', redis.url];
    expect(await main(args, { ...io, progress: rec.progress })).toBe(1);
    expect(io.lines.join('\n')).toMatch(
      /^error \[DATASET_[A-Z_]+\]: shakespeare softmax T=4 d=8 noFFN s0: .*no-such-input\.txt/m,
    );
    expect(rec.ends[0]?.status).toContain('bench status --retry-failed');
    w.proc.kill('SIGTERM');
    expect((await w.exit).code).toBe(0);
  }, 60_000);
});
