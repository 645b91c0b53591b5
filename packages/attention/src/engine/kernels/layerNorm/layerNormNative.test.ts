// The native LayerNorm kernels (layerNorm.c) against the WAT ones (layerNorm.wat) on every ISA
// the CPU runs: the same random inputs and arguments on two arenas, with and without β, compared
// as written. The two sum each row's statistics and the backward's Σ g, Σ g x̂ in different
// orders (VW lanes against 4) and the native code contracts a·b + c into FMAs. Tolerances, of a
// region's largest |value|: y, mean, rstd 4e-6 (32 float32 ulps: rstd comes from E[d²] − E[d]²
// over up to 128 columns, and x̂ carries its rounding; measured at most 9.2e-7); dγ, dβ 2e-6
// (measured 3e-7); dx 1e-6 of its terms' size |dy γ| rstd (measured 2.1e-7), since
// g − mean g − x̂ mean(g x̂) cancels to values far below g's (to exactly 0 in one column, where
// FMAs leave a rounding's residue).
import { describe } from 'vitest';
import type { KernelPair } from '../../../testing/nativeKernels.js';
import { expectClose, itEveryIsa, seededFloats } from '../../../testing/nativeKernels.js';
import { wasmBase64 as shared } from './layerNormSharedWasm.generated.js';
import { wasmBase64 as plain } from './layerNormWasm.generated.js';

/** Widths: the engine's d_model (paper and GPT baby) and odd ones around the vector widths. */
const COLS = [1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 33, 48, 64, 127, 128];

/** The largest |value| of `size` floats at `at` of the WAT's arena. */
function maxAbs(pair: KernelPair, at: number, size: number): number {
  return pair
    .views()
    .wat.subarray(at, at + size)
    .reduce((m, v) => Math.max(m, Math.abs(v)), 0);
}

function forwardAndBackward(pair: KernelPair, rows: number, cols: number, hasBeta: number) {
  const n = rows * cols;
  const at = [1, 3 + n, 5 + n + cols, 7 + n + 2 * cols, 9 + 2 * n + 2 * cols];
  const [x, gamma, beta, y, mean] = at as [number, number, number, number, number];
  const [rstd, dy, dx, dGamma, dBeta] = [mean + rows + 1, mean + 2 * rows + 3, 0, 0, 0].map(
    (v, i) => (i < 2 ? v : mean + 2 * rows + 5 + n + (i - 2) * (n + 1)),
  ) as [number, number, number, number, number];
  const seed = 41 * cols + rows + hasBeta;
  // Every other row far from zero (an offset of 30) tests the shifted statistics.
  const offset = (i: number) => (Math.floor(i / cols) % 2 === 0 ? 30 : 0);
  pair.set(
    x,
    Array.from(seededFloats(n, seed, 3), (v, i) => v + offset(i)),
  );
  pair.set(gamma, seededFloats(cols, seed + 1, 2));
  pair.set(beta, seededFloats(cols, seed + 2));
  pair.set(dy, seededFloats(n, seed + 3));
  pair.set(dGamma, seededFloats(cols, seed + 4));
  pair.set(dBeta, seededFloats(cols, seed + 5));
  const where = `(rows ${rows}, cols ${cols}, β ${hasBeta})`;
  pair.call(
    'layer_norm',
    4 * x,
    4 * gamma,
    4 * beta,
    hasBeta,
    4 * y,
    4 * mean,
    4 * rstd,
    rows,
    cols,
  );
  expectClose(pair, `y ${where}`, y, n, 4e-6);
  expectClose(pair, `mean ${where}`, mean, rows, 4e-6);
  expectClose(pair, `rstd ${where}`, rstd, rows, 4e-6);
  // The backward from the same statistics (the WAT's), so it is compared on its own.
  pair.set(mean, pair.views().wat.subarray(mean, mean + rows));
  pair.set(rstd, pair.views().wat.subarray(rstd, rstd + rows));
  const back = [4 * x, 4 * gamma, 4 * mean, 4 * rstd, 4 * dy, 4 * dx, 4 * dGamma, 4 * dBeta];
  pair.call('layer_norm_backward', ...back, hasBeta, rows, cols);
  // dx's terms are of size |dy γ| rstd before they cancel (to exactly 0 for one column).
  const terms = maxAbs(pair, dy, n) * maxAbs(pair, gamma, cols) * maxAbs(pair, rstd, rows);
  expectClose(pair, `dx ${where}`, dx, n, 1e-6, terms);
  expectClose(pair, `dγ ${where}`, dGamma, cols, 2e-6);
  expectClose(pair, `dβ ${where}`, dBeta, cols, 2e-6);
  // In place (dx = dy), as the engine may call it.
  pair.call(
    'layer_norm_backward',
    ...back.slice(0, 5),
    4 * dy,
    4 * dGamma,
    4 * dBeta,
    hasBeta,
    rows,
    cols,
  );
  expectClose(pair, `dx in place ${where}`, dy, n, 1e-6, terms);
}

describe('native LayerNorm against the WAT', () => {
  itEveryIsa('layer_norm and layer_norm_backward', { plain, shared }, 1 << 17, (pair) => {
    for (const cols of COLS)
      for (const rows of [1, 7, 48])
        for (const hasBeta of [0, 1]) forwardAndBackward(pair, rows, cols, hasBeta);
  });
});
