import { describe, expect, it } from 'vitest';
import { causalBatch, createRng, estimateTransferMatrix, transferMatrixSampler } from './index.js';
import type { BatchEstimate, IsingBatch } from './index.js';
import { thrownBy } from './testing/index.js';

/** A causal batch (batch × length) with couplings in the band `0 < k − j ≤ w`. */
function causal(
  seed: number,
  batch: number,
  length: number,
  w: number,
  fieldScale = 1,
): IsingBatch {
  const rng = createRng(seed);
  const fields = Float64Array.from(
    { length: batch * length * length },
    () => rng.normal() * fieldScale,
  );
  const couplings = new Float64Array(length * length);
  for (let j = 0; j < length; j++)
    for (let k = j + 1; k <= Math.min(j + w, length - 1); k++)
      couplings[j * length + k] = rng.normal() * 0.2;
  return causalBatch(fields, couplings, { batch, length });
}

const gradOf = (batch: IsingBatch): Float64Array =>
  Float64Array.from({ length: batch.fields.length }, (_, i) => Math.sin(0.37 * i));

function gap(a: Float64Array, b: Float64Array): number {
  let g = 0;
  for (let i = 0; i < a.length; i++) g = Math.max(g, Math.abs(a[i]! - b[i]!));
  return g;
}

describe("transfer-matrix precision: 'float32'", () => {
  it('should agree with float64 to float32 rounding: magnetizations, log Z and both gradients', () => {
    const batch = causal(1, 3, 40, 8);
    const x = estimateTransferMatrix(batch, { bandwidth: 8 });
    const y = estimateTransferMatrix(batch, { bandwidth: 8, precision: 'float32' });
    expect(gap(y.magnetization, x.magnetization)).toBeLessThan(2e-6);
    expect(gap(y.magnetization, x.magnetization)).toBeGreaterThan(0);
    expect(gap(y.logPartition, x.logPartition)).toBeLessThan(1e-5);
    const g = gradOf(batch);
    const dx = x.vjp(g);
    const dy = y.vjp(g);
    expect(gap(dy.fields, dx.fields)).toBeLessThan(2e-5);
    expect(gap(dy.couplings, dx.couplings)).toBeLessThan(1e-4);
  });

  it('should keep a problem with a step factor beyond e^±16 in float64 (bit for bit), the others in float32', () => {
    const batch = causal(2, 1, 24, 4);
    const last = batch.size - 1; // the full-length problem
    batch.fields[last * batch.stride + 5] = 30; // β |h| = 30 > 16
    const x = estimateTransferMatrix(batch, { bandwidth: 4 });
    const y = estimateTransferMatrix(batch, { bandwidth: 4, precision: 'float32' });
    const row = (m: Float64Array, q: number) =>
      m.subarray(q * batch.stride, (q + 1) * batch.stride);
    expect(row(y.magnetization, last)).toEqual(row(x.magnetization, last));
    expect(gap(row(y.magnetization, last - 1), row(x.magnetization, last - 1))).toBeGreaterThan(0);
  });

  it('should give the VJP of a tiny upstream gradient to float32 rounding (scaled, not flushed to 0)', () => {
    const batch = causal(6, 2, 32, 8);
    const g = gradOf(batch);
    const tiny = g.map((v) => v * 1e-25);
    const x = estimateTransferMatrix(batch, { bandwidth: 8 }).vjp(g);
    const y = estimateTransferMatrix(batch, { bandwidth: 8, precision: 'float32' }).vjp(tiny);
    const scale = x.fields.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
    expect(scale).toBeGreaterThan(0);
    expect(
      gap(
        y.fields.map((v) => v * 1e25),
        x.fields,
      ),
    ).toBeLessThan(2e-5 * scale);
    expect(
      gap(
        y.couplings.map((v) => v * 1e25),
        x.couplings,
      ),
    ).toBeLessThan(1e-4 * scale);
  });

  it('should scale each problem by its own gradient: one 1e-30 times the others keeps its precision', () => {
    const batch = causal(7, 1, 24, 4);
    const g = gradOf(batch);
    const q = batch.size - 1;
    for (let t = 0; t < batch.stride; t++) g[q * batch.stride + t]! *= 1e-30;
    const x = estimateTransferMatrix(batch, { bandwidth: 4 }).vjp(g);
    const y = estimateTransferMatrix(batch, { bandwidth: 4, precision: 'float32' }).vjp(g);
    const row = (a: Float64Array, p: number) =>
      a.subarray(p * batch.stride, (p + 1) * batch.stride);
    const own = row(x.fields, q).reduce((m, v) => Math.max(m, Math.abs(v)), 0);
    expect(own).toBeGreaterThan(0);
    expect(gap(row(y.fields, q), row(x.fields, q))).toBeLessThan(2e-5 * own);
    expect(gap(row(y.fields, q), row(x.fields, q))).toBeGreaterThan(0); // it ran in float32
  });

  it('should run windows below 3 in float64, bit for bit', () => {
    const batch = causal(3, 2, 16, 2);
    const x = estimateTransferMatrix(batch, { bandwidth: 2 });
    const y = estimateTransferMatrix(batch, { bandwidth: 2, precision: 'float32' });
    expect(y.magnetization).toEqual(x.magnetization);
    expect(y.vjp(gradOf(batch))).toEqual(x.vjp(gradOf(batch)));
  });

  it('should give the same float32 answer on 2 threads as on 1 (∂L/∂J: up to the order of the per-thread sums)', () => {
    const batch = causal(4, 12, 64, 8);
    const one = transferMatrixSampler.create({ precision: 'float32', threads: 1 }).estimate!(
      batch,
    ) as BatchEstimate;
    const two = transferMatrixSampler.create({ precision: 'float32', threads: 2 }).estimate!(
      batch,
    ) as BatchEstimate;
    expect(two.magnetization).toEqual(one.magnetization);
    const a = one.vjp(gradOf(batch));
    const b = two.vjp(gradOf(batch));
    expect(b.fields).toEqual(a.fields);
    const scale = a.couplings.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
    expect(scale).toBeGreaterThan(0);
    expect(gap(b.couplings, a.couplings)).toBeLessThan(1e-5 * scale);
  });

  it('should refuse an unknown precision with ISING_INVALID_ARGUMENT, from the estimator and the plugin', () => {
    const batch = causal(5, 1, 8, 2);
    const bad = { precision: 'float16' } as unknown as { precision: 'float32' };
    for (const call of [
      () => estimateTransferMatrix(batch, bad),
      () => transferMatrixSampler.create(bad),
    ]) {
      const error = thrownBy(call);
      expect(error).toMatchObject({ code: 'ISING_INVALID_ARGUMENT' });
      expect(String((error as Error).message)).toContain("'float64' or 'float32'");
    }
  });
});
