// The engine's softmax, cross-entropy and AdamW kernels against their float64 references
// (kernelReferences.ts) on random inputs and edge sizes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAdamWKernels } from './adamW.js';
import { createArena } from './arena.js';
import { createCrossEntropyKernels } from './crossEntropy.js';
import type { ParamSlot } from './engineTypes.js';
import {
  referenceAdamW,
  referenceCrossEntropy,
  referenceGradientNorm,
  referenceSoftmax,
  referenceSoftmaxBackward,
} from './kernelReferences.js';
import { createSoftmaxKernels } from './softmax.js';
import { testKernelBackend } from '../testing/engineBackend.js';

const memory = createArena(1 << 18);
const softmax = createSoftmaxKernels(memory, testKernelBackend());
const loss = createCrossEntropyKernels(memory, testKernelBackend());
const optimizer = createAdamWKernels(memory, testKernelBackend());
const view = () => new Float32Array(memory.buffer);

/** Fills `size` floats at `at` with values in [-scale, scale) from a seeded generator. */
function fill(at: number, size: number, seed: number, scale = 1) {
  let s = seed >>> 0;
  const f = view();
  for (let i = 0; i < size; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    f[at + i] = scale * (s / 2 ** 31 - 1);
  }
}

/** Max |a − b| / max(floor, max |b|) over `size` floats at two offsets of two arrays. */
function relative(
  a: Float32Array,
  at: number,
  b: Float32Array,
  bt: number,
  size: number,
  floor = 1e-6,
) {
  let diff = 0;
  let scale = floor;
  for (let i = 0; i < size; i++) {
    diff = Math.max(diff, Math.abs(a[at + i]! - b[bt + i]!));
    scale = Math.max(scale, Math.abs(b[bt + i]!));
  }
  return diff / scale;
}

describe('engine causal softmax', () => {
  it('matches the float64 reference forward and backward, every length 1..19, β ≠ 1', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 19 }),
        fc.integer({ min: 1, max: 4 }),
        fc.double({ min: 0.25, max: 3, noNaN: true }),
        fc.integer(),
        (t, blocks, beta, seed) => {
          const n = blocks * t * t;
          const [h, w, gw, gh] = [1, 1 + n, 2 + 2 * n, 3 + 3 * n];
          fill(h, n, seed, 8);
          fill(gw, n, seed + 1);
          fill(w, n, seed + 2, 100); // stale values above the diagonal must be zeroed
          softmax.causalSoftmax({ h, w, blocks, length: t, beta });
          softmax.causalSoftmaxBackward({ w, gw, gh, blocks, length: t, beta });
          const ref = Float32Array.from(view().subarray(0, 4 + 4 * n));
          referenceSoftmax(ref, { h, w }, blocks, t, beta);
          // The backward from the kernel's own w, so each kernel is compared on its own.
          const gradRef = Float32Array.from(view().subarray(0, 4 + 4 * n));
          referenceSoftmaxBackward(gradRef, { w, gw, gh }, blocks, t, beta);
          expect(relative(view(), w, ref, w, n)).toBeLessThan(2e-6);
          // gh = β w (gw − Σ w gw) cancels in float32 where one key dominates: an absolute floor of β.
          expect(relative(view(), gh, gradRef, gh, n, beta)).toBeLessThan(1e-6);
        },
      ),
      { seed: 26, numRuns: 120 },
    );
  });
});

describe('engine cross-entropy', () => {
  it('matches the float64 reference loss and gradient, with masked rows and large logits', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 70 }),
        fc.integer(),
        (rows, classes, seed) => {
          const n = rows * classes;
          const at = {
            logits: 8,
            rows,
            classes,
            targets: 16 + n,
            weights: 16 + n + rows,
            stats: 16 + n + 2 * rows,
          };
          fill(at.logits, n, seed, 30);
          const targets = Int32Array.from(
            { length: rows },
            (_, i) => (((seed + 7 * i) % classes) + classes) % classes,
          );
          const mask = Float32Array.from({ length: rows }, (_, i) =>
            i % 3 === 1 ? 0 : 1 + (i % 2),
          );
          if (mask.every((m) => m === 0)) mask[0] = 1;
          const ref = Float32Array.from(view().subarray(0, 16 + n));
          const want = referenceCrossEntropy(ref, at.logits, rows, classes, targets, mask);
          const total = mask.reduce((x, y) => x + y, 0);
          loss.writeTargets(at, targets, mask, 0, total);
          loss.crossEntropy(at);
          const got = loss.loss(at);
          expect(Math.abs(got - want)).toBeLessThan(1e-5 * Math.max(1, want));
          expect(relative(view(), at.logits, ref, at.logits, n, 1e-3)).toBeLessThan(1e-5);
        },
      ),
      { seed: 27, numRuns: 120 },
    );
  });

  it('refuses a target outside the classes with a code instead of reading past the row', () => {
    const at = { logits: 0, rows: 2, classes: 3, targets: 8, weights: 12, stats: 16 };
    const mask = new Float32Array([1, 1]);
    for (const bad of [3, -1])
      expect(() => loss.writeTargets(at, Int32Array.of(0, bad), mask, 0, 2)).toThrow(
        expect.objectContaining({ code: 'ATTENTION_INVALID_TOKEN' }),
      );
  });
});

describe('engine AdamW', () => {
  it('matches the float64 reference update and gradient norm over padded slots', () => {
    const sizes = [5, 1, 16, 33];
    let offset = 0;
    const slots: ParamSlot[] = sizes.map((size, i) => {
      const slot = { name: `p${i}`, shape: [size], offset, size, decay: i % 2 === 0 };
      offset += (size + 3) & ~3;
      return slot;
    });
    const at = { params: 0, grads: offset, m: 2 * offset, v: 3 * offset };
    view().fill(0, 0, 4 * offset);
    for (const s of slots) {
      for (const [base, scale] of [
        [at.params, 1],
        [at.grads, 0.1],
        [at.m, 0.01],
      ] as const)
        fill(base + s.offset, s.size, base + s.offset + 1, scale);
      fill(at.v + s.offset, s.size, 9, 1e-3);
      for (let i = 0; i < s.size; i++)
        view()[at.v + s.offset + i] = Math.abs(view()[at.v + s.offset + i]!);
    }
    const ref = Float32Array.from(view().subarray(0, 4 * offset));
    const hyper = {
      lr: 3e-3,
      beta1: 0.9,
      beta2: 0.99,
      epsilon: 1e-8,
      weightDecay: 0.1,
      step: 3,
      gradScale: 0.7,
    };
    expect(optimizer.gradientNorm(slots, at.grads)).toBeCloseTo(
      referenceGradientNorm(ref, slots, at.grads),
      6,
    );
    optimizer.adamW(slots, at, hyper);
    referenceAdamW(ref, slots, at, hyper);
    expect(relative(view(), 0, ref, 0, 4 * offset)).toBeLessThan(1e-6);
    // The padding between slots stays zero.
    expect(view()[at.params + 5]).toBe(0);
    expect(view()[at.m + 7]).toBe(0);
  });
});
