import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { annealDistribution } from '@boltzmann/dqa-sim';
import { createIsingBatch, createSamplerRegistry } from '@boltzmann/ising-core';
import { codeOf } from '@boltzmann/ising-core/testing';
import type { IsingBatch, SampleResult } from '@boltzmann/ising-core';
import { describe, expect, it } from 'vitest';
import { batchProblem } from '../shared/batchProblem.js';
import { anneal, empirical, problem } from '../shared/testing/circuitProblems.js';
import { rejection } from '../shared/testing/rejection.js';
import {
  API_KEY,
  CRN,
  expectNoLeaks,
  fake,
  samplerOptions,
  serveDevice,
  simulatedAnswer,
  useFakeRuntime,
} from './testing/runtimeHarness.js';
import { createIbmSampler, IBM_FEZ_SNAPSHOT, ibmSampler } from '../index.js';

useFakeRuntime();

/** Total-variation distance between the shots of problem q and dqa-sim's exact distribution. */
function distance(result: SampleResult, batch: IsingBatch, q: number): number {
  const want = annealDistribution(batchProblem(batch, q), { ...anneal, beta: batch.beta });
  const got = empirical(result, batch.spins[q]!, q);
  return got.reduce((acc, p, s) => acc + Math.abs(p - want[s]!), 0) / 2;
}

/** Requests the fake saw, as "METHOD path" without the query. */
const seen = () => fake.requests.map((r) => `${r.method} ${r.path.replace(/\?.*$/, '')}`);

describe('the ibm sampler against a local IAM + Runtime', () => {
  it('routes the DQA circuit onto the device, runs it in a batch session and decodes its distribution', async () => {
    fake.answerPub = simulatedAnswer;
    const batch = problem(2, 4);
    const sampler = createIbmSampler(samplerOptions({ shots: 20_000, anneal }));
    const result = await sampler.sample(batch);
    expect(distance(result, batch, 0)).toBeLessThan(0.03);
    const info = sampler.lastRunInfo()!;
    expect(info).toMatchObject({ backend: 'fake_line7', shots: 20_000 });
    expect(info.jobIds).toHaveLength(1);
    expect(info.sessionId).toBeDefined();
    expect(info.layouts[4]).toHaveLength(4);
    const submitted = fake.requests.find((r) => r.method === 'POST' && r.path.endsWith('/jobs'))!;
    const body = JSON.parse(submitted.body);
    expect(body).toMatchObject({ program_id: 'sampler', backend: 'fake_line7' });
    expect(body.session_id).toBe(info.sessionId);
    const [qasm, params, shots] = body.params.pubs[0];
    expect([params, shots]).toEqual([null, 20_000]);
    expect(qasm).toMatch(/^OPENQASM 3\.0;\ninclude "stdgates\.inc";\nbit\[4\] c;\n/);
    expect(qasm).not.toMatch(/\b(h|rx|cx|gate)\b/); // native gates only, all in stdgates.inc
    expect(seen()).toContain('GET /api/v1/backends/fake_line7/configuration');
    expectNoLeaks();
  });

  it('runs on ibm_fez’s 156-qubit map, splitting the circuits over jobs of maxPubsPerJob', async () => {
    fake.answerPub = simulatedAnswer;
    serveDevice(IBM_FEZ_SNAPSHOT);
    const problems = [3, 4, 5].map((n, k) => problem(10 + k, n));
    const width = 5;
    const fields = new Float64Array(3 * width);
    const couplings = new Float64Array(width * width);
    // One batch of three problems of 3, 4 and 5 spins: the 5-spin problem's couplings, its
    // leading blocks for the smaller ones (a causal batch's shape).
    problems.forEach((p, q) => fields.set(p.fields, q * width));
    const last = problems[2]!;
    couplings.set(last.couplings);
    const batch = createIsingBatch({
      fields,
      couplings,
      spins: [3, 4, 5],
      stride: width,
      beta: 0.8,
    });
    const sampler = createIbmSampler(
      samplerOptions({ backend: 'ibm_fez', maxSpins: 16, shots: 20_000, anneal, maxPubsPerJob: 2 }),
    );
    const result = await sampler.sample(batch);
    for (let q = 0; q < 3; q++) expect(distance(result, batch, q)).toBeLessThan(0.03);
    const info = sampler.lastRunInfo()!;
    expect(info.jobIds).toHaveLength(2);
    expect(Object.keys(info.layouts).sort()).toEqual(['3', '4', '5']);
    const coupled = new Set(
      IBM_FEZ_SNAPSHOT.configuration.coupling_map.map(([a, b]) => `${a},${b}`),
    );
    const path = info.layouts[5]!;
    for (let p = 0; p + 1 < 5; p++) expect(coupled.has(`${path[p]},${path[p + 1]}`)).toBe(true);
    expectNoLeaks();
  });

  it('reports progress through debug: every request and poll, with no key or token in any line', async () => {
    const lines: string[] = [];
    fake.completeAfterMs = 60;
    await createIbmSampler(samplerOptions({ shots: 10, debug: (l) => lines.push(l) })).sample(
      problem(1, 2),
    );
    expect(lines.some((l) => l.includes('identity/token'))).toBe(true);
    expect(lines.some((l) => /POST \S*jobs/.test(l))).toBe(true);
    expect(lines.filter((l) => /GET \S*jobs\/[^/\s]+ /.test(l)).length).toBeGreaterThan(1);
    for (const l of lines) {
      expect(l).not.toContain(API_KEY);
      for (const token of fake.tokens) expect(l).not.toContain(token);
    }
  });

  it('plain jobs without a session when sessionMode is none; refuses bad options with codes', async () => {
    const sampler = createIbmSampler(samplerOptions({ sessionMode: 'none', shots: 10 }));
    await sampler.sample(problem(1, 2));
    expect(seen().some((r) => r.includes('/sessions'))).toBe(false);
    expect(sampler.lastRunInfo()!.sessionId).toBeUndefined();
    const bad = [
      { sessionMode: 'dedicated' },
      { fractionalGates: 'yes' },
      { shots: 0 },
      { maxPubsPerJob: 1.5 },
      { backend: '' },
      { colour: 'blue' },
      { anneal: { dialect: 'braket' } },
    ];
    for (const extra of bad) {
      expect(
        codeOf(() => createIbmSampler(samplerOptions(extra as never))),
        JSON.stringify(extra),
      ).toBe('ADAPTER_INVALID_ARGUMENT');
    }
    const { backend: _b, ...noBackend } = samplerOptions();
    expect(codeOf(() => createIbmSampler(noBackend))).toBe('ADAPTER_INVALID_ARGUMENT');
    const tooMany = codeOf(() => createIbmSampler(samplerOptions()).sample(problem(1, 8)));
    expect(await tooMany).toBe('ISING_TOO_MANY_SPINS');
  });

  it('surfaces a failed job and a malformed result as coded errors, and cancels on the deadline', async () => {
    fake.outcome = 'Failed';
    const failed = await rejection(createIbmSampler(samplerOptions()).sample(problem(1, 3)));
    expect(failed).toMatchObject({ code: 'ADAPTER_PROBLEM_FAILED' });
    fake.outcome = 'Completed';
    fake.tamperResults = () => ({ results: [{ data: { c: { samples: ['0xZZ'], num_bits: 3 } } }] });
    const malformed = await rejection(createIbmSampler(samplerOptions()).sample(problem(1, 3)));
    expect(malformed).toMatchObject({ code: 'ADAPTER_MALFORMED' });
    fake.tamperResults = undefined;
    fake.completeAfterMs = 60_000;
    const late = await rejection(
      createIbmSampler(samplerOptions({ deadlineMs: 300 })).sample(problem(1, 3)),
    );
    expect(late).toMatchObject({ code: 'ADAPTER_TIMEOUT' });
    expect(seen().some((r) => /^(POST|DELETE) \/api\/v1\/jobs\/[^/]+(\/cancel)?$/.test(r))).toBe(
      true,
    );
    expectNoLeaks();
  });

  it('is found through a registry as the ibm plugin, with its options described and the key secret', () => {
    const registry = createSamplerRegistry().register(ibmSampler);
    const sampler = registry.require('ibm').create(samplerOptions());
    expect(sampler.name).toBe('ibm');
    expect(ibmSampler.secretOptions).toEqual(['apiKey']);
    const names = (ibmSampler.options ?? []).map((o) => o.name);
    for (const n of ['apiKey', 'serviceCrn', 'backend', 'shots', 'fractionalGates', 'dryRun'])
      expect(names).toContain(n);
  });
});

describe('the ibm dry run', () => {
  const files = (dir: string) => {
    const call = join(dir, 'ibm-0001');
    return Object.fromEntries(
      readdirSync(call).map((f) => [f, readFileSync(join(call, f), 'utf8')] as const),
    );
  };

  it('writes every request it would send with no credential, the routed circuits and the QPU time', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ibm-dry-'));
    const noNetwork = (() => {
      throw new Error('a dry run must not send anything');
    }) as unknown as typeof fetch;
    const sampler = createIbmSampler({
      apiKey: API_KEY,
      serviceCrn: CRN,
      dryRun: { dir },
      fetch: noNetwork,
      shots: 4000,
      maxPubsPerJob: 1,
    });
    const e = await rejection(sampler.sample(problem(3, 6)));
    expect(e).toMatchObject({ code: 'ADAPTER_DRY_RUN' });
    const written = files(dir);
    expect(Object.keys(written).sort()).toEqual([
      'circuits.json',
      'estimate.json',
      'fidelity.json',
      'iam-token-request.json',
      'job-001-request.json',
      'session-request.json',
    ]);
    for (const [name, text] of Object.entries(written)) {
      expect(text, name).not.toContain(API_KEY);
      expect(text, name).not.toMatch(/Bearer (?!<redacted)/);
    }
    const job = JSON.parse(written['job-001-request.json']!);
    expect(job.body.backend).toBe('ibm_fez');
    expect(job.body.params.pubs[0][0]).toMatch(/^OPENQASM 3\.0;\n/);
    expect(job.body.params.pubs[0][0]).toMatch(/^bit\[6\] c;$/m);
    const [circuit] = JSON.parse(written['circuits.json']!);
    expect(circuit).toMatchObject({ problem: 0, spins: 6, swapLayersPerStep: 6 });
    expect(circuit.depth).toBeGreaterThan(circuit.twoQubitGates / 6);
    expect(circuit.twoQubitGates).toBeGreaterThan(0);
    const estimate = JSON.parse(written['estimate.json']!);
    expect(estimate).toMatchObject({ backend: 'ibm_fez', circuits: 1, shots: 4000, jobs: 1 });
    expect(estimate).toMatchObject({
      provider: 'ibm',
      problemsPerJob: 1,
      perJob: { qpuSeconds: 3.07 },
    });
    // At least the 250 µs pause between shots, 4000 times, and the job's own 3.07 s.
    expect(estimate.perProblem.qpuSeconds).toBeGreaterThan(1);
    expect(estimate.qpuSeconds).toBeCloseTo(estimate.perProblem.qpuSeconds + 3.07, 9);
    expect(estimate.limits[0]).toMatchObject({ qpuSeconds: 600 });
    expect(fake.requests).toHaveLength(0);
  });

  it('answers through the fallback, routes onto a recorded or given device, refuses an unknown one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ibm-dry-'));
    const result = await createIbmSampler({
      backend: 'ibm_brisbane',
      dryRun: { dir, fallback: 'dqa' },
      shots: 50,
    }).sample(problem(4, 3));
    expect(result.kind).toBe('samples');
    const job = JSON.parse(files(dir)['job-001-request.json']!);
    expect(job.body.params.pubs[0][0]).toContain('ecr $');
    const given = mkdtempSync(join(tmpdir(), 'ibm-dry-'));
    await rejection(
      createIbmSampler({
        dryRun: { dir: given },
        device: { configuration: fake.backends.get('fake_line7')!.configuration },
      }).sample(problem(4, 3)),
    );
    expect(JSON.parse(files(given)['job-001-request.json']!).body.backend).toBe('fake_line7');
    const unknown = () => createIbmSampler({ backend: 'ibm_nowhere', dryRun: { dir } });
    expect(codeOf(unknown)).toBe('ADAPTER_INVALID_ARGUMENT');
    expect(unknown).toThrow(/device: \{ configuration \}/);
  });
});
