// The native causal softmax kernels (softmax.c) against the WAT ones (softmax.wat) on every ISA
// the CPU runs: the same random inputs and arguments on two arenas, compared as written.
// Tolerance 1e-6 of the block's largest |value| (8 float32 ulps of 1; measured at most 3.6e-7):
// the two sum the keys' exponentials and Σ w gw in different orders (VW lanes against 4) and the
// native code contracts a·b + c into FMAs, so each sum may differ by a few ulps of its largest
// term; the backward's gw − Σ w gw cancels, so it is scaled by β (w ≤ 1, |gw| < 1), not by its
// own possibly small values.
import { describe } from 'vitest';
import { expectClose, itEveryIsa, seededFloats } from '../../../testing/nativeKernels.js';
import { wasmBase64 as shared } from './softmaxSharedWasm.generated.js';
import { wasmBase64 as plain } from './softmaxWasm.generated.js';

/** Block lengths: the engine's (paper model 12, GPT baby 64) and every other up to 19. */
const LENGTHS = [...Array.from({ length: 19 }, (_, i) => i + 1), 64];

describe('native causal softmax against the WAT', () => {
  itEveryIsa('causal_softmax and causal_softmax_backward', { plain, shared }, 1 << 16, (pair) => {
    for (const t of LENGTHS)
      for (const blocks of [1, 3]) {
        const n = blocks * t * t;
        // Odd float offsets, so rows start off any vector alignment.
        const [h, w, gw, gh] = [3, 5 + n, 7 + 2 * n, 9 + 3 * n];
        const beta = 0.25 + ((t * 7) % 11) / 4;
        const seed = 97 * t + blocks;
        pair.set(h, seededFloats(n, seed, 6));
        pair.set(gw, seededFloats(n, seed + 1));
        pair.set(w, seededFloats(n, seed + 2, 100)); // stale values above the diagonal are zeroed
        pair.set(gh, seededFloats(n, seed + 3, 100));
        pair.call('causal_softmax', 4 * h, 4 * w, blocks * t, t, beta);
        expectClose(pair, `w (T ${t}, blocks ${blocks})`, w, n, 1e-6);
        // The backward from the same w (the WAT's), so it is compared on its own.
        pair.set(w, pair.views().wat.subarray(w, w + n));
        pair.call('causal_softmax_backward', 4 * w, 4 * gw, 4 * gh, blocks * t, t, beta);
        expectClose(pair, `gh (T ${t}, blocks ${blocks})`, gh, n, 1e-6, beta);
        // In place (gh = gw), as the engine calls it.
        pair.call('causal_softmax_backward', 4 * w, 4 * gw, 4 * gw, blocks * t, t, beta);
        expectClose(pair, `gh in place (T ${t}, blocks ${blocks})`, gw, n, 1e-6, beta);
      }
  });
});
