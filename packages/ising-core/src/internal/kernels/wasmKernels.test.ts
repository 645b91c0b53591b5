import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { splitBackward, splitForward } from './splitKernels.js';
import {
  splitBackwardFast,
  splitForwardFast,
  useWasmKernels,
  wasmArena,
  wasmArenaInUse,
} from './wasmKernels.js';

afterEach(() => {
  useWasmKernels(true);
});

/** Seeded values of both signs over several magnitudes. */
function fill(a: Float64Array, seed: number): void {
  let x = seed | 0;
  for (let i = 0; i < a.length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) | 0;
    a[i] = (((x >>> 0) / 2 ** 32) * 2 - 0.5) * 10 ** ((i % 5) - 2);
  }
}

const same = (x: Float64Array, y: Float64Array) => expect(Array.from(x)).toEqual(Array.from(y));

describe('wasm split kernels', () => {
  it('run on this engine (Node 20 has WebAssembly SIMD)', () => {
    expect(useWasmKernels(true)).toBe(true);
    expect(wasmArenaInUse()).toBe(true);
  });

  it('are bit-identical to the JavaScript kernels, forward and backward, on random tables', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 7 }),
        fc.integer(),
        (m, hb, seed) => {
          const lowN = 2 ** m;
          const highN = 2 ** hb;
          const [E, L, H, A, B, a, b, acc, col, row] = wasmArena([
            lowN * highN,
            lowN,
            highN,
            lowN,
            lowN,
            highN,
            highN,
            lowN * highN,
            lowN,
            highN,
          ])!;
          [E, L, H, A, B, a, b, acc].forEach((t, i) => fill(t!, seed + i));
          // The JavaScript kernels on plain copies of the same inputs.
          const jsCol = new Float64Array(lowN);
          const jsRow = new Float64Array(highN);
          splitForward(E!.slice(), L!.slice(), H!.slice(), m, hb, jsCol, jsRow);
          splitForwardFast(E!, L!, H!, m, hb, col!, row!);
          same(col!, jsCol);
          same(row!, jsRow);
          const jsAcc = acc!.slice();
          splitBackward(
            E!.slice(),
            A!.slice(),
            B!.slice(),
            a!.slice(),
            b!.slice(),
            m,
            hb,
            jsAcc,
            jsCol,
            jsRow,
          );
          splitBackwardFast(E!, A!, B!, a!, b!, m, hb, acc!, col!, row!);
          same(acc!, jsAcc);
          same(col!, jsCol);
          same(row!, jsRow);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('leave plain arrays and single-row or single-column splits to the JavaScript kernels', () => {
    const E = Float64Array.of(1, 2, 3, 4);
    const ones = Float64Array.of(1, 1, 1, 1);
    const col = new Float64Array(4);
    const row = new Float64Array(4);
    splitForwardFast(E, ones, ones, 2, 0, col, row); // plain arrays, one high row
    same(col, Float64Array.of(1, 2, 3, 4));
    same(row.subarray(0, 1), Float64Array.of(10));
    const [e, l, h, c, r] = wasmArena([4, 4, 4, 4, 4])!;
    e!.set(E);
    l!.set(ones);
    h!.set(ones);
    splitForwardFast(e!, l!, h!, 0, 2, c!, r!); // arena views, one low column
    same(c!.subarray(0, 1), Float64Array.of(10));
    same(r!, Float64Array.of(1, 2, 3, 4));
  });

  it('can be switched off, so the JavaScript kernels do the work', () => {
    expect(useWasmKernels(false)).toBe(false);
    expect(wasmArenaInUse()).toBe(false);
    expect(wasmArena([4])).toBeUndefined();
    expect(useWasmKernels(true)).toBe(true);
  });
});
