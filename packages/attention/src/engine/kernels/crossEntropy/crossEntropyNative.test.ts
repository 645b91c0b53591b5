// The native cross-entropy kernel (crossEntropy.c) against the WAT one (crossEntropy.wat) on
// every ISA the CPU runs: the same random logits, targets and weights on two arenas, the same
// arguments, and the gradient and each row's statistics (max, Σ exp, z_t) compared as written.
// Tolerance 1e-6 of a region's largest |value| (8 float32 ulps of 1): the two sum the exponentials
// in different orders (VW lanes against 4) and the native code contracts a·b + c into FMAs, so
// Σ exp and the gradient (softmax · w) may differ by a few ulps (measured at most 2.4e-7); max
// and z_t are exact.
import { describe } from 'vitest';
import { expectClose, itEveryIsa, seededFloats } from '../../../testing/nativeKernels.js';
import { wasmBase64 as shared } from './crossEntropySharedWasm.generated.js';
import { wasmBase64 as plain } from './crossEntropyWasm.generated.js';

/** Class counts: the engine's vocabularies (Shakespeare characters 65) and odd ones around widths. */
const CLASSES = [1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 33, 65, 100];

describe('native cross-entropy against the WAT', () => {
  itEveryIsa('cross_entropy', { plain, shared }, 1 << 16, (pair) => {
    for (const classes of CLASSES)
      for (const rows of [1, 5, 24]) {
        const n = rows * classes;
        const [z, targets, weights, stats] = [1, 3 + n, 5 + n + rows, 7 + n + 2 * rows];
        const seed = 31 * classes + rows;
        pair.set(z, seededFloats(n, seed, 8));
        const picks = seededFloats(rows, seed + 1);
        pair.setInts(
          targets,
          Array.from(picks, (p) => Math.min(classes - 1, Math.floor(((p + 1) / 2) * classes))),
        );
        // Weights mask / Σ mask, one row masked out.
        const w = Array.from({ length: rows }, (_, i) => (i === 1 ? 0 : 1 / rows));
        pair.set(weights, w);
        pair.call('cross_entropy', 4 * z, rows, classes, 4 * targets, 4 * weights, 4 * stats);
        const where = `(classes ${classes}, rows ${rows})`;
        expectClose(pair, `gradient ${where}`, z, n, 1e-6);
        for (let r = 0; r < rows; r++) {
          expectClose(pair, `max ${where}`, stats + 3 * r, 1, 0);
          expectClose(pair, `Σ exp ${where}`, stats + 3 * r + 1, 1, 1e-6);
          expectClose(pair, `z_t ${where}`, stats + 3 * r + 2, 1, 0);
        }
      }
  });
});
