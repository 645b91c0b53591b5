import { describe, expect, it } from 'vitest';
import { createRng } from '../../rng.js';
import { bruteForceEstimate } from '../../testing/bruteForce.js';
import { createIsingBatch } from '../../batch.js';
import { runChain } from './transferKernel.js';

/** A chain of `n` spins with bandwidth `w` as a kernel problem and as a one-problem batch (for the reference). */
function chain(seed: number, n: number, w: number) {
  const rng = createRng(seed);
  const fields = Float64Array.from({ length: n }, () => rng.normal() * 1.5);
  const couplings = new Float64Array(n * n);
  const band = new Float64Array(n * w);
  for (let t = 0; t < n; t++) {
    for (let b = Math.max(0, w - t); b < w; b++) {
      const v = rng.normal() * 0.7;
      band[t * w + b] = v;
      couplings[(t - w + b) * n + t] = v;
    }
  }
  const beta = 0.8;
  return { problem: { n, window: w, beta, fields, band }, batch: createIsingBatch({ fields, couplings, spins: [n], stride: n, beta }) };
}

describe('runChain', () => {
  it('should give the same moments and VJP with checkpointed backward messages as with all of them stored', () => {
    for (const [n, w] of [
      [1, 0],
      [7, 2],
      [12, 4],
      [16, 5],
    ] as const) {
      const { problem, batch } = chain(n * 10 + w, n, w);
      const grad = Float64Array.from({ length: n }, (_, i) => Math.sin(3 * i + 1));
      const stored = runChain(problem, grad);
      const checkpointed = runChain(problem, grad, 1); // segments of ⌈√n⌉ positions
      const ref = bruteForceEstimate(batch);
      const refGrad = ref.vjp(grad);
      for (let t = 0; t < n; t++) {
        expect(Math.abs(checkpointed.magnetization[t]! - stored.magnetization[t]!)).toBeLessThan(1e-13);
        expect(Math.abs(checkpointed.fieldGrad![t]! - stored.fieldGrad![t]!)).toBeLessThan(1e-13);
        expect(Math.abs(stored.magnetization[t]! - ref.magnetization[t]!)).toBeLessThan(1e-12);
        expect(Math.abs(stored.fieldGrad![t]! - refGrad.fields[t]!)).toBeLessThan(1e-12);
        for (let b = Math.max(0, w - t); b < w; b++) {
          expect(Math.abs(checkpointed.bandGrad![t * w + b]! - stored.bandGrad![t * w + b]!)).toBeLessThan(1e-13);
          expect(Math.abs(stored.bandGrad![t * w + b]! - refGrad.couplings[(t - w + b) * n + t]!)).toBeLessThan(1e-12);
        }
      }
      expect(Math.abs(checkpointed.logPartition - stored.logPartition)).toBeLessThan(1e-12);
      // The forward pass alone gives the same magnetizations as the pass with tangents.
      expect(runChain(problem, undefined).magnetization).toEqual(stored.magnetization);
    }
  });
});
