import { causalBatch, createRng } from '@boltzmann/ising-core';
import { describe, expect, it } from 'vitest';
import { anneal, fake, local, problem, useFakeBraket } from './testing/braketHarness.js';
import { rejection } from '../shared/testing/rejection.js';
import { createBraketSampler } from '../index.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

useFakeBraket();

describe('braket failures', () => {
  const batch = () => problem(4, 2);

  it('should classify bad credentials as auth without retrying', async () => {
    const e = await rejection(
      createBraketSampler(
        local({ clientConfig: { credentials: { accessKeyId: 'nope', secretAccessKey: 'x' } } }),
      ).sample(batch()),
    );
    expect(e).toMatchObject({ code: 'ADAPTER_AUTH', reason: 'auth', retryable: false });
    expect(fake.requests).toHaveLength(1);
  });

  it('should retry throttling and internal errors, reusing the clientToken', async () => {
    fake.failures.push({
      match: /^POST \/quantum-task$/,
      status: 429,
      errorType: 'ThrottlingException',
      times: 1,
    });
    fake.failures.push({
      match: /^POST \/quantum-task$/,
      status: 500,
      errorType: 'InternalServiceException',
      times: 1,
    });
    fake.failures.push({
      match: /^GET \/quantum-task\//,
      status: 500,
      errorType: 'InternalServiceException',
      times: 1,
    });
    const result = await createBraketSampler(local({ shots: 10, anneal })).sample(batch());
    expect(result.kind).toBe('samples');
    const posts = fake.requests
      .filter((r) => r.method === 'POST')
      .map((r) => (r.body as { clientToken: string }).clientToken);
    expect(posts).toHaveLength(3);
    expect(new Set(posts).size).toBe(1);
    expect(fake.tasks.size).toBe(1);
  });

  it('should not retry validation or quota errors', async () => {
    fake.failures.push({ match: /^POST/, status: 400, errorType: 'ValidationException', times: 5 });
    expect(await rejection(createBraketSampler(local()).sample(batch()))).toMatchObject({
      code: 'ADAPTER_REJECTED',
      retryable: false,
    });
    fake.failures = [
      { match: /^POST/, status: 402, errorType: 'ServiceQuotaExceededException', times: 5 },
    ];
    expect(await rejection(createBraketSampler(local()).sample(batch()))).toMatchObject({
      code: 'ADAPTER_QUOTA',
      reason: 'quota',
      retryable: false,
    });
    expect(fake.requests.filter((r) => r.method === 'POST')).toHaveLength(2);
  });

  it('should time out when the service never answers, and at the run deadline while queued (then cancel)', async () => {
    fake.hang = /^GET \/quantum-task/;
    const e = await rejection(
      createBraketSampler(
        local({ requestTimeoutMs: 100, retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 } }),
      ).sample(batch()),
    );
    expect(e).toMatchObject({ code: 'ADAPTER_TIMEOUT', reason: 'timeout', retryable: true });
    fake.hang = undefined;
    fake.completeAfterMs = 60_000;
    const late = await rejection(createBraketSampler(local({ deadlineMs: 300 })).sample(batch()));
    expect(late).toMatchObject({ code: 'ADAPTER_TIMEOUT', retryable: true });
    expect(late.message).toContain('deadline of 300 ms');
    expect(fake.requests.some((r) => r.method === 'PUT' && r.path.endsWith('/cancel'))).toBe(true);
  });

  it('should stop the other tasks (and cancel them) as soon as one fails', async () => {
    fake.taskPlan = (i) =>
      i === 1 ? { outcome: 'FAILED', delayMs: 0 } : { outcome: 'COMPLETED', delayMs: 60_000 };
    const rng = createRng(3);
    const batch = causalBatch(
      Float64Array.from({ length: 9 }, () => rng.normal()),
      new Float64Array(9),
      { batch: 1, length: 3 },
    );
    // With a 10-minute deadline, waiting for the 60-second tasks would exceed the test timeout.
    const e = await rejection(
      createBraketSampler(local({ concurrency: 3, deadlineMs: 600_000 })).sample(batch),
    );
    expect(e).toMatchObject({ code: 'ADAPTER_PROBLEM_FAILED', retryable: false });
    const cancelled = fake.requests.filter((r) => r.method === 'PUT' && r.path.endsWith('/cancel'));
    expect(cancelled).toHaveLength(2);
    expect([...fake.tasks.values()].filter((t) => t.status === 'CANCELLED')).toHaveLength(2);
  });

  it('should surface FAILED and CANCELLED tasks', async () => {
    fake.outcome = 'FAILED';
    const failed = await rejection(createBraketSampler(local()).sample(batch()));
    expect(failed).toMatchObject({ code: 'ADAPTER_PROBLEM_FAILED', retryable: false });
    expect(failed.message).toContain('fake device failure');
    fake.outcome = 'CANCELLED';
    expect(await rejection(createBraketSampler(local()).sample(batch()))).toMatchObject({
      code: 'ADAPTER_PROBLEM_CANCELLED',
      retryable: false,
    });
  });

  it('should reject malformed or missing results as non-retryable', async () => {
    const cases: [(r: Record<string, unknown>) => unknown, string, string][] = [
      [() => '{"measurements": [[0,', 'is not JSON', 'ADAPTER_MALFORMED'],
      [(r) => ({ ...r, braketSchemaHeader: { name: 'x' } }), 'schema "x"', 'ADAPTER_MALFORMED'],
      [(r) => ({ ...r, measurements: [[0, 2]] }), 'is not a row of 2 bits', 'ADAPTER_MALFORMED'],
      [(r) => ({ ...r, measurements: [[0]] }), 'is not a row of 2 bits', 'ADAPTER_MALFORMED'],
      [(r) => ({ ...r, measuredQubits: [0] }), 'spin 1 needs qubit 1', 'ADAPTER_MALFORMED'],
      [
        ({ measurements: _m, ...r }) => r,
        'neither measurements nor measurementProbabilities',
        'ADAPTER_MALFORMED',
      ],
    ];
    for (const [tamper, fragment, code] of cases) {
      fake.tamperResult = tamper;
      const e = await rejection(createBraketSampler(local({ shots: 5 })).sample(batch()));
      expect(e, fragment).toMatchObject({ code, retryable: false });
      expect(e.message).toContain(fragment);
    }
    fake.tamperResult = undefined;
    fake.hang = undefined;
    fake.failures.push({
      match: /^GET \/amazon-braket-test\//,
      status: 404,
      errorType: 'NoSuchKey',
      times: 1,
    });
    expect(await rejection(createBraketSampler(local()).sample(batch()))).toMatchObject({
      code: 'ADAPTER_NOT_FOUND',
      retryable: false,
    });
  });

  it('should require a bucket outside dry runs', () => {
    expect(() => createBraketSampler({})).toThrow(
      expect.objectContaining({ code: 'ADAPTER_INVALID_ARGUMENT' }),
    );
  });
});
