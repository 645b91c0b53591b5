// The engine's causal sigmoid kernels (softmax.ts's causalSigmoid{,Backward}) against ising-core's
// float64 closed form, causalClosedForm('sigmoid'), on the backend under test: moderate fields,
// fields of |h| up to 1e3 (σ saturated both ways), rows whose every α underflows float32 but not
// float64 (weights ∝ e^{2βh}), and rows whose float64 Σα underflows (zero weights and gradients).
import { causalBatch, causalClosedForm } from '@boltzmann/ising-core';
import { describe, expect, it } from 'vitest';
import { createArena } from './arena.js';
import { createSoftmaxKernels } from './softmax.js';
import { seededFloats } from '../testing/nativeKernels.js';
import { testKernelBackend } from '../testing/engineBackend.js';

const memory = createArena(1 << 18);
const kernels = createSoftmaxKernels(memory, testKernelBackend());
const view = () => new Float32Array(memory.buffer);

/** Block b's fields: moderate, large, all far below 0 (x in (−600, −100)), or underflowed. */
function fields(t: number, blocks: number, beta: number, seed: number): Float32Array {
  const h = new Float32Array(blocks * t * t);
  for (let b = 0; b < blocks; b++) {
    const u = seededFloats(t * t, seed + b);
    for (let i = 0; i < t * t; i++) {
      const kind = b % 4;
      const v = u[i]!;
      h[b * t * t + i] =
        kind === 0
          ? 8 * v
          : kind === 1
            ? 1e3 * v
            : kind === 2
              ? (-350 + 250 * v) / (2 * beta)
              : -1e3;
    }
  }
  // One underflowed row (query 5) inside the first, moderate block.
  if (t > 5) h.fill(-1e3, 5 * t, 6 * t);
  return h;
}

/**
 * Max over rows of max_j |got − want| / max(floor, max_j |want|), and how many rows of zero
 * reference weights (`weights`) there are and whether `got` is exactly zero on all of them.
 */
function rowError(
  got: Float32Array,
  want: Float64Array,
  weights: Float64Array,
  t: number,
  floor: number,
) {
  let worst = 0;
  let zeroRows = 0;
  let zeroRowsExact = true;
  for (let r = 0; r < got.length / t; r++) {
    let diff = 0;
    let scale = 0;
    const row = Array.from({ length: t }, (_, j) => r * t + j);
    for (const i of row) {
      diff = Math.max(diff, Math.abs(got[i]! - want[i]!));
      scale = Math.max(scale, Math.abs(want[i]!));
    }
    if (row.every((i) => weights[i] === 0)) {
      zeroRows++;
      if (row.some((i) => got[i] !== 0)) zeroRowsExact = false;
    }
    worst = Math.max(worst, diff / Math.max(scale, floor));
  }
  return { worst, zeroRows, zeroRowsExact };
}

const LENGTHS = [...Array.from({ length: 19 }, (_, i) => i + 1), 64];

describe('engine causal sigmoid against ising-core', () => {
  it('forward and backward match causalClosedForm(sigmoid) in float64, with saturated and underflowed rows', () => {
    let worstW = 0;
    let worstGh = 0;
    for (const t of LENGTHS)
      for (const beta of [0.5, 1, 2.75].map(Math.fround)) {
        const blocks = 4;
        const n = blocks * t * t;
        const [h, w, gw, gh] = [1, 3 + n, 5 + 2 * n, 7 + 3 * n];
        const seed = 31 * t + Math.round(4 * beta);
        const hv = fields(t, blocks, beta, seed);
        const f = view();
        f.set(hv, h);
        f.set(seededFloats(n, seed + 7), gw);
        f.set(seededFloats(n, seed + 8, 100), w); // stale values above the diagonal are zeroed
        f.set(seededFloats(n, seed + 9, 100), gh);
        const batch = causalBatch(
          Float64Array.from(hv),
          new Float64Array(t * t),
          { batch: blocks, length: t },
          beta,
        );
        const ref = causalClosedForm(batch, 'sigmoid');
        kernels.causalSigmoid({ h, w, blocks, length: t, beta });
        const forward = rowError(view().slice(w, w + n), ref.weights, ref.weights, t, 1e-30);
        // Block 3’s t rows and query 5 of block 0 (and any of block 1’s rows far below 0).
        expect(forward.zeroRows).toBeGreaterThanOrEqual(t > 5 ? t + 1 : t);
        expect(forward.zeroRowsExact, `T ${t} β ${beta}: zero rows`).toBe(true);
        worstW = Math.max(worstW, forward.worst);
        const gwv = view().slice(gw, gw + n);
        const want = ref.backward(gwv).fields;
        kernels.causalSigmoidBackward({ h, w, gw, gh, blocks, length: t, beta });
        // gh = 2β w (gw − Σ w gw)(1 − α) cancels where one key dominates: an absolute floor of 2β.
        const backward = rowError(view().slice(gh, gh + n), want, ref.weights, t, 2 * beta);
        expect(backward.zeroRowsExact, `T ${t} β ${beta}: zero gradient rows`).toBe(true);
        worstGh = Math.max(worstGh, backward.worst);
        // In place (gh = gw), as the engine may call it.
        kernels.causalSigmoidBackward({ h, w, gw, gh: gw, blocks, length: t, beta });
        expect(Array.from(view().subarray(gw, gw + n))).toEqual(
          Array.from(view().subarray(gh, gh + n)),
        );
      }
    // Measured: 1.8e-7 and 1.2e-7 (native avx2 and wasm).
    expect(worstW, 'weights: max |w − ref| over each row’s max').toBeLessThan(1e-6);
    expect(worstGh, 'gradient: max |gh − ref| over max(2β, row max)').toBeLessThan(1e-6);
  });
});
