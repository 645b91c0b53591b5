import { describe, expect, it } from 'vitest';
import { createRng } from '../../rng.js';
import { runChain } from './transferKernel.js';
import { foldBandGrad, linearVjp } from './linearVjp.js';
import { bandTables, linearForward, linearScratch } from './transferLinear.js';
import { useWasmTransfer, wasmTransferForward, wasmTransferVjp } from './transferWasm.js';

/** A band of `length` positions and window `W` (zero where `t − W + b < 0`), and problems of the given lengths. */
function setup(
  seed: number,
  length: number,
  W: number,
  lengths: readonly number[],
  fieldScale: number,
  couplingScale: number,
) {
  const rng = createRng(seed);
  const band = new Float64Array(length * W);
  for (let t = 0; t < length; t++)
    for (let b = Math.max(0, W - t); b < W; b++) band[t * W + b] = rng.normal() * couplingScale;
  const fields = Float64Array.from(
    { length: lengths.length * length },
    () => rng.normal() * fieldScale,
  );
  const grad = Float64Array.from({ length: lengths.length * length }, () => rng.normal());
  return { band, fields, grad };
}

describe('batched linear-domain transfer kernel', () => {
  it('should equal runChain (log domain) for m, log Z, ∂L/∂h and the batch-summed ∂L/∂J, short problems included', () => {
    let seed = 1;
    for (const W of [1, 2, 3, 5, 7]) {
      for (const beta of [0.6, 1.7]) {
        const length = 3 * W + 5;
        const lengths = [length, 1, W, W + 1, Math.max(1, length - 2), 2];
        const { band, fields, grad } = setup(seed++, length, W, lengths, 1.5, 0.7);
        const tables = bandTables(band, length, W, beta);
        const fwd = linearScratch(tables, false);
        const tan = linearScratch(tables, true);
        const acc = new Float64Array(length << W);
        const acc0 = new Float64Array(length);
        const wantBand = new Float64Array(length * W);
        for (let q = 0; q < lengths.length; q++) {
          const n = lengths[q]!;
          const what = `W=${W} β=${beta} problem ${q} (n=${n})`;
          const at = q * length;
          const problem = { n, window: W, beta, fields: fields.subarray(at, at + n), band };
          const ref = runChain(problem, grad.subarray(at, at + n), { domain: 'log' });
          const m = new Float64Array(n);
          const logZ = linearForward(tables, fields, at, n, fwd, m, 0);
          expect(Math.abs(logZ - ref.logPartition), `${what}: log Z`).toBeLessThan(
            1e-11 * Math.max(1, Math.abs(ref.logPartition)),
          );
          const dh = new Float64Array(length + 1);
          linearVjp(tables, fields, at, grad, at, n, tan, dh, 1, acc, acc0);
          for (let t = 0; t < n; t++) {
            expect(Math.abs(m[t]! - ref.magnetization[t]!), `${what}: m[${t}]`).toBeLessThan(1e-12);
            expect(Math.abs(dh[1 + t]! - ref.fieldGrad![t]!), `${what}: ∂L/∂h[${t}]`).toBeLessThan(
              1e-12,
            );
          }
          for (let i = 0; i < n * W; i++) wantBand[i]! += ref.bandGrad![i]!;
        }
        const got = new Float64Array(length * W);
        foldBandGrad(acc, acc0, length, W, got);
        for (let t = 0; t < length; t++) {
          for (let b = Math.max(0, W - t); b < W; b++) {
            expect(
              Math.abs(got[t * W + b]! - wantBand[t * W + b]!),
              `W=${W} β=${beta}: Σ_q ∂L/∂J[${t - W + b},${t}]`,
            ).toBeLessThan(1e-11);
          }
        }
      }
    }
  });

  it('should match runChain at the edge of the linear range (fields and couplings near the dynamic-range bound) on a long chain', () => {
    const W = 4;
    const length = 200;
    // 2β Σ over 5 spins of (|h| + Σ|J|) stays below 250 with |h| ≲ 8, |J| ≲ 1.5.
    const { band, fields, grad } = setup(77, length, W, [length], 6, 1);
    for (let i = 0; i < fields.length; i++) fields[i] = Math.max(-8, Math.min(8, fields[i]!));
    for (let i = 0; i < band.length; i++) band[i] = Math.max(-1.5, Math.min(1.5, band[i]!));
    const beta = 1.2;
    const problem = { n: length, window: W, beta, fields, band };
    const ref = runChain(problem, grad, { domain: 'log' });
    const tables = bandTables(band, length, W, beta);
    const m = new Float64Array(length);
    const logZ = linearForward(tables, fields, 0, length, linearScratch(tables, false), m, 0);
    const dh = new Float64Array(length);
    const acc = new Float64Array(length << W);
    const acc0 = new Float64Array(length);
    linearVjp(tables, fields, 0, grad, 0, length, linearScratch(tables, true), dh, 0, acc, acc0);
    const dBand = new Float64Array(length * W);
    foldBandGrad(acc, acc0, length, W, dBand);
    expect(Math.abs(logZ - ref.logPartition)).toBeLessThan(1e-12 * Math.abs(ref.logPartition));
    for (let t = 0; t < length; t++) {
      expect(Math.abs(m[t]! - ref.magnetization[t]!), `m[${t}]`).toBeLessThan(1e-11);
      expect(Math.abs(dh[t]! - ref.fieldGrad![t]!), `∂L/∂h[${t}]`).toBeLessThan(1e-10);
      for (let b = Math.max(0, W - t); b < W; b++)
        expect(
          Math.abs(dBand[t * W + b]! - ref.bandGrad![t * W + b]!),
          `∂L/∂J at ${t},${b}`,
        ).toBeLessThan(1e-10);
    }
  });
});

describe('wasm SIMD transfer kernel', () => {
  it('should equal linearForward (m, log Z) and linearVjp (∂L/∂h, the accumulated band sums) to rounding, problems of every length', () => {
    expect(useWasmTransfer(true)).toBe(true);
    let seed = 300;
    for (const W of [2, 3, 5, 8]) {
      const length = 2 * W + 9;
      const lengths = [length, 1, 2, W, W + 1, length - 3];
      const { band, fields, grad } = setup(seed++, length, W, lengths, 1.2, 0.6);
      const tables = bandTables(band, length, W, 1.3);
      const scratch = linearScratch(tables, true);
      const S = 1 << W;
      const acc = new Float64Array(length * S);
      const acc0 = new Float64Array(length);
      const dh = new Float64Array(lengths.length * length);
      const accW = new Float64Array(length * S);
      const acc0W = new Float64Array(length);
      const dhW = new Float64Array(lengths.length * length);
      const forward = wasmTransferForward(tables)!;
      const fwd = linearScratch(tables, false);
      for (let q = 0; q < lengths.length; q++) {
        const n = lengths[q]!;
        const m = new Float64Array(n);
        const mW = new Float64Array(n + 2);
        const logZ = linearForward(tables, fields, q * length, n, fwd, m, 0);
        const logZW = forward(fields, q * length, n, mW, 2);
        expect(Math.abs(logZW - logZ), `W=${W} problem ${q}: log Z`).toBeLessThan(
          1e-12 * Math.max(1, Math.abs(logZ)),
        );
        for (let t = 0; t < n; t++)
          expect(Math.abs(mW[2 + t]! - m[t]!), `W=${W} problem ${q}: m[${t}]`).toBeLessThan(1e-13);
      }
      const wasm = wasmTransferVjp(tables)!; // a new layout: after the forward runs
      for (let q = 0; q < lengths.length; q++) {
        linearVjp(
          tables,
          fields,
          q * length,
          grad,
          q * length,
          lengths[q]!,
          scratch,
          dh,
          q * length,
          acc,
          acc0,
        );
        wasm.run(fields, q * length, grad, q * length, lengths[q]!, dhW, q * length);
      }
      wasm.collect(accW, acc0W);
      for (let i = 0; i < dh.length; i++)
        expect(Math.abs(dhW[i]! - dh[i]!), `W=${W}: ∂L/∂h[${i}]`).toBeLessThan(1e-13);
      for (let i = 0; i < acc.length; i++)
        expect(Math.abs(accW[i]! - acc[i]!), `W=${W}: acc[${i}]`).toBeLessThan(1e-13);
      for (let i = 0; i < length; i++)
        expect(Math.abs(acc0W[i]! - acc0[i]!), `W=${W}: acc0[${i}]`).toBeLessThan(1e-13);
    }
    expect(wasmTransferVjp(bandTables(new Float64Array(4), 4, 1, 1))).toBeUndefined(); // W = 1: the JavaScript kernel
    expect(wasmTransferForward(bandTables(new Float64Array(4), 4, 1, 1))).toBeUndefined();
  });
});
