// native/fpMode.h: every native kernel runs with flush-to-zero and denormals-are-zero, and the
// caller's floating-point mode is back after each call, so JavaScript on the same thread keeps
// IEEE subnormals. The WebAssembly kernels keep subnormals (wasm has no such mode), but the causal
// softmax and sigmoid store weights and gradients below 2^−126 as 0 on both backends.
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

/**
 * One 3 × 3 block, β = 1: the last row's third key far below two strong ones, so its weight (and the
 * gradient it carries) is below 2^−126 (the exact softmax weight is 1.9e−44, exp's clamp at −87
 * makes it 8.2e−39 in float32); every other weight is normal.
 */
function tinyWeights(backend: 'native' | 'wasm', isa?: string) {
  const k = createEngineKernels(createArena(64), { backend, isa });
  const f = k.f32();
  const [h, w, gw, gh] = [0, 9, 18, 27];
  f.set([0, 0, 0, 0, 0, 0, 10, 10, -100], h);
  f.set([0, 0, 0, 0, 0, 0, 2e-38, -2e-38, 0], gw);
  const at = { blocks: 1, length: 3, beta: 1 };
  k.causalSoftmax({ h, w, ...at });
  const softmax = Array.from(f.subarray(w, w + 9));
  k.causalSoftmaxBackward({ w, gw, gh, ...at });
  const softmaxGrad = Array.from(f.subarray(gh + 6, gh + 9));
  k.causalSigmoid({ h, w, ...at });
  const sigmoid = Array.from(f.subarray(w + 6, w + 9));
  return { softmax, softmaxGrad, sigmoid };
}

describe('native kernels without subnormals', () => {
  it('the causal kernels store weights and gradients below 2^−126 as 0, on both backends', () => {
    const backends: ['native' | 'wasm', string | undefined][] = [['wasm', undefined]];
    const addon = loadNativeAddon().addon;
    for (const isa of addon?.isas() ?? []) backends.push(['native', isa]);
    for (const [backend, isa] of backends) {
      const { softmax, softmaxGrad, sigmoid } = tinyWeights(backend, isa);
      expect(softmax, `${backend} ${isa ?? ''}`).toEqual([1, 0, 0, 0.5, 0.5, 0, 0.5, 0.5, 0]);
      // gh = w (gw − Σ w gw) = ±1e−38 for the first two keys: below 2^−126, so a zero of its sign.
      expect(softmaxGrad, `${backend} ${isa ?? ''}`).toEqual([0, -0, 0]);
      expect(sigmoid[2], `${backend} ${isa ?? ''}`).toBe(0);
      expect(sigmoid[0]).toBeGreaterThan(0.49);
    }
  });

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
