import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createIsingBatch, estimateBatch } from '@boltzmann/ising-core';
import type { Sampler } from '@boltzmann/ising-core';
import { bruteForceEstimate } from '@boltzmann/ising-core/testing';
import { describe, expect, it } from 'vitest';
import {
  fake,
  fast,
  randomCausal,
  setFake,
  TOKEN,
  useFakeSapi,
  wide,
} from './testing/dwaveHarness.js';
import type { SubmittedJob } from './testing/dwaveHarness.js';
import { startFakeSapi } from './testing/fakeSapiServer.js';
import { fakePegasusSolver, fakeZephyrSolver } from './testing/fakeSolvers.js';
import { kingGraph } from '../shared/testing/kingGraph.js';
import { rejection } from '../shared/testing/rejection.js';
import { createDwaveSampler } from '../index.js';

useFakeSapi();

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
    setFake(await startFakeSapi({ token: TOKEN, solvers: [fakePegasusSolver(3, wide)] }));
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
    setFake(await startFakeSapi({ token: TOKEN, solvers: [fakeZephyrSolver(2, 4, wide)] }));
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
    setFake(await startFakeSapi({ token: TOKEN, solvers: [king] }));
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
      'estimate.json',
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
