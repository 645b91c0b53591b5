import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { causalBatch, createIsingBatch, createRng, estimateBatch } from '@boltzmann/ising-core';
import type { SampleResult, Sampler } from '@boltzmann/ising-core';
import { bruteForceEstimate } from '@boltzmann/ising-core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeSapi } from './internal/testing/fakeSapiServer.js';
import type { FakeSapi } from './internal/testing/fakeSapiServer.js';
import {
  fakeChimeraSolver,
  fakePegasusSolver,
  fakeZephyrSolver,
} from './internal/testing/fakeSolvers.js';
import { kingGraph } from './internal/testing/kingGraph.js';
import { fastTiming, rejection } from './internal/testing/rejection.js';
import { createDwaveSampler } from './index.js';
import type { DwaveSamplerOptions } from './index.js';

const TOKEN = 'DEV-0123456789abcdef-secret';
/** The parts of a submitted SAPI job these tests read. */
type SubmittedJob = { data: { format: string; lin: string }; params: unknown };
let fake: FakeSapi;
const wide = { hRange: [-50, 50] as [number, number], jRange: [-50, 50] as [number, number] };

beforeEach(async () => {
  fake = await startFakeSapi({
    token: TOKEN,
    solvers: [fakeChimeraSolver({ rows: 2, columns: 2, shore: 4 }, wide)],
  });
});
afterEach(() => fake.close());

const fast = (extra: Partial<DwaveSamplerOptions> = {}): DwaveSamplerOptions => ({
  token: TOKEN,
  endpoint: fake.url,
  pollTimeoutSeconds: 1,
  ...fastTiming(),
  ...extra,
});

function randomCausal(seed: number, length: number, beta = 1) {
  const rng = createRng(seed);
  const fields = Float64Array.from({ length: 2 * length * length }, () => 0.8 * rng.normal());
  const couplings = Float64Array.from({ length: length * length }, () => 0.5 * rng.normal());
  return causalBatch(fields, couplings, { batch: 2, length }, beta);
}

describe('createDwaveSampler against a local SAPI', () => {
  it('should sample the Boltzmann distribution through embedding, qp encoding and majority vote', async () => {
    const batch = randomCausal(3, 4, 0.9);
    const sampler = createDwaveSampler(
      fast({ numReads: 10_000, autoScale: false, chainStrength: 6, seed: 5 }),
    );
    const est = await estimateBatch(sampler, batch);
    const exact = bruteForceEstimate(batch);
    for (let i = 0; i < est.magnetization.length; i++)
      expect(Math.abs(est.magnetization[i]! - exact.magnetization[i]!)).toBeLessThan(0.04);
    const info = sampler.lastRunInfo()!;
    expect(info.problemIds).toHaveLength(batch.size);
    expect(info.solver).toBe('FakeChimera_system;graph_id=fake01');
    expect(info.chainBreakFraction).toBeLessThan(0.001);
    expect(info.maxChainLength).toBe(2);
    const submit = fake.requests.find((r) => r.method === 'POST')!;
    expect(submit.headers.accept).toBe('application/vnd.dwave.sapi.problems+json; version=3.0.0');
    expect(submit.headers['x-auth-token']).toBe(TOKEN);
    const job = (submit.body as SubmittedJob[])[0]!;
    expect(job).toMatchObject({
      type: 'ising',
      label: 'boltzmann-attention',
      solver: { name: 'FakeChimera_system', version: { graph_id: 'fake01' } },
    });
    expect(job.data.format).toBe('qp');
    expect(job.params).toEqual({ num_reads: 10_000, answer_mode: 'histogram', auto_scale: false });
  });

  it('should negate β-scaled physics fields (a +2 field gives ⟨s⟩ = +tanh 2 and lin = −2 split over the chain)', async () => {
    const batch = createIsingBatch({
      fields: Float64Array.of(1),
      couplings: new Float64Array(1),
      spins: [1],
      stride: 1,
      beta: 2,
    });
    const sampler = createDwaveSampler(
      fast({ numReads: 10_000, autoScale: false, chainStrength: 6 }),
    );
    const { sets } = (await sampler.sample(batch)) as Extract<SampleResult, { kind: 'samples' }>;
    let m = 0;
    let w = 0;
    sets[0]!.weights.forEach((c, i) => {
      m += c * sets[0]!.states[i]!;
      w += c;
    });
    expect(m / w).toBeCloseTo(Math.tanh(2), 1);
    const lin = Buffer.from(
      (fake.requests.find((r) => r.method === 'POST')!.body as SubmittedJob[])[0]!.data.lin,
      'base64',
    );
    const values = [...new Float64Array(lin.buffer, lin.byteOffset, lin.length / 8)].filter(
      (v) => !Number.isNaN(v),
    );
    expect(values).toEqual([-1, -1]);
  });

  it('should report chain breaks when the chain strength is too weak', async () => {
    const sampler = createDwaveSampler(
      fast({ numReads: 2000, autoScale: false, chainStrength: 0.05 }),
    );
    await sampler.sample(randomCausal(1, 4));
    const info = sampler.lastRunInfo()!;
    expect(info.chainBreakFraction).toBeGreaterThan(0.2);
    expect(info.chainStrengths.every((c) => c === 0.05)).toBe(true);
    expect(info.chainBreakFractions).toHaveLength(8);
  });

  it('should use the torque-compensation chain strength by default and report it', async () => {
    const seen: number[] = [];
    const sampler = createDwaveSampler(
      fast({ numReads: 10, onRun: (i) => seen.push(i.chainBreakFraction) }),
    );
    const batch = randomCausal(2, 3);
    await sampler.sample(batch);
    const info = sampler.lastRunInfo()!;
    expect(seen).toEqual([info.chainBreakFraction]);
    // Problem 0 has one spin (no couplings): the rule gives 1.
    expect(info.chainStrengths[0]).toBe(1);
    const J01 = -batch.couplings[1]!;
    // biome-ignore lint/suspicious/noApproximativeNumericConstant: dwave-system's prefactor is the literal 1.414, not √2.
    expect(info.chainStrengths[1]).toBeCloseTo(1.414 * Math.abs(J01), 12);
  });

  it('should refuse unknown parameters and out-of-range reads before sending', async () => {
    const batch = randomCausal(1, 2);
    const unknown = await rejection(
      createDwaveSampler(fast({ params: { anneal_speed: 2 } })).sample(batch),
    );
    expect(unknown).toMatchObject({ code: 'ADAPTER_INVALID_ARGUMENT' });
    expect(unknown.message).toContain('"anneal_speed"');
    expect(
      await rejection(createDwaveSampler(fast({ numReads: 20_000_000 })).sample(batch)),
    ).toMatchObject({ code: 'ADAPTER_INVALID_ARGUMENT' });
    await createDwaveSampler(
      fast({ numReads: 5, params: { x_experimental: true, annealing_time: 5 } }),
    ).sample(batch);
    expect(fake.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('should refuse problems outside h_range/j_range when autoScale is false', async () => {
    await fake.close();
    fake = await startFakeSapi({ token: TOKEN });
    const batch = createIsingBatch({
      fields: Float64Array.of(9),
      couplings: new Float64Array(1),
      spins: [1],
      stride: 1,
    });
    const e = await rejection(createDwaveSampler(fast({ autoScale: false })).sample(batch));
    expect(e.code).toBe('ADAPTER_INVALID_ARGUMENT');
    expect(e.message).toContain('outside h_range [-4, 4]');
    expect(fake.requests.some((r) => r.method === 'POST')).toBe(false);
  });
});

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
    fake = await startFakeSapi({ token: TOKEN });
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

describe('dwave embeddings and dry runs', () => {
  it('should accept a valid user embedding and refuse an invalid one', async () => {
    const batch = createIsingBatch({
      fields: Float64Array.of(0.2, -0.3),
      couplings: Float64Array.of(0, 0.4, 0, 0),
      spins: [2],
      stride: 2,
    });
    // Chimera (0,0): qubits 0..3 vertical, 4..7 horizontal; 0–4 is a coupler, 0–1 is not.
    const sampler = createDwaveSampler(fast({ embedding: [[0], [4]], numReads: 10 }));
    await sampler.sample(batch);
    expect(sampler.lastRunInfo()!.maxChainLength).toBe(1);
    const e = await rejection(createDwaveSampler(fast({ embedding: [[0], [1]] })).sample(batch));
    expect(e).toMatchObject({ code: 'ADAPTER_EMBEDDING', retryable: false });
    expect(e.message).toContain('no coupler between the two chains');
  });

  it('should embed on a Pegasus solver through its nice Chimera lattice and sample correctly', async () => {
    await fake.close();
    fake = await startFakeSapi({ token: TOKEN, solvers: [fakePegasusSolver(3, wide)] });
    const batch = randomCausal(9, 4);
    const sampler = createDwaveSampler(
      fast({ numReads: 10_000, autoScale: false, chainStrength: 6 }),
    );
    const est = await estimateBatch(sampler, batch);
    const exact = bruteForceEstimate(batch);
    for (let i = 0; i < est.magnetization.length; i++)
      expect(Math.abs(est.magnetization[i]! - exact.magnetization[i]!)).toBeLessThan(0.04);
    expect(sampler.lastRunInfo()).toMatchObject({
      solver: 'FakeAdvantage_system;graph_id=fakepeg',
      maxChainLength: 2,
    });
    const lin = Buffer.from(
      (fake.requests.find((r) => r.method === 'POST')!.body as SubmittedJob[])[0]!.data.lin,
      'base64',
    );
    expect(lin.length / 8).toBe((fakePegasusSolver(3).properties.qubits as number[]).length);
  });

  it('should embed on a Zephyr solver (chains of 2 for T ≤ 8) and sample correctly', async () => {
    await fake.close();
    fake = await startFakeSapi({ token: TOKEN, solvers: [fakeZephyrSolver(2, 4, wide)] });
    const batch = randomCausal(10, 4);
    const sampler = createDwaveSampler(
      fast({ numReads: 10_000, autoScale: false, chainStrength: 6 }),
    );
    const est = await estimateBatch(sampler, batch);
    const exact = bruteForceEstimate(batch);
    for (let i = 0; i < est.magnetization.length; i++)
      expect(Math.abs(est.magnetization[i]! - exact.magnetization[i]!)).toBeLessThan(0.04);
    expect(sampler.lastRunInfo()).toMatchObject({
      solver: 'FakeAdvantage2_system;graph_id=fakezep',
      maxChainLength: 2,
    });
  });

  it('should fall back to the greedy clique search on an unknown topology and still sample correctly', async () => {
    await fake.close();
    const side = 5;
    const { qubits, couplers } = kingGraph(side);
    const king = {
      identity: { name: 'KingGraph_test' },
      status: 'ONLINE',
      properties: {
        category: 'qpu',
        supported_problem_types: ['ising'],
        num_qubits: side * side,
        qubits,
        couplers,
        topology: { type: 'king-test', shape: [side] },
      },
    };
    fake = await startFakeSapi({ token: TOKEN, solvers: [king] });
    const batch = randomCausal(8, 4);
    const sampler = createDwaveSampler(
      fast({ numReads: 10_000, autoScale: false, chainStrength: 6 }),
    );
    const est = await estimateBatch(sampler, batch);
    const exact = bruteForceEstimate(batch);
    for (let i = 0; i < est.magnetization.length; i++)
      expect(Math.abs(est.magnetization[i]! - exact.magnetization[i]!)).toBeLessThan(0.04);
    expect(sampler.lastRunInfo()!.solver).toBe('KingGraph_test');
  });

  it('should write the exact requests (token redacted) and BQM files, then throw ADAPTER_DRY_RUN', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dwave-dry-'));
    const batch = randomCausal(5, 3);
    const sampler = createDwaveSampler({ dryRun: { dir }, token: TOKEN, numReads: 7 });
    const e = await rejection(sampler.sample(batch));
    expect(e).toMatchObject({ code: 'ADAPTER_DRY_RUN', reason: 'rejected', retryable: false });
    const files = readdirSync(join(dir, 'dwave-0001')).sort();
    expect(files).toEqual([
      'embedding.json',
      'problem-0000.bqm.json',
      'problem-0001.bqm.json',
      'problem-0002.bqm.json',
      'problem-0003.bqm.json',
      'problem-0004.bqm.json',
      'problem-0005.bqm.json',
      'solver.json',
      'submit-001.json',
    ]);
    const all = files.map((f) => readFileSync(join(dir, 'dwave-0001', f), 'utf8')).join('\n');
    expect(all).not.toContain(TOKEN);
    const submit = JSON.parse(readFileSync(join(dir, 'dwave-0001', 'submit-001.json'), 'utf8'));
    expect(submit.headers['X-Auth-Token']).toBe('***');
    expect(submit.url).toBe('https://na-west-1.cloud.dwavesys.com/sapi/v2/problems/');
    expect(submit.body).toHaveLength(6);
    expect(submit.body[0].params.num_reads).toBe(7);
    const solver = JSON.parse(readFileSync(join(dir, 'dwave-0001', 'solver.json'), 'utf8'));
    expect(solver).toMatchObject({
      id: 'dry-run-stand-in-pegasus-16',
      topology: { type: 'pegasus', shape: [16] },
      workingQubits: 5640,
    });
    expect(
      JSON.parse(readFileSync(join(dir, 'dwave-0001', 'embedding.json'), 'utf8')).chains.map(
        (c: number[]) => c.length,
      ),
    ).toEqual([2, 2, 2]);
    const bqm = JSON.parse(readFileSync(join(dir, 'dwave-0001', 'problem-0005.bqm.json'), 'utf8'));
    expect(bqm.linear_biases).toEqual([...batch.fields.subarray(5 * 3, 5 * 3 + 3)].map((h) => -h));
  });

  it('should answer from the fallback sampler in a dry run when one is given', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dwave-dry-'));
    const fallback: Sampler = {
      name: 'fixed',
      capabilities: { exact: false, maxSpins: 8, async: false, deterministic: true },
      sample: (b) => ({
        kind: 'samples',
        sets: Array.from({ length: b.size }, (_, q) => ({
          spins: b.spins[q]!,
          states: new Int8Array(b.spins[q]!).fill(1),
          weights: Float64Array.of(1),
        })),
      }),
    };
    const result = await createDwaveSampler({ dryRun: { dir, fallback } }).sample(
      randomCausal(6, 2),
    );
    expect(result.kind).toBe('samples');
    const named = await createDwaveSampler({
      dryRun: { dir, fallback: 'dqa' },
      numReads: 50,
    }).sample(randomCausal(6, 2));
    expect(
      named.kind === 'samples' && named.sets.map((s) => s.weights.reduce((a, b) => a + b, 0)),
    ).toEqual([50, 50, 50, 50]);
    expect(readdirSync(join(dir, 'dwave-0001'))).toContain('submit-001.json');
  });
});
