// The native causal sigmoid kernels (softmax.c) against the WAT ones (softmax.wat, sigmoidWat.mjs)
// on every ISA the CPU runs: the same random inputs and arguments on two arenas, compared as
// written. Tolerance 1e-6 of the block's largest |value|, as the softmax's (softmaxNative.test.ts):
// the two sum in different orders and the native code contracts a·b + c into FMAs (in exp, and in
// 1 + E e^c); the backward's gw − Σ w gw cancels, so it is scaled by 2β. The fields are moderate,
// up to |h| = 1e3, or all far below 0 (α underflows float32; x in (−600, −100)), and one query's
// are −1e3 (its float64 Σα underflows: zero weights).
import { describe } from 'vitest';
import { expectClose, itEveryIsa, seededFloats } from '../../../testing/nativeKernels.js';
import { wasmBase64 as shared } from './softmaxSharedWasm.generated.js';
import { wasmBase64 as plain } from './softmaxWasm.generated.js';

/** Block lengths: the engine's (paper model 12, GPT baby 64) and every other up to 19. */
const LENGTHS = [...Array.from({ length: 19 }, (_, i) => i + 1), 64];

/** Fields of `blocks` T × T blocks, block b of kind b mod 3 (moderate, large, far below 0). */
function fields(t: number, blocks: number, beta: number, seed: number): Float32Array {
  const h = seededFloats(blocks * t * t, seed);
  for (let i = 0; i < h.length; i++) {
    const kind = Math.floor(i / (t * t)) % 3;
    h[i] = kind === 0 ? 6 * h[i]! : kind === 1 ? 1e3 * h[i]! : (-350 + 250 * h[i]!) / (2 * beta);
  }
  if (t > 3) h.fill(-1e3, 3 * t, 4 * t);
  return h;
}

describe('native causal sigmoid against the WAT', () => {
  itEveryIsa('causal_sigmoid and causal_sigmoid_backward', { plain, shared }, 1 << 16, (pair) => {
    for (const t of LENGTHS)
      for (const blocks of [1, 3]) {
        const n = blocks * t * t;
        // Odd float offsets, so rows start off any vector alignment.
        const [h, w, gw, gh] = [3, 5 + n, 7 + 2 * n, 9 + 3 * n];
        const beta = Math.fround(0.25 + ((t * 7) % 11) / 4);
        const seed = 97 * t + blocks;
        pair.set(h, fields(t, blocks, beta, seed));
        pair.set(gw, seededFloats(n, seed + 1));
        pair.set(w, seededFloats(n, seed + 2, 100)); // stale values above the diagonal are zeroed
        pair.set(gh, seededFloats(n, seed + 3, 100));
        pair.call('causal_sigmoid', 4 * h, 4 * w, blocks * t, t, beta);
        expectClose(pair, `w (T ${t}, blocks ${blocks})`, w, n, 1e-6);
        // The backward from the same w (the WAT's), so it is compared on its own.
        pair.set(w, pair.views().wat.subarray(w, w + n));
        pair.call('causal_sigmoid_backward', 4 * h, 4 * w, 4 * gw, 4 * gh, blocks * t, t, beta);
        expectClose(pair, `gh (T ${t}, blocks ${blocks})`, gh, n, 1e-6, 2 * beta);
        // In place (gh = gw), as the engine may call it.
        pair.call('causal_sigmoid_backward', 4 * h, 4 * w, 4 * gw, 4 * gw, blocks * t, t, beta);
        expectClose(pair, `gh in place (T ${t}, blocks ${blocks})`, gw, n, 1e-6, 2 * beta);
      }
  });
});
