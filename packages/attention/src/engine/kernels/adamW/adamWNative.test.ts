// The native optimizer kernels (adamW.c) against the WAT ones (adamW.wat) on every ISA the CPU
// runs: the same random parameters, gradients and moments on two arenas, the same arguments.
// adamw is elementwise: the only difference is the native code's FMA contraction (a·b + c rounded
// once), so parameters and moments agree to 1e-6 of a region's largest |value| (8 float32 ulps;
// measured at most 1.9e-7).
// sum_squares sums in float64 in another order (VW lanes against 2): 1e-12 relative. add_into is
// exact.
import { describe, expect } from 'vitest';
import { expectClose, itEveryIsa, seededFloats } from '../../../testing/nativeKernels.js';
import { wasmBase64 as shared } from './adamWSharedWasm.generated.js';
import { wasmBase64 as plain } from './adamWWasm.generated.js';

/** Run lengths: the engine's (padded to 4) slots, small and around the vector widths, and large. */
const SIZES = [4, 8, 12, 16, 20, 28, 36, 64, 68, 132, 4100];

describe('native optimizer kernels against the WAT', () => {
  itEveryIsa('adamw, sum_squares and add_into', { plain, shared }, 1 << 16, (pair) => {
    for (const n of SIZES) {
      const [p, g, m, v] = [1, 3 + n, 5 + 2 * n, 7 + 3 * n];
      pair.set(p, seededFloats(n, n, 2));
      pair.set(g, seededFloats(n, n + 1, 0.5));
      pair.set(m, seededFloats(n, n + 2, 0.1));
      pair.set(v, Array.from(seededFloats(n, n + 3, 0.01), Math.abs));
      const [wat, native] = pair.call('sum_squares', 4 * g, n);
      expect(Math.abs(native! - wat!), `sum_squares (n ${n})`).toBeLessThanOrEqual(1e-12 * wat!);
      for (const [step, decay] of [
        [1, 0],
        [7, 0.1],
      ] as const) {
        const [lr, b1, b2, eps] = [3e-3, 0.9, 0.99, 1e-8];
        const [c1, c2] = [1 - b1 ** step, 1 - b2 ** step];
        pair.call(
          'adamw',
          4 * p,
          4 * g,
          4 * m,
          4 * v,
          n,
          lr,
          b1,
          b2,
          eps,
          1 - lr * decay,
          c1,
          c2,
          0.75,
        );
        const where = `(n ${n}, step ${step})`;
        expectClose(pair, `p ${where}`, p, n, 1e-6);
        expectClose(pair, `m ${where}`, m, n, 1e-6);
        expectClose(pair, `v ${where}`, v, n, 1e-6);
      }
      pair.call('add_into', 4 * m, 4 * g, n);
      expectClose(pair, `add_into (n ${n})`, m, n, 1e-6);
    }
  });
});
