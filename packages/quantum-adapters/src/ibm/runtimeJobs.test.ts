import { describe, expect, it } from 'vitest';
import { drawHexShots } from './testing/fakeRuntimeServer.js';
import { rejection } from '../shared/testing/rejection.js';
import {
  clientOptions,
  expectNoLeaks,
  fake,
  qasm,
  useFakeRuntime,
} from './testing/runtimeHarness.js';
import { runDeadline } from '../shared/retry.js';
import { decodeSamplerResults } from './ibmResults.js';
import { createRuntimeClient } from './runtimeClient.js';
import { runSamplerJobs } from './runtimeJobs.js';
import type { RunSamplerJobsOptions } from './runtimeJobs.js';
import type { SamplerPub } from './runtimeTypes.js';

useFakeRuntime();
const WEIGHTS = [0.1, 0.2, 0.3, 0.4];
const pubs = (count: number, shots = 100): SamplerPub[] =>
  Array.from({ length: count }, () => [qasm(2), null, shots] as const);
const options = (extra: Partial<RunSamplerJobsOptions> = {}): RunSamplerJobsOptions => ({
  backend: 'fake_line7',
  pubs: pubs(1),
  maxPubsPerJob: 2,
  sessionMode: 'batch',
  signal: new AbortController().signal,
  backoff: { initialMs: 5, factor: 1.5, maxMs: 20 },
  cancelTimeoutMs: 1_000,
  ...extra,
});
const cancels = () =>
  fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/cancel')).map((r) => r.path);

describe('runSamplerJobs', () => {
  it('should split pubs into jobs in one batch session, close it, and return results that decode to the drawn distribution', async () => {
    fake.answerPub = (pub, rng) => ({
      register: 'c',
      numBits: 2,
      samples: drawHexShots(WEIGHTS, pub.shots, rng),
    });
    const client = createRuntimeClient(clientOptions());
    const run = await runSamplerJobs(client, options({ pubs: pubs(5, 4000), tags: ['t1'] }));
    expect(run.jobIds).toEqual(['job-1', 'job-2', 'job-3']);
    expect(run.sessionId).toBe('session-1');
    expect(fake.sessions.get('session-1')).toMatchObject({ mode: 'batch', acceptingJobs: false });
    expect([...fake.jobs.values()].map((j) => j.sessionId)).toEqual(Array(3).fill('session-1'));
    expect(run.results).toHaveLength(3);
    const layout = { register: 'c', numBits: 2, logicalOfBit: [1, 0] };
    const sets = run.results.flatMap((r, j) =>
      decodeSamplerResults(r, j < 2 ? [layout, layout] : [layout]),
    );
    expect(sets).toHaveLength(5);
    // c = v: c[0] → logical 1, c[1] → logical 0; bit 1 → spin −1.
    const expected: Record<string, number> = { '1,1': 0.1, '1,-1': 0.2, '-1,1': 0.3, '-1,-1': 0.4 };
    for (const set of sets) {
      const total = set.weights.reduce((a, b) => a + b, 0);
      expect(total).toBe(4000);
      for (let r = 0; r < set.weights.length; r++) {
        const key = `${set.states[2 * r]},${set.states[2 * r + 1]}`;
        expect(set.weights[r]! / total, key).toBeCloseTo(expected[key]!, 1);
      }
    }
    expect(cancels()).toEqual([]);
    expectNoLeaks();
  });

  it('should run plain jobs without a session when sessionMode is none', async () => {
    const client = createRuntimeClient(clientOptions());
    const run = await runSamplerJobs(client, options({ sessionMode: 'none', pubs: pubs(3) }));
    expect(run).not.toHaveProperty('sessionId');
    expect(run.jobIds).toHaveLength(2);
    expect(fake.sessions.size).toBe(0);
  });

  it('should fail with ADAPTER_PROBLEM_FAILED and the reason when a job fails, and still close the session', async () => {
    fake.outcome = 'Failed';
    fake.failReason = 'Instruction rzz on qubits (0, 3) is not supported';
    const e = await rejection(runSamplerJobs(createRuntimeClient(clientOptions()), options()));
    expect(e).toMatchObject({ code: 'ADAPTER_PROBLEM_FAILED', retryable: false });
    expect(e.message).toContain('job-1 failed');
    expect(e.message).toContain('rzz on qubits (0, 3)');
    expect(fake.sessions.get('session-1')!.acceptingJobs).toBe(false);
  });

  it('should fail with ADAPTER_PROBLEM_CANCELLED when a job was cancelled on the server', async () => {
    fake.outcome = 'Cancelled';
    const e = await rejection(runSamplerJobs(createRuntimeClient(clientOptions()), options()));
    expect(e).toMatchObject({ code: 'ADAPTER_PROBLEM_CANCELLED', retryable: false });
  });

  it('should return a tampered result for decodeSamplerResults to refuse as malformed', async () => {
    fake.tamperResults = (r) => ({
      ...r,
      results: [{ data: { c: { samples: ['0xZZ'], num_bits: 2 } } }],
    });
    const run = await runSamplerJobs(createRuntimeClient(clientOptions()), options());
    expect(() =>
      decodeSamplerResults(run.results[0], [{ register: 'c', numBits: 2, logicalOfBit: [0, 1] }]),
    ).toThrow(
      expect.objectContaining({
        code: 'ADAPTER_MALFORMED',
        message: expect.stringContaining('not a hex string'),
      }),
    );
  });

  it('should cancel the pending jobs on the server when the caller aborts', async () => {
    fake.completeAfterMs = 60_000;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 150);
    const e = await rejection(
      runSamplerJobs(
        createRuntimeClient(clientOptions()),
        options({ pubs: pubs(4), signal: controller.signal }),
      ),
    );
    expect(e).toMatchObject({ code: 'ADAPTER_TIMEOUT' });
    expect(cancels().sort()).toEqual(['/api/v1/jobs/job-1/cancel', '/api/v1/jobs/job-2/cancel']);
    expect([...fake.jobs.values()].map((j) => j.status)).toEqual(['Cancelled', 'Cancelled']);
    expect(fake.sessions.get('session-1')!.acceptingJobs).toBe(false);
    expectNoLeaks();
  });

  it('should stop at the run deadline and cancel what is pending', async () => {
    fake.completeAfterMs = 60_000;
    const deadline = runDeadline(300, 'the ibm run');
    try {
      const e = await rejection(
        runSamplerJobs(createRuntimeClient(clientOptions()), options({ signal: deadline.signal })),
      );
      expect(e).toMatchObject({ code: 'ADAPTER_TIMEOUT', retryable: true });
      expect(e.message).toContain('deadline of 300 ms');
    } finally {
      deadline.clear();
    }
    expect(cancels()).toEqual(['/api/v1/jobs/job-1/cancel']);
    expect(fake.jobs.get('job-1')!.status).toBe('Cancelled');
  });

  it('should cancel the accepted jobs when a later submit is refused', async () => {
    fake.completeAfterMs = 60_000;
    const client = createRuntimeClient(clientOptions());
    let submitted = 0;
    const refusingSecond = {
      ...client,
      submitSamplerJob: (...args: Parameters<typeof client.submitSamplerJob>) => {
        if (++submitted === 2)
          fake.failures.push({ match: /^POST \/api\/v1\/jobs$/, status: 400, times: 1 });
        return client.submitSamplerJob(...args);
      },
    };
    const e = await rejection(runSamplerJobs(refusingSecond, options({ pubs: pubs(4) })));
    expect(e).toMatchObject({ code: 'ADAPTER_REJECTED' });
    expect(cancels()).toEqual(['/api/v1/jobs/job-1/cancel']);
    expect(fake.jobs.get('job-1')!.status).toBe('Cancelled');
  });

  it('should keep the clean-up within cancelTimeoutMs when cancel requests hang', async () => {
    fake.completeAfterMs = 60_000;
    fake.hang = /cancel$|^PATCH /;
    const deadline = runDeadline(100, 'the ibm run');
    const started = Date.now();
    try {
      await rejection(
        runSamplerJobs(
          createRuntimeClient(clientOptions()),
          options({ signal: deadline.signal, cancelTimeoutMs: 200 }),
        ),
      );
    } finally {
      deadline.clear();
    }
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(cancels()).toHaveLength(1);
  });

  it('should refuse bad options before any request', async () => {
    const client = createRuntimeClient(clientOptions());
    for (const bad of [{ pubs: [] }, { maxPubsPerJob: 0 }, { sessionMode: 'dedicated' as never }])
      expect(await rejection(runSamplerJobs(client, options(bad)))).toMatchObject({
        code: 'ADAPTER_INVALID_ARGUMENT',
      });
    expect(fake.requests).toEqual([]);
  });
});
