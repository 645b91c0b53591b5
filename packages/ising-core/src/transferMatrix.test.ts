import { describe, expect, it } from 'vitest';
import {
  causalBatch,
  createRng,
  estimateExact,
  estimateTransferMatrix,
  logPartition,
  transferMatrixSampler,
} from './index.js';
import type { BatchEstimate, IsingBatch } from './index.js';
import { bandedCouplings, expectClose, randomBanded } from './internal/testing/bandedBatches.js';
import { bruteForceEstimate, bruteForceMoments } from './testing/index.js';
import { describeSamplerConformance } from './testing/vitest.js';

// Long batches and the wasm kernel: transferMatrixKernels.test.ts; refusals:
// transferMatrixErrors.test.ts.

const dot = (a: Float64Array, b: Float64Array): number => a.reduce((s, v, i) => s + v * b[i]!, 0);

/**
 * Compares the transfer-matrix estimate with enumeration (`reference`: the brute-force one, or
 * `estimateExact` where brute force is too slow): m, log Z, ∂L/∂h, ∂L/∂J in the band and 0 outside.
 */
function expectMatchesEnumeration(
  batch: IsingBatch,
  w: number,
  seed: number,
  reference: 'brute-force' | 'exact' = 'brute-force',
): void {
  const { stride, size } = batch;
  const est = estimateTransferMatrix(batch, { bandwidth: w });
  const ref: BatchEstimate =
    reference === 'exact' ? estimateExact(batch, { threads: 1 }) : bruteForceEstimate(batch);
  const used = (i: number): boolean => i % stride < batch.spins[Math.floor(i / stride)]!;
  expectClose(est.magnetization, ref.magnetization, 1e-10, `m (w=${w})`);
  for (let q = 0; q < size; q++) {
    const { logPartition } = bruteForceMoments(
      batch.fields.subarray(q * stride),
      batch.couplings,
      batch.spins[q]!,
      batch.beta,
    );
    expect(
      Math.abs(est.logPartition[q]! - logPartition),
      `log Z of problem ${q}`,
    ).toBeLessThanOrEqual(1e-10 * Math.max(1, Math.abs(logPartition)));
  }
  const rng = createRng(seed + 1);
  const grad = Float64Array.from({ length: size * stride }, () => rng.normal());
  const got = est.vjp(grad);
  const want = ref.vjp(grad);
  expectClose(got.fields, want.fields, 1e-10, `∂L/∂h (w=${w})`, used);
  for (let k = 0; k < stride; k++) {
    for (let l = 0; l < stride; l++) {
      const i = k * stride + l;
      if (l > k && l - k <= w)
        expectClose(
          got.couplings.subarray(i, i + 1),
          want.couplings.subarray(i, i + 1),
          1e-10,
          `∂L/∂J[${k},${l}] (w=${w})`,
        );
      else expect(got.couplings[i], `∂L/∂J[${k},${l}] outside the band`).toBe(0);
    }
  }
}

describe('estimateTransferMatrix', () => {
  it('should equal enumeration (m, log Z, both VJP outputs to 1e-10) for every bandwidth 0..n−1, n ≤ 16', () => {
    let seed = 100;
    for (const n of [1, 2, 3, 4, 6, 9, 13, 16]) {
      for (let w = 0; w < n; w++) {
        seed++;
        const beta = seed % 2 === 0 ? 0.7 : 1.9;
        // Brute force (n² work per state) up to 9 spins, estimateExact beyond.
        expectMatchesEnumeration(
          randomBanded(seed, n, w, 2, 0.8, beta),
          w,
          seed,
          n <= 9 ? 'brute-force' : 'exact',
        );
      }
    }
  });

  it('should equal enumeration at n = 20 too (the largest size the exact sampler is fast at), for w = 2, 9 and 16 (its largest bandwidth)', () => {
    let seed = 900;
    for (const w of [2, 9, 16]) {
      seed++;
      const batch = randomBanded(seed, 20, w, 2, 0.6, 1.2);
      const est = estimateTransferMatrix(batch, { bandwidth: w });
      const ref = estimateExact(batch, { threads: 1 });
      const stride = 20;
      const used = (i: number): boolean => i % stride < batch.spins[Math.floor(i / stride)]!;
      expectClose(est.magnetization, ref.magnetization, 1e-10, `m (w=${w})`);
      for (let q = 0; q < batch.size; q++) {
        const fieldsQ = batch.fields.subarray(q * stride, q * stride + batch.spins[q]!);
        const logZ = logPartition(fieldsQ, batch.couplings, {
          spins: batch.spins[q]!,
          beta: batch.beta,
        });
        expect(
          Math.abs(est.logPartition[q]! - logZ),
          `log Z of problem ${q} (w=${w})`,
        ).toBeLessThanOrEqual(1e-10 * Math.max(1, Math.abs(logZ)));
      }
      const grad = Float64Array.from({ length: batch.size * stride }, (_, i) => Math.sin(i + w));
      const got = est.vjp(grad);
      const want = ref.vjp(grad);
      expectClose(got.fields, want.fields, 1e-10, `∂L/∂h (w=${w})`, used);
      expectClose(got.couplings, want.couplings, 1e-10, `∂L/∂J (w=${w})`, (i) => {
        const k = Math.floor(i / stride);
        const l = i % stride;
        return l > k && l - k <= w;
      });
    }
  });

  it('should stay exact for fields up to |h| = 1e3, strong couplings and β far from 1', () => {
    let seed = 500;
    for (const [n, fieldScale, couplingScale, beta] of [
      [10, 1e3, 1, 1.3],
      [12, 1e3, 3, 0.05],
      [11, 5, 2, 25],
      [9, 1e3, 1e3, 1], // past and future evidence disagree by thousands of nats
    ] as const) {
      for (const w of [0, 1, 3, n - 1]) {
        seed++;
        expectMatchesEnumeration(
          randomBanded(seed, n, w, fieldScale, couplingScale, beta),
          w,
          seed,
        );
      }
    }
  });

  it('should give the same answer with a wider bandwidth, and the true ∂L/∂J of the zero couplings it then covers', () => {
    const n = 14;
    const batch = randomBanded(7, n, 3, 1.5, 0.7, 1.1);
    const narrow = estimateTransferMatrix(batch, { bandwidth: 3 });
    const wide = estimateTransferMatrix(batch, { bandwidth: 9 });
    expectClose(wide.magnetization, narrow.magnetization, 1e-12, 'm');
    const grad = Float64Array.from({ length: batch.size * n }, (_, i) => Math.cos(i));
    expectClose(wide.vjp(grad).fields, narrow.vjp(grad).fields, 1e-12, '∂L/∂h');
    const exact = estimateExact(batch, { threads: 1 }).vjp(grad).couplings;
    const dJ = wide.vjp(grad).couplings;
    const narrowJ = narrow.vjp(grad).couplings;
    for (let k = 0; k < n; k++) {
      for (let l = k + 1; l < n; l++) {
        const i = k * n + l;
        if (l - k <= 3)
          expect(Math.abs(dJ[i]! - narrowJ[i]!), `∂L/∂J[${k},${l}] in both bands`).toBeLessThan(
            1e-12,
          );
        if (l - k <= 9)
          expect(Math.abs(dJ[i]! - exact[i]!), `∂L/∂J[${k},${l}] against enumeration`).toBeLessThan(
            1e-10,
          );
        else expect(dJ[i], `∂L/∂J[${k},${l}] outside the band`).toBe(0);
      }
    }
  });

  it('should match central finite differences of L = Σ g·m in h and in every banded J', () => {
    const n = 10;
    const w = 3;
    const rng = createRng(31);
    const base = causalBatch(
      Float64Array.from({ length: 2 * n * n }, () => rng.normal()),
      bandedCouplings(rng, n, w, 0.6),
      { batch: 2, length: n },
      1.4,
    );
    const grad = Float64Array.from({ length: base.size * n }, () => rng.normal());
    const { fields: dh, couplings: dJ } = estimateTransferMatrix(base, { bandwidth: w }).vjp(grad);
    const loss = (fields: Float64Array, couplings: Float64Array): number =>
      dot(
        estimateTransferMatrix(causalBatch(fields, couplings, { batch: 2, length: n }, 1.4), {
          bandwidth: w,
        }).magnetization,
        grad,
      );
    const eps = 1e-5;
    for (let i = 0; i < base.fields.length; i++) {
      if (i % n > Math.floor(i / n) % n) continue; // beyond the prefix: not a spin
      const plus = Float64Array.from(base.fields);
      const minus = Float64Array.from(base.fields);
      plus[i]! += eps;
      minus[i]! -= eps;
      const fd = (loss(plus, base.couplings) - loss(minus, base.couplings)) / (2 * eps);
      expect(Math.abs(fd - dh[i]!), `∂L/∂h[${i}]: fd ${fd}, vjp ${dh[i]}`).toBeLessThan(1e-7);
    }
    for (let k = 0; k < n; k++) {
      for (let l = k + 1; l <= Math.min(k + w, n - 1); l++) {
        const plus = Float64Array.from(base.couplings);
        const minus = Float64Array.from(base.couplings);
        plus[k * n + l]! += eps;
        minus[k * n + l]! -= eps;
        const fd = (loss(base.fields, plus) - loss(base.fields, minus)) / (2 * eps);
        expect(
          Math.abs(fd - dJ[k * n + l]!),
          `∂L/∂J[${k},${l}]: fd ${fd}, vjp ${dJ[k * n + l]}`,
        ).toBeLessThan(1e-7);
      }
    }
  });
});

// Exact: held to rounding error, at the default bandwidth and at the narrowest one the B = 2, T = 4 random batch fits.
describeSamplerConformance(transferMatrixSampler, {
  tolerance: { magnetization: 1e-12, gradient: 1e-12 },
});
describeSamplerConformance(transferMatrixSampler, {
  createOptions: { bandwidth: 3 },
  tolerance: { magnetization: 1e-12, gradient: 1e-12 },
  seed: 2,
});
