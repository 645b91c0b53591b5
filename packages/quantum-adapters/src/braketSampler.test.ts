import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { annealDistribution, toQasm3 } from '@boltzmann/dqa-sim';
import { causalBatch, createIsingBatch, createRng } from '@boltzmann/ising-core';
import type { SampleResult } from '@boltzmann/ising-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeBraket } from './internal/testing/fakeBraketServer.js';
import type { FakeBraket } from './internal/testing/fakeBraketServer.js';
import { fastTiming, rejection } from './internal/testing/rejection.js';
import { batchProblemToQasm, createBraketSampler, SV1_DEVICE_ARN } from './index.js';
import type { BraketSamplerOptions } from './index.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

let fake: FakeBraket;
beforeEach(async () => {
  fake = await startFakeBraket();
});
afterEach(() => fake.close());

const local = (extra: Partial<BraketSamplerOptions> = {}): BraketSamplerOptions => ({
  endpoint: fake.url,
  s3Endpoint: fake.url,
  region: 'us-east-1',
  clientConfig: { credentials: { accessKeyId: 'test', secretAccessKey: 'test' } },
  outputS3Bucket: 'amazon-braket-test',
  ...fastTiming(),
  ...extra,
});

const anneal = { tau: 4, steps: 8, order: 2 as const, calibrate: false as const };

function problem(seed: number, n: number) {
  const rng = createRng(seed);
  const fields = Float64Array.from({ length: n }, () => rng.normal());
  const couplings = Float64Array.from({ length: n * n }, (_, i) =>
    Math.floor(i / n) < i % n ? 0.7 * rng.normal() : 0,
  );
  return createIsingBatch({ fields, couplings, spins: [n], stride: n, beta: 0.8 });
}

/** Distribution of the sample set, indexed like dqa-sim (bit j set ⇔ s_j = +1). */
function empirical(result: SampleResult, n: number): Float64Array {
  if (result.kind !== 'samples') throw new Error('expected samples');
  const set = result.sets[0]!;
  const p = new Float64Array(2 ** n);
  let total = 0;
  set.weights.forEach((w, i) => {
    let index = 0;
    for (let j = 0; j < n; j++) if (set.states[i * n + j] === 1) index |= 1 << j;
    p[index]! += w;
    total += w;
  });
  return p.map((x) => x / total);
}

describe('createBraketSampler against a local Braket + S3', () => {
  it('should run the DQA circuit and return its output distribution (measurements form)', async () => {
    const n = 3;
    const batch = problem(2, n);
    const sampler = createBraketSampler(local({ shots: 20_000, anneal }));
    const result = await sampler.sample(batch);
    const want = annealDistribution(
      { fields: batch.fields, couplings: batch.couplings },
      { ...anneal, beta: 0.8 },
    );
    const got = empirical(result, n);
    const tv = got.reduce((acc, p, s) => acc + Math.abs(p - want[s]!), 0) / 2;
    expect(tv).toBeLessThan(0.03);
    const create = fake.requests.find((r) => r.method === 'POST')!.body as {
      deviceArn: string;
      shots: number;
      outputS3KeyPrefix: string;
      action: string;
    };
    expect(create.deviceArn).toBe(SV1_DEVICE_ARN);
    expect(create.shots).toBe(20_000);
    expect(create.outputS3KeyPrefix).toBe('boltzmann-attention');
    const action = JSON.parse(create.action);
    expect(action.braketSchemaHeader).toEqual({ name: 'braket.ir.openqasm.program', version: '1' });
    expect(action.source).toMatch(/^OPENQASM 3\.0;/);
    expect(action.source).not.toContain('include');
    expect(action.source).toContain('zz(');
    expect(sampler.lastRunInfo()!.taskArns).toHaveLength(1);
    expect(sampler.lastRunInfo()!.resultKeys[0]).toMatch(
      /^boltzmann-attention\/[0-9a-f-]+\/results\.json$/,
    );
  });

  it('should read measurementProbabilities as exact weights', async () => {
    fake.resultForm = 'probabilities';
    const n = 2;
    const batch = problem(3, n);
    const result = await createBraketSampler(local({ shots: 100, anneal })).sample(batch);
    const want = annealDistribution(
      { fields: batch.fields, couplings: batch.couplings },
      { ...anneal, beta: 0.8 },
    );
    const got = empirical(result, n);
    for (let s = 0; s < 4; s++) expect(got[s]!).toBeCloseTo(want[s]!, 10);
  });

  it('should run a causal batch concurrently and keep problem order', async () => {
    const rng = createRng(9);
    const batch = causalBatch(
      Float64Array.from({ length: 9 }, () => 3 * rng.normal()),
      new Float64Array(9),
      { batch: 1, length: 3 },
    );
    const sampler = createBraketSampler(local({ shots: 50, concurrency: 2, anneal }));
    const result = await sampler.sample(batch);
    expect(result.kind === 'samples' && result.sets.map((s) => s.spins)).toEqual([1, 2, 3]);
    expect(new Set(sampler.lastRunInfo()!.taskArns).size).toBe(3);
  });
});

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

describe('batchProblemToQasm', () => {
  it("should export dqa-sim's Braket-dialect circuit with β applied, and refuse bad indices", async () => {
    const batch = problem(6, 2);
    const qasm = await batchProblemToQasm(batch, 0, anneal);
    const direct = toQasm3(
      { fields: batch.fields, couplings: batch.couplings },
      { ...anneal, beta: 0.8, dialect: 'braket' },
    );
    expect(qasm).toBe(direct);
    await expect(batchProblemToQasm(batch, 1)).rejects.toMatchObject({
      code: 'ADAPTER_INVALID_ARGUMENT',
    });
  });
});

describe('braket dry run', () => {
  it('should answer from the named dqa fallback with the same circuit options', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'braket-dry-'));
    const batch = problem(7, 3);
    const result = await createBraketSampler({
      dryRun: { dir, fallback: 'dqa', fallbackOptions: { shots: 0 } },
      anneal,
    }).sample(batch);
    expect(result.kind).toBe('dense');
    const want = annealDistribution(
      { fields: batch.fields, couplings: batch.couplings },
      { ...anneal, beta: 0.8 },
    );
    if (result.kind === 'dense')
      result.distributions[0]!.forEach((p, s) => expect(p).toBeCloseTo(want[s]!, 12));
    expect(readdirSync(join(dir, 'braket-0001'))).toContain('problem-0000.qasm');
    expect(() => createBraketSampler({ dryRun: { dir, fallback: 'exact' as never } })).toThrow(
      expect.objectContaining({ code: 'ADAPTER_INVALID_ARGUMENT' }),
    );
  });

  it('should write the QASM programs and CreateQuantumTask inputs, then throw ADAPTER_DRY_RUN', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'braket-dry-'));
    const batch = problem(5, 3);
    const e = await rejection(
      createBraketSampler({ dryRun: { dir }, anneal, region: 'eu-west-2' }).sample(batch),
    );
    expect(e).toMatchObject({ code: 'ADAPTER_DRY_RUN', reason: 'rejected', retryable: false });
    const call = join(dir, 'braket-0001');
    expect(readdirSync(call).sort()).toEqual([
      'create-quantum-task-0000.json',
      'problem-0000.qasm',
    ]);
    const input = JSON.parse(readFileSync(join(call, 'create-quantum-task-0000.json'), 'utf8'));
    expect(JSON.parse(input.action).source).toBe(
      readFileSync(join(call, 'problem-0000.qasm'), 'utf8'),
    );
    expect(input.outputS3Bucket).toBe('amazon-braket-eu-west-2-<account-id>');
    expect(fake.requests).toHaveLength(0);
  });
});
