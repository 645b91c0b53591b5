import { describe, expect, it } from 'vitest';
import { causalBatch, createIsingBatch, createRng, meanFieldEstimate, meanFieldSampler } from './index.js';
import type { IsingBatch, MeanFieldOptions } from './index.js';
import { errorCode } from './internal/testing/errorCode.js';
import { bruteForceEstimate } from './testing/index.js';

function randomCausal(seed: number, batch: number, length: number, fieldScale: number, couplingScale: number, beta = 1): IsingBatch {
  const rng = createRng(seed);
  const fields = Float64Array.from({ length: batch * length * length }, () => rng.normal() * fieldScale);
  const couplings = Float64Array.from({ length: length * length }, () => rng.normal() * couplingScale);
  return causalBatch(fields, couplings, { batch, length }, beta);
}

const maxAbsDiff = (a: Float64Array, b: Float64Array): number => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i]!)), 0);
const dot = (a: Float64Array, b: Float64Array): number => a.reduce((s, v, i) => s + v * b[i]!, 0);

describe('meanFieldSampler', () => {
  it('should be exact at J = 0: m = tanh(βh) and the exact VJP', () => {
    const batch = randomCausal(11, 2, 5, 1.5, 0, 0.8);
    const estimate = meanFieldSampler.create().estimate!(batch) as ReturnType<typeof meanFieldEstimate>;
    const reference = bruteForceEstimate(batch);
    expect(maxAbsDiff(estimate.magnetization, reference.magnetization)).toBeLessThan(1e-15);
    for (let i = 0; i < batch.fields.length; i++) {
      const used = i % 5 <= Math.floor(i / 5) % 5;
      expect(estimate.magnetization[i]).toBe(used ? Math.tanh(0.8 * batch.fields[i]!) : 0);
    }
    const grad = Float64Array.from({ length: 50 }, (_, i) => Math.sin(i + 1));
    const got = estimate.vjp(grad);
    const want = reference.vjp(grad);
    expect(maxAbsDiff(got.fields, want.fields)).toBeLessThan(1e-12);
    expect(maxAbsDiff(got.couplings, want.couplings)).toBeLessThan(1e-12);
    expect(estimate.diagnostics.converged).toBe(true);
  });

  it('should stay close to the exact magnetizations for weak couplings (|J| ≤ 0.05)', () => {
    const rng = createRng(5);
    const length = 8;
    const fields = Float64Array.from({ length: 2 * length * length }, () => rng.normal());
    const couplings = Float64Array.from({ length: length * length }, () => (rng.next() * 2 - 1) * 0.05);
    const batch = causalBatch(fields, couplings, { batch: 2, length });
    const mf = meanFieldEstimate(batch).magnetization;
    const exact = bruteForceEstimate(batch).magnetization;
    const independent = causalBatch(fields, new Float64Array(length * length), { batch: 2, length });
    const naive = bruteForceEstimate(independent).magnetization;
    // Mean field must beat ignoring J altogether, and be close in absolute terms.
    expect(maxAbsDiff(mf, exact)).toBeLessThan(2e-3);
    expect(maxAbsDiff(mf, exact)).toBeLessThan(maxAbsDiff(naive, exact) / 5);
  });

  it('should give the VJP of its own forward map (central finite differences)', () => {
    const options: MeanFieldOptions = { tolerance: 1e-15, maxIterations: 5000 };
    const batch = randomCausal(21, 2, 5, 0.8, 0.3, 1.3);
    const rng = createRng(22);
    const grad = Float64Array.from({ length: batch.size * batch.stride }, () => rng.normal());
    const { fields: dh, couplings: dJ } = meanFieldEstimate(batch, options).vjp(grad);
    const loss = (b: IsingBatch): number => dot(meanFieldEstimate(b, options).magnetization, grad);
    const eps = 1e-5;
    const perturbed = (which: 'fields' | 'couplings', index: number, delta: number): IsingBatch => {
      const fields = Float64Array.from(batch.fields);
      const couplings = Float64Array.from(batch.couplings);
      (which === 'fields' ? fields : couplings)[index]! += delta;
      return createIsingBatch({ fields, couplings, spins: batch.spins, stride: batch.stride, beta: batch.beta });
    };
    for (let i = 0; i < batch.fields.length; i++) {
      if (i % 5 > Math.floor(i / 5) % 5) {
        expect(dh[i]).toBe(0);
        continue;
      }
      const fd = (loss(perturbed('fields', i, eps)) - loss(perturbed('fields', i, -eps))) / (2 * eps);
      expect(Math.abs(dh[i]! - fd), `dh[${i}]`).toBeLessThan(1e-6);
    }
    for (let k = 0; k < 5; k++) {
      for (let l = 0; l < 5; l++) {
        const i = k * 5 + l;
        if (l <= k) {
          expect(dJ[i]).toBe(0);
          continue;
        }
        const fd = (loss(perturbed('couplings', i, eps)) - loss(perturbed('couplings', i, -eps))) / (2 * eps);
        expect(Math.abs(dJ[i]! - fd), `dJ[${k},${l}]`).toBeLessThan(1e-6);
      }
    }
  });

  it('should run at n = 128 and match finite differences there', () => {
    const causal = randomCausal(31, 1, 128, 1, 0.02);
    const all = meanFieldEstimate(causal, { tolerance: 1e-14 });
    expect(all.diagnostics.converged).toBe(true);
    expect(all.magnetization.every((v) => Number.isFinite(v) && Math.abs(v) <= 1)).toBe(true);
    // Finite differences on the longest prefix alone (one 128-spin problem) keep the test fast.
    const fieldsOf = (f: Float64Array): Float64Array => f.slice(127 * 128);
    const single = (fields: Float64Array, couplings: Float64Array): IsingBatch => createIsingBatch({ fields, couplings, spins: [128], stride: 128 });
    const batch = single(fieldsOf(causal.fields), causal.couplings);
    const estimate = meanFieldEstimate(batch, { tolerance: 1e-14 });
    expect(Array.from(estimate.magnetization)).toEqual(Array.from(all.magnetization.subarray(127 * 128)));
    const grad = Float64Array.from({ length: 128 }, (_, j) => Math.cos(j));
    const { fields: dh, couplings: dJ } = estimate.vjp(grad);
    const loss = (fields: Float64Array, couplings: Float64Array): number => dot(meanFieldEstimate(single(fields, couplings), { tolerance: 1e-14 }).magnetization, grad);
    const eps = 1e-5;
    for (const [k, l] of [[0, 127], [3, 64], [100, 101]] as const) {
      const plus = Float64Array.from(batch.couplings);
      const minus = Float64Array.from(batch.couplings);
      plus[k * 128 + l]! += eps;
      minus[k * 128 + l]! -= eps;
      const fd = (loss(batch.fields, plus) - loss(batch.fields, minus)) / (2 * eps);
      expect(Math.abs(dJ[k * 128 + l]! - fd), `dJ[${k},${l}]`).toBeLessThan(1e-6);
    }
    for (const j of [0, 50, 127]) {
      const plus = Float64Array.from(batch.fields);
      const minus = Float64Array.from(batch.fields);
      plus[j]! += eps;
      minus[j]! -= eps;
      const fd = (loss(plus, batch.couplings) - loss(minus, batch.couplings)) / (2 * eps);
      expect(Math.abs(dh[j]! - fd), `dh[${j}]`).toBeLessThan(1e-6);
    }
  });

  it('should report non-convergence with a code, or return the last iterate when asked', () => {
    const batch = createIsingBatch({ fields: Float64Array.of(0.5, 0.5), couplings: Float64Array.of(0, -3, 0, 0), spins: [2], stride: 2 });
    expect(errorCode(() => meanFieldEstimate(batch, { damping: 0, maxIterations: 50 }))).toBe('ISING_NOT_CONVERGED');
    expect(() => meanFieldEstimate(batch, { damping: 0, maxIterations: 50 })).toThrow(/problem 0 .*after 50 iterations/);
    const returned = meanFieldEstimate(batch, { damping: 0, maxIterations: 50, onNonConvergence: 'return' });
    expect(returned.diagnostics.converged).toBe(false);
    expect(returned.diagnostics.iterations[0]).toBe(50);
    expect(returned.diagnostics.residual[0]).toBeGreaterThan(1e-3);
    expect(returned.magnetization.every(Number.isFinite)).toBe(true);
    expect(meanFieldEstimate(batch, { damping: 0.9 }).diagnostics.converged).toBe(true);
  });

  it('should refuse a singular linear response in the VJP', () => {
    const batch = createIsingBatch({ fields: new Float64Array(2), couplings: Float64Array.of(0, 1, 0, 0), spins: [2], stride: 2 });
    const { magnetization, vjp } = meanFieldEstimate(batch);
    expect(Array.from(magnetization)).toEqual([0, 0]);
    expect(errorCode(() => vjp(Float64Array.of(1, 0)))).toBe('ISING_NOT_CONVERGED');
  });

  it('should validate its options with coded errors', () => {
    const bad: unknown[] = [
      { damping: 1 },
      { damping: -0.1 },
      { damping: Number.NaN },
      { tolerance: 0 },
      { tolerance: Infinity },
      { maxIterations: 0 },
      { maxIterations: 1.5 },
      { onNonConvergence: 'ignore' },
      null,
    ];
    for (const options of bad) {
      expect(errorCode(() => meanFieldSampler.create(options as MeanFieldOptions)), JSON.stringify(options)).toBe('ISING_INVALID_ARGUMENT');
    }
    expect(meanFieldSampler.create({ damping: 0, tolerance: 1e-6, maxIterations: 1 }).name).toBe('mean-field');
  });
});
