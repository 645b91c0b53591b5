/*
 * A genuine `bench brackets … --queue` grid through a real Redis and a real `bench worker`: the
 * coordinator enqueues what the CLI builds, the worker accepts and trains it, collect writes it.
 * (Issue 38: every worker refused brackets jobs, whose config records evalWindows 0.)
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandGrid, main, parseBenchArgs, runId } from '../index.js';
import type { RunRecord } from '../index.js';
import { progressRecorder } from '../testing/fixtures.js';
import { capture, cleanUpAfterAll, spawnWorker } from '../testing/queueTestkit.js';
import { jobIdOf } from './queueJobs.js';
import { startRedisServer } from './redisServer.js';
import { parseRunJob } from './runJobSchema.js';

const { servers, children } = cleanUpAfterAll();

/** One tiny brackets run: softmax at T = 8, an 8-wide model, 6 steps, checkpoints every 3. */
const bracketsArgs = (dir: string): string[] => [
  'brackets',
  '--lengths',
  '8',
  '--variants',
  'softmax',
  '--seeds',
  '0',
  '--steps',
  '6',
  '--d-model',
  '8',
  '--ffn',
  'off',
  '--batch-size',
  '4',
  '--eval-every',
  '6',
  '--checkpoint-every',
  '3',
  '--log-every',
  '3',
  '--results',
  dir,
];

describe('a brackets grid on the queue', () => {
  it("the job the coordinator builds passes the worker's schema", () => {
    const [config] = expandGrid(parseBenchArgs(bracketsArgs('unused'), () => undefined)!);
    expect(config!.dataset).toBe('brackets');
    const commit = 'abcdef1';
    const data = { version: 1, config, commit, settings: { checkpointEvery: 3, logEvery: 3 } };
    expect(parseRunJob(data, jobIdOf(config!, commit)).config).toEqual(config);
    // The metrics a checkpoint keeps travel as text, and only as text.
    const id = jobIdOf(config!, commit);
    expect(parseRunJob({ ...data, metrics: '{"event":"train"}\n' }, id).metrics).toBeDefined();
    expect(() => parseRunJob({ ...data, metrics: [1, 2] }, id)).toThrow(
      /metrics must be the text of a metrics file/,
    );
    // The rule is per dataset: brackets records 0 windows, Tiny Shakespeare at least 1.
    for (const bad of [
      { ...config!, evalWindows: 5 },
      { ...config!, dataset: 'shakespeare' as const, evalWindows: 0 },
    ])
      expect(() => parseRunJob({ ...data, config: bad }, jobIdOf(bad, commit))).toThrow(
        /config\.evalWindows must be (0 on brackets|at least 1 on shakespeare)/,
      );
  });

  it('a worker takes the job, trains it, and collect writes the record', async () => {
    const redis = await startRedisServer();
    servers.push(redis);
    const dir = mkdtempSync(join(tmpdir(), 'bench-queue-brackets-'));
    const w = spawnWorker(redis.url);
    children.push(w);
    const io = capture();
    const code = await main([...bracketsArgs(dir), '--queue', redis.url], {
      ...io,
      progress: progressRecorder().progress,
    });
    expect(code, `${io.lines.join('\n')}\n${w.output()}`).toBe(0);
    const [config] = expandGrid(parseBenchArgs(bracketsArgs(dir), () => undefined)!);
    const id = runId(config!);
    const record = JSON.parse(readFileSync(join(dir, 'runs', `${id}.json`), 'utf8')) as RunRecord;
    expect(record.config).toEqual(config);
    expect(record.metricName).toBe('accuracy');
    expect(w.output()).not.toContain('BENCH_INVALID_JOB');

    const elsewhere = mkdtempSync(join(tmpdir(), 'bench-queue-brackets-collect-'));
    const collect = capture();
    const collectArgs = ['collect', ...bracketsArgs(elsewhere), '--queue', redis.url];
    expect(await main(collectArgs, { ...collect, progress: progressRecorder().progress })).toBe(0);
    expect(readFileSync(join(elsewhere, 'runs', `${id}.json`), 'utf8')).toBe(
      readFileSync(join(dir, 'runs', `${id}.json`), 'utf8'),
    );
    expect(existsSync(join(elsewhere, 'report.html'))).toBe(true);
    w.proc.kill('SIGTERM');
    expect((await w.exit).code).toBe(0);
  }, 120_000);
});
