// native/fpMode.h: every native kernel runs with flush-to-zero and denormals-are-zero, and the
// caller's floating-point mode is back after each call, so JavaScript on the same thread keeps
// IEEE subnormals. The WebAssembly kernels keep subnormals (wasm has no such mode).
import { describe, expect, it } from 'vitest';
import { itWithoutAddon } from '../../testing/nativeKernels.js';
import { createArena } from '../arena.js';
import { createEngineKernels } from '../engineKernels.js';
import { loadNativeAddon } from './nativeAddon.js';

const SUBNORMAL = 2 ** -140; // a float32 subnormal (below 2^−126), exact in float32

/** C = A·B for A = [x, x], B = [1; 1]: 2x, or 0 where x is read as 0. */
function twice(backend: 'native' | 'wasm', isa?: string): number {
  const k = createEngineKernels(createArena(64), { backend, isa });
  const f = k.f32();
  f.set([SUBNORMAL, SUBNORMAL, 1, 1], 0);
  k.gemm({ m: 1, n: 1, k: 2, a: 0, b: 2, c: 4 });
  return f[4]!;
}

/** 2⁻¹⁰⁷⁴ · 2 in JavaScript, hot enough to be compiled, each call on a fresh operand. */
function jsSubnormalDouble(rounds: number): number {
  let x = 0;
  for (let i = 0; i < rounds; i++) x = Number.MIN_VALUE * (2 + (i % 2));
  return x;
}

describe('native kernels without subnormals', () => {
  const load = loadNativeAddon();
  it('wasm keeps a float32 subnormal', () => {
    expect(twice('wasm')).toBe(Math.fround(2 * SUBNORMAL));
  });
  if (load.addon === undefined) return itWithoutAddon('flush-to-zero', load.reason);
  for (const isa of load.addon.isas())
    it(`native reads a subnormal as 0, and leaves the thread's mode as it was [${isa}]`, () => {
      expect(Math.fround(2 * SUBNORMAL)).toBeGreaterThan(0);
      expect(twice('native', isa)).toBe(0);
      // JavaScript after the call: subnormal doubles still compute (DAZ would make them 0).
      expect(jsSubnormalDouble(100_000)).toBe(3 * Number.MIN_VALUE);
      expect(Number.MIN_VALUE * 2).toBeGreaterThan(0);
    });
});
