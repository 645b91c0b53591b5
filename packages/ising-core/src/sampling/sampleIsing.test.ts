// sampleIsing through every built-in sampler and through plugins, checked against enumeration.
import { describe, expect, it } from 'vitest';
import { boltzmannDistribution, energies as allEnergies } from '../exact.js';
import { exactSampler } from '../exactSampler.js';
import { gibbsSampler } from '../gibbs.js';
import { meanFieldSampler } from '../meanField.js';
import { createSamplerRegistry, defineSamplerPlugin } from '../registry.js';
import { tapSampler } from '../tap.js';
import { transferMatrixSampler } from '../transferMatrixSampler.js';
import type { IsingBatch, SampleResult, Sampler } from '../types.js';
import type { IsingSampleSet } from './isingSampleSet.js';
import { sampleIsing } from './sampleIsing.js';

// Three spins, chain couplings (bandwidth 1, so the transfer matrix takes them too).
const h = [0.4, -0.3, 0.2];
const J = [0, 0.7, 0, 0, 0, -0.5, 0, 0, 0];
const table = allEnergies(Float64Array.from(h), Float64Array.from(J), 3);
const indexOf = (set: IsingSampleSet, r: number): number => {
  let s = 0;
  for (let j = 0; j < set.spins; j++) if (set.states[r * set.spins + j] === 1) s |= 1 << j;
  return s;
};

/** Every row's energy is the enumerated energy of its state. */
function expectEnergies(set: IsingSampleSet): void {
  expect(set.size).toBeGreaterThan(0);
  for (let r = 0; r < set.size; r++)
    expect(set.energies[r]).toBeCloseTo(table[indexOf(set, r)]!, 12);
}

/** Frequencies of the rows within 5 standard errors (+1e-3) of `p`. */
function expectFrequencies(set: IsingSampleSet, p: Float64Array): void {
  const freq = new Float64Array(p.length);
  const total = set.totalOccurrences;
  for (let r = 0; r < set.size; r++) freq[indexOf(set, r)]! += set.occurrences[r]! / total;
  for (let s = 0; s < p.length; s++)
    expect(Math.abs(freq[s]! - p[s]!)).toBeLessThan(
      5 * Math.sqrt((p[s]! * (1 - p[s]!)) / total) + 1e-3,
    );
}

const boltzmann = (beta: number) =>
  boltzmannDistribution(Float64Array.from(h), Float64Array.from(J), { beta });

describe('sampleIsing: built-in samplers', () => {
  it('exact: reads draws from the Boltzmann distribution, seeded', async () => {
    const sampler = exactSampler.create();
    const set = await sampleIsing(sampler, h, J, { reads: 20000, beta: 0.8, seed: 3 });
    expect(set.size).toBe(20000);
    expect(set.info).toEqual({ sampler: 'exact', source: 'dense-draw', beta: 0.8 });
    expectEnergies(set);
    expectFrequencies(set, boltzmann(0.8));
    const again = await sampleIsing(sampler, h, J, { reads: 20000, beta: 0.8, seed: 3 });
    expect(again.states).toEqual(set.states);
    expect(set.first.energy).toBeCloseTo(Math.min(...table), 12);
  });

  it('exact with dense: enumerate lists every state once with its probability (ExactSolver)', async () => {
    const set = await sampleIsing(exactSampler.create(), h, J, { dense: 'enumerate', beta: 0.8 });
    expect(set.size).toBe(8);
    expectEnergies(set);
    const p = boltzmann(0.8);
    for (let r = 0; r < 8; r++) expect(set.probabilities![r]).toBeCloseTo(p[indexOf(set, r)]!, 12);
  });

  it('transfer-matrix: the same exact distribution', async () => {
    const sampler = transferMatrixSampler.create({ bandwidth: 2 });
    const set = await sampleIsing(sampler, h, J, { reads: 20000, beta: 0.8, seed: 5 });
    expect(set.info.source).toBe('dense-draw');
    expectEnergies(set);
    expectFrequencies(set, boltzmann(0.8));
  });

  it.each([
    ['mean-field', meanFieldSampler],
    ['tap', tapSampler],
  ] as const)('%s: draws of independent spins with its magnetizations', async (name, plugin) => {
    const sampler = plugin.create();
    const set = await sampleIsing(sampler, h, J, { reads: 20000, seed: 9 });
    expect(set.info).toEqual({ sampler: name, source: 'product-of-marginals', beta: 1 });
    expectEnergies(set);
    const batch: IsingBatch = {
      size: 1,
      stride: 3,
      spins: Int32Array.of(3),
      fields: Float64Array.from(h),
      couplings: Float64Array.from(J),
      beta: 1,
    };
    const m = (sampler.estimate!(batch) as { magnetization: Float64Array }).magnetization;
    const p = new Float64Array(8).map((_, s) =>
      [0, 1, 2].reduce((acc, j) => (acc * (1 + ((s >>> j) & 1 ? m[j]! : -m[j]!))) / 2, 1),
    );
    expectFrequencies(set, p);
  });

  it('gibbs: its own samples and weights (chains × samples reads), not `reads`', async () => {
    const sampler = gibbsSampler.create({ seed: 1, chains: 4, samples: 5000 });
    const set = await sampleIsing(sampler, h, J, { reads: 7 });
    expect(set.info.source).toBe('samples');
    expect(set.totalOccurrences).toBe(20000);
    expectEnergies(set);
    expectFrequencies(set.aggregate(), boltzmann(1));
    // gibbs merges repeated states: aggregating changes nothing.
    expect(set.aggregate().size).toBe(set.size);
  });
});

const caps = { exact: false, maxSpins: 8, async: true, deterministic: true };
/** A plugin answering like a hardware adapter: asynchronous, states merged with counts. */
const histogramPlugin = defineSamplerPlugin({
  name: 'histogram',
  version: '1.0.0',
  capabilities: caps,
  create: (): Sampler => ({
    name: 'histogram',
    capabilities: caps,
    sample: async (batch: IsingBatch): Promise<SampleResult> => {
      const n = batch.spins[0]!;
      const states = new Int8Array(2 * n).fill(-1);
      states.fill(1, n); // (−1 … −1) 3 times, (+1 … +1) once
      return { kind: 'samples', sets: [{ spins: n, states, weights: Float64Array.of(3, 1) }] };
    },
  }),
});
/** A plugin answering with exact probabilities, as dqa with shots: 0. */
const densePlugin = (answer: (n: number) => unknown) => ({
  name: 'dense',
  capabilities: { ...caps, async: false },
  sample: (batch: IsingBatch) =>
    ({ kind: 'dense', distributions: [answer(batch.spins[0]!)] }) as SampleResult,
});

describe('sampleIsing: plugins', () => {
  it('a registered plugin with merged counts: rows, counts and aggregate as answered', async () => {
    const registry = createSamplerRegistry().register(histogramPlugin);
    const set = await sampleIsing(registry.require('histogram').create(), h, J);
    expect(set.size).toBe(2);
    expect([...set.occurrences]).toEqual([3, 1]);
    expectEnergies(set);
    expect(set.counts()).toEqual({ '111': 3, '000': 1 });
    expect(set.toDimod().vectors.num_occurrences?.data).toEqual([3, 1]);
  });

  it("a 'dense' plugin is drawn from like the exact samplers", async () => {
    const p = boltzmann(1);
    const set = await sampleIsing(
      densePlugin(() => p),
      h,
      J,
      { reads: 20000, seed: 2 },
    );
    expect(set.info.source).toBe('dense-draw');
    expectFrequencies(set, p);
  });
});

describe('sampleIsing: refusals', () => {
  const exact = exactSampler.create({ maxSpins: 2 });
  const code = (c: string) => expect.objectContaining({ code: c });
  it.each([
    ['NaN in h', [0.1, Number.NaN, 0], J, {}, 'ISING_NOT_FINITE'],
    [
      'Infinity in J',
      h,
      [0, Number.POSITIVE_INFINITY, 0, 0, 0, 0, 0, 0, 0],
      {},
      'ISING_NOT_FINITE',
    ],
    ['J of the wrong shape', h, [0, 1, 0, 0], {}, 'ISING_SHAPE_MISMATCH'],
    ['empty h', [], [], {}, 'ISING_SHAPE_MISMATCH'],
    [
      'a lower triangle that is not the mirror',
      h,
      [0, 0.7, 0, 0.2, 0, 0, 0, 0, 0],
      {},
      'ISING_INVALID_ARGUMENT',
    ],
    ['a non-zero diagonal', h, [1, 0, 0, 0, 0, 0, 0, 0, 0], {}, 'ISING_INVALID_ARGUMENT'],
    ['reads 0', h, J, { reads: 0 }, 'ISING_INVALID_ARGUMENT'],
    ['reads 1.5', h, J, { reads: 1.5 }, 'ISING_INVALID_ARGUMENT'],
    ['reads above 2^24', h, J, { reads: 2 ** 24 + 1 }, 'ISING_INVALID_ARGUMENT'],
    ['beta 0', h, J, { beta: 0 }, 'ISING_INVALID_ARGUMENT'],
    ['a bad dense mode', h, J, { dense: 'all' }, 'ISING_INVALID_ARGUMENT'],
  ])('%s', async (_, hh, JJ, options, c) => {
    await expect(sampleIsing(exactSampler.create(), hh, JJ, options as never)).rejects.toThrow(
      code(c),
    );
  });

  it('a symmetric J is accepted and read from its upper triangle', async () => {
    const sym = [0, 0.7, 0, 0.7, 0, -0.5, 0, -0.5, 0];
    const set = await sampleIsing(exactSampler.create(), h, sym, { dense: 'enumerate' });
    expectEnergies(set);
  });

  it('more spins than the sampler takes: ISING_TOO_MANY_SPINS', async () => {
    await expect(sampleIsing(exact, h, J)).rejects.toThrow(code('ISING_TOO_MANY_SPINS'));
    const wide = new Array(25).fill(0);
    const sampler = transferMatrixSampler.create({ bandwidth: 1 });
    await expect(
      sampleIsing(sampler, wide, new Array(625).fill(0), { dense: 'enumerate' }),
    ).rejects.toThrow(code('ISING_TOO_MANY_SPINS'));
  });

  it('not a sampler: ISING_INVALID_ARGUMENT', async () => {
    await expect(sampleIsing(exactSampler as never, h, J)).rejects.toThrow(
      code('ISING_INVALID_ARGUMENT'),
    );
  });

  it('bad answers: ISING_BAD_SAMPLES, ISING_SAMPLER_FAILED', async () => {
    await expect(
      sampleIsing(
        densePlugin(() => new Float64Array(3)),
        h,
        J,
      ),
    ).rejects.toThrow(code('ISING_BAD_SAMPLES'));
    const zeros: Sampler = {
      name: 'zeros',
      capabilities: caps,
      sample: () => ({
        kind: 'samples',
        sets: [{ spins: 3, states: new Int8Array(3), weights: Float64Array.of(1) }],
      }),
    };
    await expect(sampleIsing(zeros, h, J)).rejects.toThrow(code('ISING_BAD_SAMPLES'));
    const throws: Sampler = {
      name: 'throws',
      capabilities: caps,
      sample: () => {
        throw new Error('boom');
      },
    };
    await expect(sampleIsing(throws, h, J)).rejects.toThrow(code('ISING_SAMPLER_FAILED'));
    const liar: Sampler = {
      name: 'liar',
      capabilities: { ...caps, exact: true },
      estimate: () => ({
        magnetization: new Float64Array(3),
        vjp: () => ({ fields: new Float64Array(3), couplings: new Float64Array(9) }),
      }),
    };
    await expect(sampleIsing(liar, h, J)).rejects.toThrow(code('ISING_SAMPLER_FAILED'));
  });
});

describe("sampleIsing: the README's example", () => {
  it('runs as written: first is (−1, −1) at −1.5, 1000 reads, Qiskit-ordered counts', async () => {
    const set = await sampleIsing(exactSampler.create(), [0.5, -1], [0, 1, 0, 0], {
      reads: 1000,
      seed: 7,
    });
    expect([...set.first.sample]).toEqual([-1, -1]);
    expect(set.first.energy).toBe(-1.5);
    const agg = set.aggregate();
    expect(agg.size).toBeLessThanOrEqual(4);
    expect(agg.totalOccurrences).toBe(1000);
    const counts = set.counts();
    expect(Object.keys(counts).every((k) => ['11', '10', '01', '00'].includes(k))).toBe(true);
    // s = (−1, −1) is the likeliest state, p = e^1.5 / (e^1.5 + 2e^0.5 + e^−2.5) ≈ 0.570 at β = 1: key "11".
    expect(Math.max(...Object.values(counts))).toBe(counts['11']);
  });
});
