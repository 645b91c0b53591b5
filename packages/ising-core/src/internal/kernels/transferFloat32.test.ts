import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs kernel writer without type declarations
import { transferFloat32 } from './wasm/transfer/transferFloat32.mjs';
import { createRng } from '../../rng.js';
import { linearVjp } from './linearVjp.js';
import { bandTables, linearForward, linearScratch } from './transferLinear.js';
import { wasmTransferForward, wasmTransferVjp } from './transferWasm.js';
import { relativeError } from '../testing/close.js';

/** Largest |a − b| over the entries, divided by max(1, largest |b|). */
const relativeGap = (a: ArrayLike<number>, b: ArrayLike<number>) => relativeError(a, b, 1);

/** Problems of every length 1 … n on one band (a causal batch's shape), fields of `fieldScale`. */
function problems(seed: number, n: number, W: number, fieldScale: number, couplingScale: number) {
  const rng = createRng(seed);
  const band = new Float64Array(n * W);
  for (let t = 0; t < n; t++)
    for (let b = Math.max(0, W - t); b < W; b++) band[t * W + b] = rng.normal() * couplingScale;
  const fields = Float64Array.from({ length: n * n }, () => rng.normal() * fieldScale);
  const grad = Float64Array.from({ length: n * n }, () => rng.normal());
  return { band, fields, grad, lengths: Array.from({ length: n }, (_, q) => q + 1) };
}

describe('float32 wasm transfer kernel (transfer.wat in four lanes, wasm/transfer/transferFloat32.mjs)', () => {
  // Field scale 6 puts most window states far below 2^-60 of the largest: the flush to zero runs.
  for (const [W, fieldScale, couplingScale] of [
    [3, 0.8, 0.4],
    [5, 1.5, 0.3],
    [8, 1, 0.1],
    [8, 6, 0.2],
  ] as const) {
    it(`should equal the float64 JavaScript kernel to float32 rounding (W = ${W}, fields × ${fieldScale})`, () => {
      const n = 2 * W + 11;
      const { band, fields, grad, lengths } = problems(40 + W, n, W, fieldScale, couplingScale);
      const tables = bandTables(band, n, W, 1);
      const S = 1 << W;
      const m = new Float64Array(n * n);
      const m32 = new Float64Array(n * n);
      const logZ = new Float64Array(n);
      const logZ32 = new Float64Array(n);
      const forward32 = wasmTransferForward(tables, 'float32')!;
      const scratch = linearScratch(tables, true);
      for (const [q, len] of lengths.entries()) {
        logZ[q] = linearForward(tables, fields, q * n, len, scratch, m, q * n);
        logZ32[q] = forward32(fields, q * n, len, m32, q * n);
      }
      expect(relativeGap(m32, m)).toBeLessThan(2e-6);
      expect(relativeGap(logZ32, logZ)).toBeLessThan(2e-6);
      expect(relativeGap(m32, m)).toBeGreaterThan(0); // it really ran in float32

      const dh = new Float64Array(n * n);
      const dh32 = new Float64Array(n * n);
      const acc = new Float64Array(n * S);
      const acc0 = new Float64Array(n);
      const acc32 = new Float64Array(n * S);
      const acc032 = new Float64Array(n);
      const vjp32 = wasmTransferVjp(tables, 'float32')!;
      for (const [q, len] of lengths.entries()) {
        linearVjp(tables, fields, q * n, grad, q * n, len, scratch, dh, q * n, acc, acc0);
        vjp32.run(fields, q * n, grad, q * n, len, dh32, q * n);
      }
      vjp32.collect(acc32, acc032);
      expect(relativeGap(dh32, dh)).toBeLessThan(2e-5);
      expect(relativeGap(acc32, acc)).toBeLessThan(2e-5);
      expect(relativeGap(acc032, acc0)).toBeLessThan(2e-5);
      for (const v of [...m32, ...dh32, ...acc32]) expect(Number.isFinite(v)).toBe(true);
    });
  }

  it('should not take windows below 3 (a half message must fill a four-lane vector)', () => {
    const tables = bandTables(new Float64Array(8), 4, 2, 1);
    expect(wasmTransferForward(tables, 'float32')).toBeUndefined();
    expect(wasmTransferVjp(tables, 'float32')).toBeUndefined();
    expect(wasmTransferForward(tables, 'float64')).toBeDefined();
  });

  it('should refuse a transfer.wat its rewrites no longer fit, naming the rewrite', () => {
    expect(() => transferFloat32('(module)')).toThrow(/rewrite "ones" matched nothing/);
  });
});
