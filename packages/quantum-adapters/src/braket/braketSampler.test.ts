import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { annealDistribution, toQasm3 } from '@boltzmann/dqa-sim';
import { causalBatch, createRng } from '@boltzmann/ising-core';
import { describe, expect, it } from 'vitest';
import { anneal, fake, local, problem, useFakeBraket } from './testing/braketHarness.js';
import { empirical } from '../shared/testing/circuitProblems.js';
import { rejection } from '../shared/testing/rejection.js';
import { batchProblemToQasm, createBraketSampler, SV1_DEVICE_ARN } from '../index.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

// Failures: braketSamplerFailures.test.ts.
useFakeBraket();

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
      'estimate.json',
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
