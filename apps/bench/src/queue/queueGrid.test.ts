import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandGrid, main, parseBenchArgs, runId } from '../index.js';
import { progressRecorder } from '../testing/fixtures.js';
import type { RunRecord } from '../index.js';
import { progressOf } from './queueJobs.js';
import type { RunJobData } from './queueJobs.js';
import { startRedisServer, testRedis } from './redisServer.js';
import { decodeCheckpoint } from '../results/checkpointFile.js';
import { readMetrics } from '../tracking/metricsFile.js';

/** The step of the checkpoint a job carries in Redis: the base64 of a safetensors file. */
const storedStep = (carried: unknown): number => {
  if (carried === undefined) return 0;
  expect(typeof carried).toBe('string');
  return decodeCheckpoint(new Uint8Array(Buffer.from(carried as string, 'base64'))).step;
};
import {
  STEPS,
  benchQueue,
  capture,
  cleanUpAfterAll,
  grid,
  spawnWorker,
  waitFor,
  withoutTimings,
} from '../testing/queueTestkit.js';

// Redis outages, passwords and failing runs: queueGridFaults.test.ts.
const { servers, children } = cleanUpAfterAll();

const readRecords = (dir: string): Map<string, RunRecord> =>
  new Map(
    readdirSync(join(dir, 'runs')).map((f) => {
      const r = JSON.parse(readFileSync(join(dir, 'runs', f), 'utf8')) as RunRecord;
      return [r.id, r];
    }),
  );

/**
 * Steps of the kill test's runs: long enough that a run is caught mid-way (past step 30, 20 short
 * of its end) however fast a step is; the engine runs these tiny models at hundreds of steps/s.
 */
const KILL_STEPS = 4 * STEPS;

describe('a grid on the queue', () => {
  it('6 runs on 2 workers, one SIGKILLed mid-run: each run finishes once, the killed one resumes from its checkpoint, results equal a local run', async () => {
    const redis = await startRedisServer();
    servers.push(redis);
    const t0 = Date.now();
    const local = mkdtempSync(join(tmpdir(), 'bench-queue-local-'));
    const localIo = { ...capture(), progress: progressRecorder().progress };
    // One engine thread, as the queue's workers train (a run alone would step on every core).
    const localArgs = [
      ...grid(local, undefined, KILL_STEPS),
      '--workers',
      '0',
      '--engine-threads',
      '1',
      '--tensorboard',
    ];
    expect(await main(localArgs, localIo)).toBe(0);
    const tLocal = Date.now() - t0;

    const dir = mkdtempSync(join(tmpdir(), 'bench-queue-'));
    const a = spawnWorker(redis.url);
    const b = spawnWorker(redis.url);
    children.push(a, b);
    const io = capture();
    const rec = progressRecorder();
    const t1 = Date.now();
    const coordinator = main(
      [...grid(dir, undefined, KILL_STEPS), '--queue', redis.url, '--tensorboard'],
      {
        ...io,
        progress: rec.progress,
      },
    );

    // Kill worker a once it is past a checkpoint of its run (step 20), before the run ends.
    const queue = benchQueue(redis.url);
    const victim = await waitFor('worker a mid-run', async () => {
      for (const job of await queue.getJobs(['active'])) {
        const p = progressOf(job);
        if (p?.host.endsWith(`:${a.proc.pid}`) && p.step >= 30 && p.step < KILL_STEPS - 20)
          return { job, step: p.step, pid: p.pid };
      }
      return undefined;
    });
    a.proc.kill('SIGKILL');
    const killedAt = victim.step;
    const killedId = victim.job.name;
    const tKill = Date.now() - t1;
    // What a successor can resume from: the checkpoint the dead worker last stored in Redis.
    const stored = storedStep((await queue.getJob(victim.job.id!))?.data.checkpoint);
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
    const configs = expandGrid(parseBenchArgs(grid(dir, undefined, KILL_STEPS), () => undefined)!);
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
    const resumed = new RegExp(
      `resuming shakespeare (\\S+) T=4 d=8 noFFN s(\\d) from step (\\d+)/${KILL_STEPS} \\(checkpoint in Redis\\)`,
    ).exec(b.output());
    expect(resumed, b.output()).not.toBeNull();
    const resumedStep = Number(resumed![3]);
    expect(resumedStep % 20).toBe(0);
    expect(resumedStep).toBeGreaterThanOrEqual(20);
    expect(resumedStep).toBe(stored);
    expect(resumedStep).toBeLessThan(KILL_STEPS);
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

    // The metrics came back with the results (the killed run's rows before its checkpoint with
    // the checkpoint, through Redis): every row equals the local run's, apart from its clock. With
    // --tensorboard the coordinator wrote each run's event files too.
    const rowsOf = (root: string, id: string) =>
      readMetrics(join(root, 'metrics', `${id}.jsonl`)).map(
        ({ time: _, stepsPerSecond: __, ...row }) => row,
      );
    for (const id of ids) {
      expect(rowsOf(dir, id), id).toEqual(rowsOf(local, id));
      expect(rowsOf(dir, id).length, id).toBeGreaterThan(KILL_STEPS / 20);
      expect(
        readdirSync(join(dir, 'tensorboard', id)).some((f) => f.startsWith('events.out.tfevents.')),
      ).toBe(true);
    }

    // The summaries too, apart from the table of wall times per step.
    const withoutTimes = (md: string): string =>
      md.replace(/### Time per training step\n[\s\S]*?\n(?=###|!\[)/, '');
    const summary = readFileSync(join(dir, 'summary.md'), 'utf8');
    expect(summary).toContain('### Time per training step');
    expect(withoutTimes(summary)).not.toContain('ms/step');
    expect(withoutTimes(summary)).toBe(
      withoutTimes(readFileSync(join(local, 'summary.md'), 'utf8')),
    );
    expect(existsSync(join(dir, 'report.html'))).toBe(true);

    // A second coordinator has nothing to do: every record is there.
    const again = capture();
    expect(
      await main([...grid(dir, undefined, KILL_STEPS), '--queue', redis.url], {
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

  it('SIGTERM checkpoints the running job and puts it back; a failed job is listed and retried by status', async () => {
    const redis = await startRedisServer();
    servers.push(redis);
    const dir = mkdtempSync(join(tmpdir(), 'bench-queue-term-'));
    // One longer run (2,000 steps), so that it is still running while status looks at it, however
    // fast a step is.
    const args = [
      ...grid(dir, '0'),
      '--variants',
      'softmax',
      '--steps',
      '2000',
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
        `active:\\n  shakespeare-softmax-T4-\\S+  step \\d+/2000 loss \\d\\.\\d{4} [\\d.]+ steps/s ETA \\S+  on \\S+:${w.proc.pid}`,
      ),
    );
    w.proc.kill('SIGTERM');
    expect((await w.exit).code).toBe(0);
    expect(w.output()).toContain('stopped, checkpointed; handing it back to the queue');
    const [id] = expandGrid(parseBenchArgs(args.slice(0, -3), () => undefined)!).map(runId);
    const waiting = await queue.getJobs(['wait']);
    expect(waiting.map((j) => j.name)).toEqual([id]);
    const step = storedStep(waiting[0]!.data.checkpoint);
    expect(step).toBeGreaterThanOrEqual(30);

    const status = capture();
    expect(await main(['status', '--queue', redis.url], status)).toBe(0);
    expect(status.lines.join('\n')).toMatch(/1 waiting, 0 active, 0 finished, 1 failed/);
    expect(status.lines.join('\n')).toContain(
      'not-a-run: error [BENCH_INVALID_JOB]: job "bogus-job": not a bench run (version 2)',
    );
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
    expect(w2.output()).toContain(`from step ${step}/2000 (checkpoint in Redis)`);
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
});
