/*
 * Hostile jobs through a real Redis and a real `bench worker`: job data is data. None of them may
 * write outside the worker's folders, load a module, read a file it names, or send a credential
 * to a URL it names (a trap HTTP server on 127.0.0.1 must receive nothing).
 */
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { expandGrid, runId } from '../grid/expandGrid.js';
import { tinyShakespeareArgs } from '../testing/fixtures.js';
import { gitCommit } from '../results/gitCommit.js';
import { parseBenchArgs } from '../cli/parseArgs.js';
import type { RunConfig } from '../types.js';
import { jobIdOf, writeJobResult } from './queueJobs.js';
import { startRedisServer } from './redisServer.js';
import {
  benchQueue,
  cleanUpAfterAll,
  spawnWorker,
  trapServer,
  waitFor,
} from '../testing/queueTestkit.js';

const { servers, children } = cleanUpAfterAll();

const TOKEN = 'DEV-trap-token-4f1e9a';
const AWS_SECRET = 'aws-secret-trap-77c1d0';

describe('hostile queue jobs', () => {
  it('are refused with a coded error before anything is written, loaded or sent', async () => {
    const redis = await startRedisServer({ persist: false });
    servers.push(redis);
    const trap = await trapServer();
    const scratch = mkdtempSync(join(tmpdir(), 'bench-trust-'));
    const marker = join(scratch, 'plugin-ran');
    const plugin = join(scratch, 'evilPlugin.mjs');
    writeFileSync(
      plugin,
      `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'x');\nexport default {};\n`,
    );
    const base = expandGrid(
      parseBenchArgs(
        [
          ...tinyShakespeareArgs(join(scratch, 'results'), {
            steps: 5,
            evalEvery: 5,
            checkpointEvery: 5,
            seeds: '0',
          }),
          '--variants',
          'boltzmann',
        ],
        () => undefined,
      )!,
    )[0]!;
    const commit = gitCommit();
    const settings = { checkpointEvery: 5, logEvery: 5 };
    const outside = join(scratch, 'escaped');
    const job = (config: RunConfig, extra: Record<string, unknown> = {}) => ({
      name: 'hostile',
      data: { version: 1, config, commit, settings, ...extra },
      opts: { jobId: jobIdOf(config, commit), attempts: 1 },
    });
    const jobs = {
      traversal: {
        name: 'traversal',
        data: {
          version: 1,
          config: { ...base, dataset: `../../../../../../..${outside}` },
          commit,
          settings,
          checkpoint: { pwned: true },
        },
        opts: { jobId: 'traversal.c-1', attempts: 1 },
      },
      dwaveEndpoint: job({ ...base, sampler: 'dwave', samplerOptions: { endpoint: trap.url } }),
      braketEndpoint: job({
        ...base,
        sampler: 'braket',
        samplerOptions: { endpoint: trap.url, s3Endpoint: trap.url, outputS3Bucket: 'b' },
      }),
      urlValue: job({ ...base, sampler: 'dwave', samplerOptions: { solver: trap.url } }),
      dryRunDir: job({
        ...base,
        sampler: 'dwave',
        samplerOptions: { dryRun: { dir: join(scratch, 'dry') } },
      }),
      plugin: job(base, { settings: { ...settings, plugins: [plugin] } }),
      dataPath: job(base, { settings: { ...settings, dataPath: '/etc/passwd' } }),
      malformed: { name: 'malformed', data: { version: 1, config: {} }, opts: { jobId: 'm.c-1' } },
    };
    const queue = benchQueue(redis.url);
    for (const j of Object.values(jobs)) await queue.add(j.name, j.data, j.opts);
    // A job whose data in Redis is not JSON at all.
    await queue.add('broken', { version: 1 }, { jobId: 'broken.c-1', attempts: 1 });
    const client = new Redis(redis.url);
    await client.hset('bull:bench:broken.c-1', 'data', '{"version":1,');

    // The worker holds real-looking credentials in its environment, as a D-Wave/Braket farm would.
    const saved = { ...process.env };
    Object.assign(process.env, {
      DWAVE_API_TOKEN: TOKEN,
      AWS_ACCESS_KEY_ID: 'AKIATRAPTRAPTRAP',
      AWS_SECRET_ACCESS_KEY: AWS_SECRET,
      AWS_REGION: 'us-east-1',
    });
    const worker = spawnWorker(redis.url);
    process.env = saved;
    children.push(worker);
    const ids = [...Object.values(jobs).map((j) => j.opts.jobId), 'broken.c-1'];
    const reasons = await waitFor(
      'every hostile job failed',
      async () => {
        const states = await Promise.all(ids.map((id) => queue.getJobState(id)));
        if (!states.every((s) => s === 'failed')) return undefined;
        // (Read from Redis directly: BullMQ's getJob cannot parse the broken job either.)
        return Promise.all(ids.map((id) => client.hget(`bull:bench:${id}`, 'failedReason')));
      },
      90_000,
    );
    const byName = Object.fromEntries(ids.map((id, i) => [id, reasons[i]!]));
    expect(byName['traversal.c-1']).toMatch(/^error \[BENCH_INVALID_JOB\]: .*config\.dataset/);
    for (const key of [
      'dwaveEndpoint',
      'braketEndpoint',
      'urlValue',
      'dryRunDir',
      'plugin',
      'dataPath',
    ] as const)
      expect(byName[jobs[key].opts.jobId], key).toMatch(/^error \[BENCH_FORBIDDEN_OPTION\]/);
    expect(byName['m.c-1']).toMatch(/^error \[BENCH_INVALID_JOB\]: job "m.c-1"/);
    expect(byName['broken.c-1']).toMatch(/^error \[BENCH_INVALID_JOB\]: .*not valid JSON/);
    await queue.close();
    await client.quit();

    worker.proc.kill('SIGTERM');
    expect((await worker.exit).code).toBe(0);
    trap.close();
    expect(trap.hits).toEqual([]);
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(`${outside}`) || existsSync(join(scratch, 'dry'))).toBe(false);
    expect(readdirSync(scratch).sort()).toEqual(['evilPlugin.mjs']);
    expect(worker.output()).not.toContain(TOKEN);
    expect(worker.output()).not.toContain(AWS_SECRET);
  }, 150_000);

  it('a raw job with malformed options is failed as such, never reported as a lost connection', async () => {
    const redis = await startRedisServer({ persist: false });
    servers.push(redis);
    const queue = benchQueue(redis.url);
    const client = new Redis(redis.url);
    // Options as Redis may hold them when something other than the bench wrote the job.
    const opts: Record<string, string> = {
      notJson: '{"attempts":',
      nullOpts: 'null',
      repeat: '{"repeat":1}',
      badTypes: '{"attempts":"x","backoff":"y"}',
    };
    for (const [name, raw] of Object.entries(opts)) {
      await queue.add(name, { version: 1 } as never, { jobId: `${name}.c-1`, attempts: 1 });
      await client.hset(`bull:bench:${name}.c-1`, 'opts', raw);
    }
    const worker = spawnWorker(redis.url);
    children.push(worker);
    const ids = Object.keys(opts).map((name) => `${name}.c-1`);
    const reasons = await waitFor(
      'every malformed job failed',
      async () => {
        const states = await Promise.all(
          ids.map((id) => client.hget(`bull:bench:${id}`, 'finishedOn')),
        );
        if (!states.every((s) => s !== null)) return undefined;
        return Promise.all(ids.map((id) => client.hget(`bull:bench:${id}`, 'failedReason')));
      },
      60_000,
    );
    for (const [i, id] of ids.entries())
      expect(reasons[i], id).toMatch(
        new RegExp(
          `^error \\[BENCH_INVALID_JOB\\]: job "${id.replace('.', '\\.')}": its options in Redis are malformed`,
        ),
      );
    worker.proc.kill('SIGTERM');
    expect((await worker.exit).code).toBe(0);
    expect(worker.output()).not.toContain('lost the connection');
    expect(worker.output()).not.toContain('stalled');
    await queue.close();
    await client.quit();
  }, 120_000);

  it('a finished job whose result carries another config is refused, and nothing is written', () => {
    const results = mkdtempSync(join(tmpdir(), 'bench-trust-result-'));
    const config = expandGrid(
      parseBenchArgs(
        tinyShakespeareArgs(results, { steps: 5, evalEvery: 5, checkpointEvery: 5, seeds: '0' }),
        () => undefined,
      )!,
    )[0]!;
    const id = runId(config);
    const run = { config, id, jobId: jobIdOf(config, null) };
    const hostile = {
      ...config,
      sampler: 'dwave',
      samplerOptions: { endpoint: 'https://evil.example/' },
    };
    const record = { id, config: hostile, finalMetric: 1 } as never;
    expect(() => writeJobResult(results, run, { record, host: 'h', resumedFrom: 0 })).toThrow(
      expect.objectContaining({ code: 'BENCH_INVALID_JOB' }),
    );
    expect(readdirSync(results)).toEqual([]);
  });
});
