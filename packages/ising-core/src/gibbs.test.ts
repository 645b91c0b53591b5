import { describe, expect, it } from 'vitest';
import {
  causalBatch,
  createIsingBatch,
  createRng,
  estimateFromSamples,
  gibbsSampler,
} from './index.js';
import type { GibbsOptions, IsingBatch, SampleResult, SampleSet } from './index.js';
import { codeOf } from './testing/thrownErrors.js';
import { bruteForceEstimate } from './testing/index.js';

function randomProblem(
  seed: number,
  n: number,
  fieldScale: number,
  couplingScale: number,
  beta = 1,
): IsingBatch {
  const rng = createRng(seed);
  const fields = Float64Array.from({ length: n }, () => rng.normal() * fieldScale);
  const couplings = Float64Array.from({ length: n * n }, () => rng.normal() * couplingScale);
  return createIsingBatch({ fields, couplings, spins: [n], stride: n, beta });
}

const setsOf = (result: SampleResult): readonly SampleSet[] => {
  if (result.kind !== 'samples') throw new Error('gibbs must return sample sets');
  return result.sets;
};

describe('gibbsSampler', () => {
  it('should match exact magnetizations at n = 8 within 3 standard errors (chain-to-chain spread)', () => {
    const batch = randomProblem(8, 8, 0.6, 0.4, 1);
    const exact = bruteForceEstimate(batch).magnetization;
    const runs = 32;
    const perRun = Array.from({ length: runs }, (_, r) => {
      const sampler = gibbsSampler.create({
        seed: 1000 + r,
        chains: 1,
        samples: 2000,
        burnIn: 100,
      });
      return estimateFromSamples(batch, setsOf(sampler.sample!(batch) as SampleResult))
        .magnetization;
    });
    for (let j = 0; j < 8; j++) {
      const values = perRun.map((m) => m[j]!);
      const mean = values.reduce((a, b) => a + b, 0) / runs;
      const variance = values.reduce((a, b) => a + (b - mean) ** 2, 0) / (runs - 1);
      const standardError = Math.sqrt(variance / runs);
      // The bound must be informative: a broken sampler cannot hide behind a huge spread.
      expect(standardError).toBeLessThan(0.01);
      expect(
        Math.abs(mean - exact[j]!),
        `spin ${j}: mean ${mean}, exact ${exact[j]}, SE ${standardError}`,
      ).toBeLessThanOrEqual(3 * standardError);
    }
  });

  it('should estimate the VJP of a causal batch close to the exact covariances', () => {
    const rng = createRng(4);
    const fields = Float64Array.from({ length: 2 * 16 }, () => rng.normal() * 0.7);
    const couplings = Float64Array.from({ length: 16 }, () => rng.normal() * 0.5);
    const batch = causalBatch(fields, couplings, { batch: 2, length: 4 }, 0.8);
    const sampler = gibbsSampler.create({ seed: 3, chains: 8, samples: 4000 });
    const estimate = estimateFromSamples(batch, setsOf(sampler.sample!(batch) as SampleResult));
    const reference = bruteForceEstimate(batch);
    const grad = Float64Array.from({ length: 32 }, () => rng.normal());
    const got = estimate.vjp(grad);
    const want = reference.vjp(grad);
    estimate.magnetization.forEach((v, i) =>
      expect(Math.abs(v - reference.magnetization[i]!)).toBeLessThan(0.03),
    );
    got.fields.forEach((v, i) =>
      expect(Math.abs(v - want.fields[i]!), `dh[${i}]`).toBeLessThan(0.06),
    );
    got.couplings.forEach((v, i) =>
      expect(Math.abs(v - want.couplings[i]!), `dJ[${i}]`).toBeLessThan(0.15),
    );
  });

  it('should merge repeated states into weights for small n and keep raw rows beyond 30 spins', () => {
    const small = randomProblem(1, 5, 1, 0.3);
    const [merged] = setsOf(
      gibbsSampler.create({ chains: 3, samples: 500 }).sample!(small) as SampleResult,
    );
    expect(merged!.weights.reduce((a, b) => a + b, 0)).toBe(1500);
    expect(merged!.weights.length).toBeLessThanOrEqual(32);

    const n = 40;
    const fields = Float64Array.from({ length: n }, (_, j) => (j - 20) / 10);
    const big = createIsingBatch({
      fields,
      couplings: new Float64Array(n * n),
      spins: [n],
      stride: n,
    });
    const [raw] = setsOf(
      gibbsSampler.create({ chains: 2, samples: 3000, burnIn: 10 }).sample!(big) as SampleResult,
    );
    expect(raw!.states.length).toBe(6000 * n);
    expect(raw!.weights.length).toBe(6000);
    // Independent spins: every sample mean is within 4.5 binomial standard errors of tanh(h).
    const m = estimateFromSamples(big, [raw!]).magnetization;
    for (let j = 0; j < n; j++) {
      const exact = Math.tanh(fields[j]!);
      expect(Math.abs(m[j]! - exact), `spin ${j}`).toBeLessThan(
        4.5 * Math.sqrt((1 - exact ** 2) / 6000) + 1e-12,
      );
    }
  });

  it('should be deterministic under a seed and advance its stream across calls', () => {
    const batch = randomProblem(2, 6, 0.5, 0.5);
    const options: GibbsOptions = { seed: 42, chains: 2, samples: 200 };
    const a = gibbsSampler.create(options);
    const b = gibbsSampler.create(options);
    const first = setsOf(a.sample!(batch) as SampleResult)[0]!;
    expect(setsOf(b.sample!(batch) as SampleResult)[0]).toEqual(first);
    expect(setsOf(a.sample!(batch) as SampleResult)[0]).not.toEqual(first);
    expect(
      setsOf(gibbsSampler.create({ ...options, seed: 43 }).sample!(batch) as SampleResult)[0],
    ).not.toEqual(first);
  });

  it('should start chains where asked', () => {
    // Strong ferromagnet at zero field: chains stay in the basin they start in.
    const n = 6;
    const couplings = new Float64Array(n * n);
    for (let j = 0; j < n; j++) for (let k = j + 1; k < n; k++) couplings[j * n + k] = 3;
    const batch = createIsingBatch({
      fields: new Float64Array(n),
      couplings,
      spins: [n],
      stride: n,
    });
    const up = estimateFromSamples(
      batch,
      setsOf(
        gibbsSampler.create({ initial: 'up', burnIn: 0, samples: 20 }).sample!(
          batch,
        ) as SampleResult,
      ),
    );
    const down = estimateFromSamples(
      batch,
      setsOf(
        gibbsSampler.create({ initial: 'down', burnIn: 0, samples: 20 }).sample!(
          batch,
        ) as SampleResult,
      ),
    );
    expect(up.magnetization.every((v) => v === 1)).toBe(true);
    expect(down.magnetization.every((v) => v === -1)).toBe(true);
  });

  it('should validate its options with coded errors', () => {
    const bad: unknown[] = [
      { seed: Number.NaN },
      { chains: 0 },
      { chains: 1.5 },
      { samples: 0 },
      { thin: 0 },
      { burnIn: -1 },
      { burnIn: Infinity },
      { initial: 'middle' },
      null,
    ];
    for (const options of bad) {
      expect(
        codeOf(() => gibbsSampler.create(options as GibbsOptions)),
        JSON.stringify(options),
      ).toBe('ISING_INVALID_ARGUMENT');
    }
    expect(gibbsSampler.create({ burnIn: 0 }).capabilities).toEqual({
      exact: false,
      maxSpins: 4096,
      async: false,
      deterministic: true,
    });
  });
});
