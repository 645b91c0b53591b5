import { describe, expect, it } from 'vitest';
import { rejection } from '../shared/testing/rejection.js';
import { createRuntimeClient } from './runtimeClient.js';
import { runSamplerJobs } from './runtimeJobs.js';
import type { RunSamplerJobsOptions } from './runtimeJobs.js';
import type { RuntimeClient, SamplerPub } from './runtimeTypes.js';
import {
  createSubmissionThrottle,
  DEFAULT_IBM_JOBS_PER_MINUTE,
  RATE_WINDOW_MS,
} from './submissionThrottle.js';
import type { ThrottleClock } from './submissionThrottle.js';
import { clientOptions, fake, qasm, useFakeRuntime } from './testing/runtimeHarness.js';

useFakeRuntime();

/** Virtual time: sleeping advances it at once, so minutes of pacing take no real time. */
function virtualClock() {
  const clock = {
    t: 0,
    waits: [] as number[],
    now: () => clock.t,
    async sleep(ms: number, signal?: AbortSignal) {
      if (signal?.aborted) throw signal.reason;
      clock.waits.push(ms);
      clock.t += ms;
    },
  };
  return clock satisfies ThrottleClock;
}

/** The client, with the virtual time at which each job was submitted. */
function timedClient(clock: { now(): number }) {
  const client = createRuntimeClient(clientOptions());
  const times: number[] = [];
  const timed: RuntimeClient = {
    ...client,
    submitSamplerJob(request, signal) {
      times.push(clock.now());
      return client.submitSamplerJob(request, signal);
    },
  };
  return { client: timed, times };
}

const run = (extra: Partial<RunSamplerJobsOptions>): RunSamplerJobsOptions => ({
  backend: 'fake_line7',
  pubs: Array.from({ length: 12 }, (): SamplerPub => [qasm(2), null, 10]),
  maxPubsPerJob: 1,
  sessionMode: 'batch',
  signal: new AbortController().signal,
  backoff: { initialMs: 1, factor: 1, maxMs: 1 },
  cancelTimeoutMs: 1_000,
  ...extra,
});

const jobPosts = () => fake.requests.filter((r) => r.method === 'POST' && /\/jobs$/.test(r.path));

describe('the job submission throttle', () => {
  it("defaults to IBM's documented 5 jobs per minute", () => {
    expect(DEFAULT_IBM_JOBS_PER_MINUTE).toBe(5);
    expect(createSubmissionThrottle().maxPerMinute).toBe(5);
    expect(() => createSubmissionThrottle(0)).toThrow(/maxJobsPerMinute/);
  });

  it('submits 12 jobs to the fake Runtime with never more than 5 in any minute, and waits no longer', async () => {
    const clock = virtualClock();
    const { client, times } = timedClient(clock);
    const result = await runSamplerJobs(
      client,
      run({ throttle: createSubmissionThrottle(5, { clock }) }),
    );
    expect(result.jobIds).toHaveLength(12);
    expect(jobPosts()).toHaveLength(12);
    // Sliding window: job k + 5 goes exactly a minute after job k ended (virtual time).
    for (let k = 0; k + 5 < times.length; k++)
      expect(times[k + 5]! - times[k]!).toBeGreaterThanOrEqual(RATE_WINDOW_MS);
    expect(times).toEqual([0, 0, 0, 0, 0, 6e4, 6e4, 6e4, 6e4, 6e4, 12e4, 12e4]);
    expect(clock.waits).toEqual([6e4, 6e4]);
  });

  it('is shared across calls: a second run waits for the first run’s minute', async () => {
    const clock = virtualClock();
    const throttle = createSubmissionThrottle(3, { clock });
    const { client, times } = timedClient(clock);
    const two = (k: number) => run({ throttle, pubs: run({}).pubs.slice(0, k) });
    await runSamplerJobs(client, two(2));
    clock.t += 10_000;
    await runSamplerJobs(client, two(2));
    expect(times).toEqual([0, 0, 10_000, 60_000]);
  });

  it('stops waiting when the run is aborted, submits nothing more, and cancels what is pending', async () => {
    fake.completeAfterMs = 60_000;
    const abort = new AbortController();
    const clock = virtualClock();
    const sleep = clock.sleep;
    clock.sleep = async (ms, signal) => {
      abort.abort(new Error('stop'));
      return sleep(ms, signal);
    };
    const { client } = timedClient(clock);
    const throttle = createSubmissionThrottle(2, { clock });
    const e = await rejection(runSamplerJobs(client, run({ throttle, signal: abort.signal })));
    expect(e).toMatchObject({ code: 'ADAPTER_TIMEOUT', cause: { message: 'stop' } });
    expect(jobPosts()).toHaveLength(2);
    const cancels = fake.requests.filter((r) => r.path.endsWith('/cancel'));
    expect(cancels).toHaveLength(2);
  });

  it('reports each wait through debug', async () => {
    const clock = virtualClock();
    const lines: string[] = [];
    const throttle = createSubmissionThrottle(1, { clock, debug: (l) => lines.push(l) });
    await throttle.submit(undefined, async () => 'a');
    clock.t += 15_000;
    await throttle.submit(undefined, async () => 'b');
    expect(lines).toEqual([
      'ibm: 1 job(s) submitted within the last minute (maxJobsPerMinute 1): next in 45.0 s',
    ]);
  });
});
