import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { Redis } from 'ioredis';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expandGrid, main, parseBenchArgs, runId } from '../index.js';
import { progressRecorder, tinyShakespeareArgs } from '../internal/fixtures.js';
import type { RunRecord } from '../index.js';
import { progressOf } from './queueJobs.js';
import type { RunJobData } from './queueJobs.js';
import { freePort, startRedisServer, testRedis } from './redisServer.js';
import { benchQueue, spawnBench, spawnWorker, waitFor, withoutTimings } from './queueTestkit.js';
import type { BenchChild } from './queueTestkit.js';

const STEPS = 150;
/** 6 tiny runs (2 variants × 3 seeds) of 150 steps, checkpoints every 20. */
const grid = (dir: string, seeds = '0,1,2') =>
  tinyShakespeareArgs(dir, { steps: STEPS, evalEvery: 50, checkpointEvery: 20, seeds });

const servers: { stop(): Promise<void> }[] = [];
const children: BenchChild[] = [];
afterAll(async () => {
  for (const c of children) if (c.proc.exitCode === null) c.proc.kill('SIGKILL');
  for (const s of servers) await s.stop();
});

function capture() {
  const lines: string[] = [];
  return { lines, out: (l: string) => void lines.push(l), err: (l: string) => void lines.push(l) };
}

const readRecords = (dir: string): Map<string, RunRecord> =>
  new Map(
    readdirSync(join(dir, 'runs')).map((f) => {
      const r = JSON.parse(readFileSync(join(dir, 'runs', f), 'utf8')) as RunRecord;
      return [r.id, r];
    }),
  );

describe('a grid on the queue', () => {
  it('6 runs on 2 workers, one SIGKILLed mid-run: each run finishes once, the killed one resumes from its checkpoint, results equal a local run', async () => {
    const redis = await startRedisServer();
    servers.push(redis);
    const t0 = Date.now();
    const local = mkdtempSync(join(tmpdir(), 'bench-queue-local-'));
    const localIo = { ...capture(), progress: progressRecorder().progress };
    expect(await main([...grid(local), '--workers', '0'], localIo)).toBe(0);
    const tLocal = Date.now() - t0;

    const dir = mkdtempSync(join(tmpdir(), 'bench-queue-'));
    const a = spawnWorker(redis.url);
    const b = spawnWorker(redis.url);
    children.push(a, b);
    const io = capture();
    const rec = progressRecorder();
    const t1 = Date.now();
    const coordinator = main([...grid(dir), '--queue', redis.url], {
      ...io,
      progress: rec.progress,
    });

    // Kill worker a once it is past a checkpoint of its run (step 20), before the run ends.
    const queue = benchQueue(redis.url);
    const victim = await waitFor('worker a mid-run', async () => {
      for (const job of await queue.getJobs(['active'])) {
        const p = progressOf(job);
        if (p?.host.endsWith(`:${a.proc.pid}`) && p.step >= 30 && p.step < STEPS - 20)
          return { job, step: p.step, pid: p.pid };
      }
      return undefined;
    });
    a.proc.kill('SIGKILL');
    const killedAt = victim.step;
    const killedId = victim.job.name;
    const tKill = Date.now() - t1;
    // What a successor can resume from: the checkpoint the dead worker last stored in Redis.
    const stored = (await queue.getJob(victim.job.id!))?.data.checkpoint?.step ?? 0;
    // The dead worker's training process does not go on as an orphan.
    const alive = (pid: number): boolean => {
      try {
        // Exited but not reaped (a zombie, state Z) counts as gone.
        return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
      } catch {
        return false;
      }
    };
    await waitFor(
      'the orphaned training process to exit',
      () => (alive(victim.pid) ? undefined : true),
      5000,
    );

    expect(await coordinator).toBe(0);
    const tQueue = Date.now() - t1;
    await queue.close();

    // Every run finished, each reported once by the coordinator and trained to the end once.
    const configs = expandGrid(parseBenchArgs(grid(dir), () => undefined)!);
    const ids = configs.map(runId);
    const records = readRecords(dir);
    expect([...records.keys()].sort()).toEqual([...ids].sort());
    expect(rec.ends.map((e) => e.id).sort()).toEqual([...ids].sort());
    const workerLog = `${a.output()}\n${b.output()}`;
    for (const c of configs) {
      const label = `${c.column} T=${c.length} d=${c.dModel} noFFN s${c.seed}`;
      expect(
        workerLog.split('\n').filter((l) => l.includes(`] done shakespeare ${label}:`)),
      ).toHaveLength(1);
    }
    // The killed run resumed on worker b from a checkpoint at or before the step it was killed at.
    const resumed =
      /resuming shakespeare (\S+) T=4 d=8 noFFN s(\d) from step (\d+)\/150 \(checkpoint in Redis\)/.exec(
        b.output(),
      );
    expect(resumed, b.output()).not.toBeNull();
    const resumedStep = Number(resumed![3]);
    expect(resumedStep % 20).toBe(0);
    expect(resumedStep).toBeGreaterThanOrEqual(20);
    expect(resumedStep).toBe(stored);
    expect(resumedStep).toBeLessThan(STEPS);
    expect(killedId).toContain(`-${resumed![1]}-T4-d8-noffn-s${resumed![2]}-`);
    expect(rec.starts.find((s) => s.id === killedId)).toBeDefined();
    expect(b.output()).toMatch(/job .* stalled/);

    // Results identical to the local grid's, apart from timings.
    const localRecords = readRecords(local);
    for (const id of ids) {
      const queued = withoutTimings(records.get(id)!);
      const here = withoutTimings(localRecords.get(id)!);
      // gitCommit is HEAD when each process started: other work committing in this repository
      // while the test runs can move it between the local run and the workers.
      for (const key of Object.keys(here) as (keyof typeof here)[])
        if (key !== 'gitCommit') expect(queued[key], `${id} ${key}`).toEqual(here[key]);
      expect(queued.gitCommit).toMatch(/^[0-9a-f]{40}$/);
      expect(Object.keys(queued).sort()).toEqual(Object.keys(here).sort());
    }

    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toBe(
      readFileSync(join(local, 'summary.md'), 'utf8'),
    );
    expect(existsSync(join(dir, 'report.html'))).toBe(true);

    // A second coordinator has nothing to do: every record is there.
    const again = capture();
    expect(
      await main([...grid(dir), '--queue', redis.url], {
        ...again,
        progress: progressRecorder().progress,
      }),
    ).toBe(0);
    expect(again.lines.join('\n')).toContain(
      'grid: 6 runs — 6 finished here, 0 already in the queue, 0 enqueued',
    );

    b.proc.kill('SIGTERM');
    expect((await b.exit).code).toBe(0);
    console.log(
      `queue grid timings: local (in process) ${tLocal} ms; queue ${tQueue} ms, worker a killed at step ≈ ${killedAt} after ${tKill} ms, resumed from ${resumedStep}`,
    );
  }, 240_000);

  it('enqueueing the same grid twice adds nothing; status lists the runs; collect writes what has finished', async () => {
    // The suite's Redis under .ci/run (its own database), else one of its own.
    const redis = await testRedis(5);
    servers.push(redis);
    const dir = mkdtempSync(join(tmpdir(), 'bench-queue-twice-'));
    const first = capture();
    const args = [...grid(dir), '--queue', redis.url, '--detach'];
    expect(await main(args, { ...first, progress: progressRecorder().progress })).toBe(0);
    expect(first.lines.join('\n')).toContain('0 already in the queue, 6 enqueued');
    const second = capture();
    expect(await main(args, { ...second, progress: progressRecorder().progress })).toBe(0);
    expect(second.lines.join('\n')).toContain('6 already in the queue, 0 enqueued');
    const queue = benchQueue(redis.url);
    expect(await queue.getJobCounts('waiting', 'active', 'completed', 'failed')).toMatchObject({
      waiting: 6,
      active: 0,
      completed: 0,
      failed: 0,
    });
    await queue.close();
    const status = capture();
    expect(await main(['status', '--queue', redis.url], status)).toBe(0);
    expect(status.lines[0]).toMatch(
      /: 6 waiting, 0 active, 0 finished, 0 failed; 0 workers connected$/,
    );
    const collect = capture();
    expect(
      await main(['collect', ...grid(dir), '--queue', redis.url], {
        ...collect,
        progress: progressRecorder().progress,
      }),
    ).toBe(1);
    expect(collect.lines.join('\n')).toContain(
      '6 runs not finished yet: 0 active, 6 waiting, 0 not in the queue',
    );
    expect(collect.lines.join('\n')).toContain('error [BENCH_GRID_INCOMPLETE]');
  }, 60_000);

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
      const args = [...grid(dir, '0'), '--queue', redis.url];
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

  it('SIGTERM checkpoints the running job and puts it back; a failed job is listed and retried by status', async () => {
    const redis = await startRedisServer();
    servers.push(redis);
    const dir = mkdtempSync(join(tmpdir(), 'bench-queue-term-'));
    // One longer run (400 steps), so that it is still running while status looks at it.
    const args = [
      ...grid(dir, '0'),
      '--variants',
      'softmax',
      '--steps',
      '400',
      '--queue',
      redis.url,
      '--detach',
    ];
    const queue = benchQueue(redis.url);
    // A job that is not a bench run, first in line: it fails on the worker.
    await queue.add('not-a-run', { version: 2 } as unknown as RunJobData, { jobId: 'bogus-job' });
    expect(await main(args, { ...capture(), progress: progressRecorder().progress })).toBe(0);
    const w = spawnWorker(redis.url);
    children.push(w);
    await waitFor('the run past step 30', async () => {
      const [job] = await queue.getJobs(['active']);
      return (progressOf(job)?.step ?? 0) >= 30 ? true : undefined;
    });
    const active = capture();
    expect(await main(['status', '--queue', redis.url], active)).toBe(0);
    expect(active.lines.join('\n')).toMatch(
      new RegExp(
        `active:\\n  shakespeare-softmax-T4-\\S+  step \\d+/400 loss \\d\\.\\d{4} [\\d.]+ steps/s ETA \\S+  on \\S+:${w.proc.pid}`,
      ),
    );
    w.proc.kill('SIGTERM');
    expect((await w.exit).code).toBe(0);
    expect(w.output()).toContain('stopped, checkpointed; handing it back to the queue');
    const [id] = expandGrid(parseBenchArgs(args.slice(0, -3), () => undefined)!).map(runId);
    const waiting = await queue.getJobs(['wait']);
    expect(waiting.map((j) => j.name)).toEqual([id]);
    const step = waiting[0]!.data.checkpoint?.step ?? 0;
    expect(step).toBeGreaterThanOrEqual(30);

    const status = capture();
    expect(await main(['status', '--queue', redis.url], status)).toBe(0);
    expect(status.lines.join('\n')).toMatch(/1 waiting, 0 active, 0 finished, 1 failed/);
    expect(status.lines.join('\n')).toContain('not-a-run: job bogus-job is not a bench run');
    const retry = capture();
    expect(await main(['status', '--queue', redis.url, '--retry-failed'], retry)).toBe(0);
    expect(retry.lines.join('\n')).toContain('retried 1 failed run: they are waiting again');
    expect(await queue.getJobState('bogus-job')).toBe('waiting');
    await queue.remove('bogus-job');

    // A new worker resumes the checkpointed run where the first stopped.
    const w2 = spawnWorker(redis.url);
    children.push(w2);
    const collected = main([...args.slice(0, -1)], {
      ...capture(),
      progress: progressRecorder().progress,
    });
    expect(await collected).toBe(0);
    expect(w2.output()).toContain(`from step ${step}/400 (checkpoint in Redis)`);
    // The finished job's data no longer holds the checkpoint; its result is the record.
    const [finished] = await queue.getJobs(['completed']);
    expect(finished?.data.checkpoint).toBeUndefined();
    // `bench collect` into another folder writes the same record and the report from the queue.
    const elsewhere = mkdtempSync(join(tmpdir(), 'bench-queue-collect-'));
    const collect = capture();
    const collectArgs = ['collect', ...args.slice(0, -1)].map((a) => (a === dir ? elsewhere : a));
    expect(await main(collectArgs, { ...collect, progress: progressRecorder().progress })).toBe(0);
    expect(collect.lines.join('\n')).toContain(
      'grid: 1 run — 0 finished here, 1 to collect from the queue',
    );
    expect(readFileSync(join(elsewhere, 'runs', `${id}.json`), 'utf8')).toBe(
      readFileSync(join(dir, 'runs', `${id}.json`), 'utf8'),
    );
    expect(existsSync(join(elsewhere, 'report.html'))).toBe(true);
    await queue.close();
    w2.proc.kill('SIGTERM');
    expect((await w2.exit).code).toBe(0);
  }, 120_000);

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
