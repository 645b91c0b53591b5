// Issue 38, probing the ibm sampler as an adversary would: a server that answers more or fewer
// shots than asked, option values at the edge (shots, deadlineMs, debug), and IAM answers whose
// expires_in would make the key be exchanged before every request.
import { codeOf } from '@boltzmann/ising-core/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { problem } from '../shared/testing/circuitProblems.js';
import { declaredRegister } from './testing/fakeRuntimeServer.js';
import { rejection } from '../shared/testing/rejection.js';
import { clientOptions, fake, samplerOptions, useFakeRuntime } from './testing/runtimeHarness.js';
import { createIbmSampler } from './ibmSampler.js';
import { createRuntimeClient } from './runtimeClient.js';

useFakeRuntime();
const seen = () => fake.requests.map((r) => `${r.method} ${r.path.replace(/\?.*$/, '')}`);
const cancels = () => seen().filter((r) => /^POST \/api\/v1\/jobs\/[^/]+\/cancel$/.test(r));

/** The fake answers every pub with `count` all-zero shots, whatever was asked. */
function answerShots(count: number): void {
  fake.answerPub = (pub) => ({
    ...declaredRegister(pub.qasm),
    samples: new Array<string>(count).fill('0x0'),
  });
}

describe('ibm results: the shots returned against the shots asked', () => {
  for (const count of [3_200, 1, 63]) {
    it(`refuses ${count} shots returned for 64 asked, as malformed and not retryable`, async () => {
      answerShots(count);
      const e = await rejection(
        createIbmSampler(samplerOptions({ shots: 64 })).sample(problem(1, 3)),
      );
      expect(e).toMatchObject({ code: 'ADAPTER_MALFORMED', retryable: false });
      expect(e.message).toContain(`${count} shots`);
      expect(e.message).toContain('64 asked');
      expect(e.message).toContain('a retry would not help');
    });
  }

  it('refuses a results answer far larger than the shots asked before reading it whole', async () => {
    answerShots(400_000);
    const e = await rejection(
      createIbmSampler(samplerOptions({ shots: 64 })).sample(problem(1, 3)),
    );
    expect(e).toMatchObject({ code: 'ADAPTER_RESPONSE_TOO_LARGE', retryable: false });
    expect(e.message).toContain('64 shots');
    expect(e.message).toContain('a retry would not help');
  });

  it('accepts exactly the shots asked', async () => {
    answerShots(64);
    const result = await createIbmSampler(samplerOptions({ shots: 64 })).sample(problem(1, 3));
    expect(result.kind === 'samples' && result.sets[0]!.weights[0]).toBe(64);
  });
});

describe('ibm options at their edges', () => {
  it('bounds shots at 100,000 (IBM backends’ max_shots) when the sampler is created', async () => {
    for (const shots of [1e9, 100_001, 2 ** 53])
      expect(
        codeOf(() => createIbmSampler(samplerOptions({ shots }))),
        String(shots),
      ).toBe('ADAPTER_INVALID_ARGUMENT');
    expect(() => createIbmSampler(samplerOptions({ shots: 100_000 }))).not.toThrow();
    expect(fake.requests).toEqual([]);
  });

  it('refuses a debug option that is not a function, at creation, with a code', async () => {
    for (const debug of [true, 'yes', 1, {}]) {
      expect(codeOf(() => createIbmSampler(samplerOptions({ debug: debug as never })))).toBe(
        'ADAPTER_INVALID_ARGUMENT',
      );
      expect(codeOf(() => createRuntimeClient(clientOptions({ debug: debug as never })))).toBe(
        'ADAPTER_INVALID_ARGUMENT',
      );
    }
    expect(fake.requests).toEqual([]);
  });

  it('bounds deadlineMs at 30 days', () => {
    for (const deadlineMs of [31 * 86_400_000, 1e300])
      expect(codeOf(() => createIbmSampler(samplerOptions({ deadlineMs })))).toBe(
        'ADAPTER_INVALID_ARGUMENT',
      );
  });
});

describe('an ibm deadline beyond 2^31 − 1 ms', () => {
  afterEach(() => vi.useRealTimers());

  it('really waits (in timer slices), then cancels the pending job when it expires', async () => {
    // Real I/O (the fake server) keeps running; only timers are faked, so the test steps time.
    const realWait = globalThis.setTimeout;
    const tick = () => new Promise((r) => realWait(r, 5));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    fake.completeAfterMs = 1e12;
    const deadlineMs = 2 ** 31 + 60_000;
    let outcome: unknown;
    const run = createIbmSampler(
      samplerOptions({ deadlineMs, pollBackoff: { initialMs: 1_000, maxMs: 60_000 } }),
    )
      .sample(problem(1, 3))
      .then(
        () => (outcome = 'resolved'),
        (e: unknown) => (outcome = e),
      );
    const polls = () => seen().filter((r) => r === 'GET /api/v1/jobs/job-1').length;
    for (let i = 0; i < 400 && polls() < 1; i++) await tick();
    expect(polls()).toBe(1);
    // A day later the run still polls: the deadline has not fired at once.
    await vi.advanceTimersByTimeAsync(86_400_000);
    for (let i = 0; i < 400 && polls() < 2 && outcome === undefined; i++) await tick();
    expect(outcome).toBeUndefined();
    expect(polls()).toBeGreaterThanOrEqual(2);
    expect(cancels()).toEqual([]);
    // Past the deadline: the run fails with ADAPTER_TIMEOUT and cancels the job.
    await vi.advanceTimersByTimeAsync(deadlineMs);
    for (let i = 0; i < 400 && outcome === undefined; i++) await tick();
    await run;
    expect(outcome).toMatchObject({ code: 'ADAPTER_TIMEOUT' });
    expect(String((outcome as Error).message)).toContain(`${deadlineMs} ms`);
    for (let i = 0; i < 400 && cancels().length === 0; i++) await tick();
    expect(cancels()).toEqual(['POST /api/v1/jobs/job-1/cancel']);
  });
});
