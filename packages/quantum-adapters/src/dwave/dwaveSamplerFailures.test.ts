import { describe, expect, it } from 'vitest';
import { fake, fast, randomCausal, setFake, TOKEN, useFakeSapi } from './testing/dwaveHarness.js';
import { startFakeSapi } from './testing/fakeSapiServer.js';
import { fakeChimeraSolver } from './testing/fakeSolvers.js';
import { rejection } from '../shared/testing/rejection.js';
import { createDwaveSampler } from '../index.js';

useFakeSapi();

describe('dwave failures', () => {
  const batch = () => randomCausal(4, 2);

  it('should fail with auth on 401, not retry, and never reveal the token', async () => {
    const lines: string[] = [];
    const e = await rejection(
      createDwaveSampler(fast({ token: `${TOKEN}-wrong`, debug: (l) => lines.push(l) })).sample(
        batch(),
      ),
    );
    expect(e).toMatchObject({
      code: 'ADAPTER_AUTH',
      reason: 'auth',
      retryable: false,
      status: 401,
    });
    expect(e.message).toContain('Invalid token ***');
    expect(e.message).not.toContain(TOKEN);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain(TOKEN);
    expect(lines.join('\n')).toContain('X-Auth-Token: ***');
    expect(fake.requests).toHaveLength(1);
  });

  it('should take the token from DWAVE_API_TOKEN and fail fast without one', async () => {
    const saved = process.env.DWAVE_API_TOKEN;
    try {
      delete process.env.DWAVE_API_TOKEN;
      expect(() => createDwaveSampler({ endpoint: fake.url })).toThrow(
        expect.objectContaining({ code: 'ADAPTER_AUTH', retryable: false }),
      );
      process.env.DWAVE_API_TOKEN = TOKEN;
      const { token: _t, ...rest } = fast({ numReads: 5 });
      await createDwaveSampler(rest).sample(batch());
      expect(fake.requests.every((r) => r.headers['x-auth-token'] === TOKEN)).toBe(true);
    } finally {
      if (saved === undefined) delete process.env.DWAVE_API_TOKEN;
      else process.env.DWAVE_API_TOKEN = saved;
    }
  });

  it('should retry 429 after Retry-After and 5xx on polls, then succeed', async () => {
    fake.failures.push({ match: /^POST problems\/$/, status: 429, retryAfter: '0', times: 2 });
    fake.failures.push({ match: /^GET problems\/$/, status: 503, times: 1 });
    fake.failures.push({ match: /^GET solvers/, status: 502, times: 1 });
    const sampler = createDwaveSampler(fast({ numReads: 5 }));
    const result = await sampler.sample(batch());
    expect(result.kind).toBe('samples');
    expect(fake.requests.filter((r) => r.method === 'POST')).toHaveLength(3);
    expect(fake.failures.every((f) => f.times === 0)).toBe(true);
  });

  it('should stop after maxAttempts with a retryable error', async () => {
    fake.failures.push({ match: /^GET solvers/, status: 503, times: 10 });
    const e = await rejection(
      createDwaveSampler(fast({ retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 } })).sample(
        batch(),
      ),
    );
    expect(e).toMatchObject({
      code: 'ADAPTER_UNAVAILABLE',
      reason: 'unavailable',
      retryable: true,
    });
    expect(fake.requests).toHaveLength(3);
  });

  it('should retry a submit whose connection was refused (nothing was sent)', async () => {
    const solverDefinition = fakeChimeraSolver({ rows: 2, columns: 2, shore: 4 });
    const closedUrl = fake.url;
    await fake.close();
    const lines: string[] = [];
    const e = await rejection(
      createDwaveSampler(
        fast({
          endpoint: closedUrl,
          solverDefinition,
          retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 },
          debug: (l) => lines.push(l),
        }),
      ).sample(batch()),
    );
    expect(e).toMatchObject({
      code: 'ADAPTER_UNAVAILABLE',
      reason: 'unavailable',
      retryable: true,
    });
    expect(e.message).toContain('ECONNREFUSED');
    expect(lines.filter((l) => l.startsWith('retrying POST problems/'))).toHaveLength(2);
    setFake(await startFakeSapi({ token: TOKEN }));
  });

  it('should not repeat a submit that may have reached the server (500 on POST)', async () => {
    fake.failures.push({ match: /^POST problems\/$/, status: 500, times: 1 });
    const e = await rejection(createDwaveSampler(fast()).sample(batch()));
    expect(e).toMatchObject({ code: 'ADAPTER_UNAVAILABLE', retryable: true });
    expect(fake.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('should hit the request deadline when the server never answers, then give up and cancel', async () => {
    fake.hang = /^GET problems\/$/;
    const e = await rejection(
      createDwaveSampler(
        fast({ requestTimeoutMs: 100, retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 } }),
      ).sample(batch()),
    );
    expect(e).toMatchObject({ code: 'ADAPTER_TIMEOUT', reason: 'timeout', retryable: true });
    expect(fake.requests.some((r) => r.method === 'DELETE')).toBe(true);
    expect([...fake.problems.values()].every((p) => p.status === 'CANCELLED')).toBe(true);
  });

  it('should stop at the overall deadline while problems stay pending', async () => {
    fake.completeAfterMs = 60_000;
    const e = await rejection(createDwaveSampler(fast({ deadlineMs: 300 })).sample(batch()));
    expect(e).toMatchObject({ code: 'ADAPTER_TIMEOUT', retryable: true });
    expect(e.message).toContain('deadline of 300 ms');
    expect([...fake.problems.values()].every((p) => p.status === 'CANCELLED')).toBe(true);
  });

  it('should surface FAILED and CANCELLED problems with the right classification', async () => {
    fake.outcome = 'FAILED';
    const failed = await rejection(createDwaveSampler(fast()).sample(batch()));
    expect(failed).toMatchObject({
      code: 'ADAPTER_PROBLEM_FAILED',
      reason: 'rejected',
      retryable: false,
    });
    expect(failed.message).toContain('problem rejected by the fake solver');
    fake.failMessage = 'Solver is offline for maintenance';
    expect(await rejection(createDwaveSampler(fast()).sample(batch()))).toMatchObject({
      code: 'ADAPTER_UNAVAILABLE',
      retryable: true,
    });
    fake.outcome = 'CANCELLED';
    expect(await rejection(createDwaveSampler(fast()).sample(batch()))).toMatchObject({
      code: 'ADAPTER_PROBLEM_CANCELLED',
      retryable: false,
    });
  });

  it('should reject malformed answers as malformed, without retrying', async () => {
    const cases: [(a: Record<string, unknown>) => unknown, string][] = [
      [(a) => ({ ...a, solutions: '!!notbase64!!' }), 'not valid base64'],
      [(a) => ({ ...a, energies: 'AAAA' }), 'not a multiple of 8'],
      [(a) => ({ ...a, num_occurrences: 'AQAAAA==AQAAAA==' }), 'not valid base64'],
      [(a) => ({ ...a, solutions: '' }), 'answer.solutions has 0 bytes'],
      [({ active_variables: _drop, ...a }) => a, 'active_variables must be a base64 string'],
      [() => null, 'carries no answer'],
    ];
    for (const [tamper, fragment] of cases) {
      fake.tamperAnswer = tamper;
      const before = fake.requests.length;
      const e = await rejection(createDwaveSampler(fast({ numReads: 50 })).sample(batch()));
      expect(e, fragment).toMatchObject({
        code: 'ADAPTER_MALFORMED',
        reason: 'malformed',
        retryable: false,
      });
      expect(e.message).toContain(fragment);
      expect(
        fake.requests.slice(before).filter((r) => /^problems\/fake-\d+\/$/.test(r.path)).length,
      ).toBeLessThanOrEqual(batch().size);
    }
  });

  it('should cancel the accepted jobs of a submit in which one job was refused', async () => {
    fake.refuseJob = (i) => i === 1;
    fake.completeAfterMs = 60_000;
    const e = await rejection(createDwaveSampler(fast()).sample(randomCausal(4, 2)));
    expect(e).toMatchObject({ code: 'ADAPTER_REJECTED', retryable: false });
    expect(e.message).toContain('job 1 refused by the fake');
    const cancelled = fake.requests.find((r) => r.method === 'DELETE')!.body as string[];
    expect(cancelled).toHaveLength(3);
    expect([...fake.problems.values()].every((p) => p.status === 'CANCELLED')).toBe(true);
  });

  it('should report per-job submit errors and unknown solvers', async () => {
    expect(
      await rejection(createDwaveSampler(fast({ solver: 'Advantage_system9.9' })).sample(batch())),
    ).toMatchObject({ code: 'ADAPTER_NO_SOLVER', retryable: false });
    const other = fakeChimeraSolver({ rows: 1, columns: 1, shore: 4 }, { name: 'Ghost' });
    const e = await rejection(
      createDwaveSampler(fast({ solverDefinition: other })).sample(batch()),
    );
    expect(e).toMatchObject({ code: 'ADAPTER_NOT_FOUND', retryable: false });
    expect(e.message).toContain('job 0 of POST problems/');
  });
});
