import { createIsingBatch, estimateBatch } from '@boltzmann/ising-core';
import type { SampleResult } from '@boltzmann/ising-core';
import { bruteForceEstimate } from '@boltzmann/ising-core/testing';
import { describe, expect, it } from 'vitest';
import { fake, fast, randomCausal, setFake, TOKEN, useFakeSapi } from './testing/dwaveHarness.js';
import type { SubmittedJob } from './testing/dwaveHarness.js';
import { startFakeSapi } from './testing/fakeSapiServer.js';
import { rejection } from '../shared/testing/rejection.js';
import { createDwaveSampler } from '../index.js';

// Failures live in dwaveSamplerFailures.test.ts, embeddings and dry runs in
// dwaveEmbeddingsAndDryRuns.test.ts.
useFakeSapi();

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
    setFake(await startFakeSapi({ token: TOKEN }));
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
