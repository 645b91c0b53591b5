import { describe, expect, it } from 'vitest';
import {
  causalBatch,
  createIsingBatch,
  createRng,
  meanFieldEstimate,
  meanFieldSampler,
} from './index.js';
import type { IsingBatch, MeanFieldOptions } from './index.js';
import { solveLinear } from './internal/solveLinear.js';
import { codeOf } from './testing/thrownErrors.js';
import { bruteForceEstimate } from './testing/index.js';

function randomCausal(
  seed: number,
  batch: number,
  length: number,
  fieldScale: number,
  couplingScale: number,
  beta = 1,
): IsingBatch {
  const rng = createRng(seed);
  const fields = Float64Array.from(
    { length: batch * length * length },
    () => rng.normal() * fieldScale,
  );
  const couplings = Float64Array.from(
    { length: length * length },
    () => rng.normal() * couplingScale,
  );
  return causalBatch(fields, couplings, { batch, length }, beta);
}

const maxAbsDiff = (a: Float64Array, b: Float64Array): number =>
  a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i]!)), 0);
const dot = (a: Float64Array, b: Float64Array): number => a.reduce((s, v, i) => s + v * b[i]!, 0);

// J = 0 exactness and finite differences of the VJP: fixedPointSamplers.test.ts (both samplers).
describe('meanFieldSampler', () => {
  it('should stay close to the exact magnetizations for weak couplings (|J| ≤ 0.05)', () => {
    const rng = createRng(5);
    const length = 8;
    const fields = Float64Array.from({ length: 2 * length * length }, () => rng.normal());
    const couplings = Float64Array.from(
      { length: length * length },
      () => (rng.next() * 2 - 1) * 0.05,
    );
    const batch = causalBatch(fields, couplings, { batch: 2, length });
    const mf = meanFieldEstimate(batch).magnetization;
    const exact = bruteForceEstimate(batch).magnetization;
    const independent = causalBatch(fields, new Float64Array(length * length), {
      batch: 2,
      length,
    });
    const naive = bruteForceEstimate(independent).magnetization;
    // Mean field must beat ignoring J altogether, and be close in absolute terms.
    expect(maxAbsDiff(mf, exact)).toBeLessThan(2e-3);
    expect(maxAbsDiff(mf, exact)).toBeLessThan(maxAbsDiff(naive, exact) / 5);
  });

  it('should run at n = 128 and match finite differences there', () => {
    const causal = randomCausal(31, 1, 128, 1, 0.02);
    const all = meanFieldEstimate(causal, { tolerance: 1e-14 });
    expect(all.diagnostics.converged).toBe(true);
    expect(all.magnetization.every((v) => Number.isFinite(v) && Math.abs(v) <= 1)).toBe(true);
    // Finite differences on the longest prefix alone (one 128-spin problem) keep the test fast.
    const fieldsOf = (f: Float64Array): Float64Array => f.slice(127 * 128);
    const single = (fields: Float64Array, couplings: Float64Array): IsingBatch =>
      createIsingBatch({ fields, couplings, spins: [128], stride: 128 });
    const batch = single(fieldsOf(causal.fields), causal.couplings);
    const estimate = meanFieldEstimate(batch, { tolerance: 1e-14 });
    expect(Array.from(estimate.magnetization)).toEqual(
      Array.from(all.magnetization.subarray(127 * 128)),
    );
    const grad = Float64Array.from({ length: 128 }, (_, j) => Math.cos(j));
    const { fields: dh, couplings: dJ } = estimate.vjp(grad);
    const loss = (fields: Float64Array, couplings: Float64Array): number =>
      dot(meanFieldEstimate(single(fields, couplings), { tolerance: 1e-14 }).magnetization, grad);
    const eps = 1e-5;
    for (const [k, l] of [
      [0, 127],
      [3, 64],
      [100, 101],
    ] as const) {
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

  it('should return the last iterate on non-convergence by default, and throw ISING_NOT_CONVERGED when asked', () => {
    const batch = createIsingBatch({
      fields: Float64Array.of(0.5, 0.5),
      couplings: Float64Array.of(0, -3, 0, 0),
      spins: [2],
      stride: 2,
    });
    const plain = { damping: 0, anderson: 0, maxIterations: 50 };
    const returned = meanFieldEstimate(batch, plain);
    expect(returned.diagnostics).toMatchObject({ converged: false, missed: 1, tolerance: 1e-10 });
    expect(returned.diagnostics.iterations[0]).toBe(50);
    expect(returned.diagnostics.residual[0]).toBeGreaterThan(1e-3);
    expect(returned.magnetization.every(Number.isFinite)).toBe(true);
    expect(codeOf(() => meanFieldEstimate(batch, { ...plain, onNonConvergence: 'throw' }))).toBe(
      'ISING_NOT_CONVERGED',
    );
    expect(() => meanFieldEstimate(batch, { ...plain, onNonConvergence: 'throw' })).toThrow(
      /problem 0 .*after 50 iterations/,
    );
    // Heavy damping reaches the (unstable, symmetric) fixed point; so does Anderson without damping.
    expect(meanFieldEstimate(batch, { damping: 0.9, anderson: 0 }).diagnostics.converged).toBe(
      true,
    );
    expect(meanFieldEstimate(batch, { damping: 0 }).diagnostics.converged).toBe(true);
  });

  it('should solve the adjoint at a saddle point too (CG meets negative curvature, CG on the normal equations finishes)', () => {
    // J = −3 between two spins: heavy damping reaches the symmetric solution, a saddle of the mean-field free
    // energy (the iteration never leaves the symmetric subspace), where I − D^{1/2} J D^{1/2} is indefinite.
    // The forward map is not differentiable there in practice, so compare with the dense implicit solution.
    const batch = createIsingBatch({
      fields: Float64Array.of(0.5, 0.5),
      couplings: Float64Array.of(0, -3, 0, 0),
      spins: [2],
      stride: 2,
    });
    const estimate = meanFieldEstimate(batch, {
      damping: 0.9,
      anderson: 0,
      tolerance: 1e-14,
      maxIterations: 5000,
    });
    expect(estimate.diagnostics.converged).toBe(true);
    const m = estimate.magnetization;
    const d = Array.from(m, (v) => 1 - v * v);
    expect(3 * Math.sqrt(d[0]! * d[1]!)).toBeGreaterThan(1); // indefinite
    const grad = Float64Array.of(1, -0.3);
    const got = estimate.vjp(grad);
    expect(got.diagnostics.converged).toBe(true);
    // (I − J D) λ = g, ∂h = D λ, ∂J_01 = (Dλ)_0 m_1 + (Dλ)_1 m_0.
    const lambda = solveLinear(Float64Array.of(1, 3 * d[1]!, 3 * d[0]!, 1), grad, 2)!;
    const u = [d[0]! * lambda[0]!, d[1]! * lambda[1]!];
    expect(Math.abs(got.fields[0]! - u[0]!)).toBeLessThan(1e-9);
    expect(Math.abs(got.fields[1]! - u[1]!)).toBeLessThan(1e-9);
    expect(Math.abs(got.couplings[1]! - (u[0]! * m[1]! + u[1]! * m[0]!))).toBeLessThan(1e-9);
  });

  it('should report a singular linear response in the VJP diagnostics, or throw when asked', () => {
    const batch = createIsingBatch({
      fields: new Float64Array(2),
      couplings: Float64Array.of(0, 1, 0, 0),
      spins: [2],
      stride: 2,
    });
    const { magnetization, vjp } = meanFieldEstimate(batch, { maxIterations: 200 });
    expect(Array.from(magnetization)).toEqual([0, 0]);
    const returned = vjp(Float64Array.of(1, 0));
    expect(returned.diagnostics.missed).toBe(1);
    expect(returned.fields.every(Number.isFinite)).toBe(true);
    const strict = meanFieldEstimate(batch, { maxIterations: 200, onNonConvergence: 'throw' });
    expect(codeOf(() => strict.vjp(Float64Array.of(1, 0)))).toBe('ISING_NOT_CONVERGED');
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
      { anderson: -1 },
      { anderson: 1.5 },
      { anderson: 21 },
      { warmStart: 'yes' },
      null,
    ];
    for (const options of bad) {
      expect(
        codeOf(() => meanFieldSampler.create(options as MeanFieldOptions)),
        JSON.stringify(options),
      ).toBe('ISING_INVALID_ARGUMENT');
    }
    expect(
      meanFieldSampler.create({
        damping: 0,
        tolerance: 1e-6,
        maxIterations: 1,
        anderson: 0,
        warmStart: true,
      }).name,
    ).toBe('mean-field');
  });
});
