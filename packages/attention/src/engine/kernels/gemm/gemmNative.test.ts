// The native GEMM kernels (gemm.c, gemmDot.c, transpose.c) against the WAT ones (gemm.wat, the
// mul + add module) on every ISA the CPU runs: the same random operands and arguments on two
// arenas, all four exports.
// - gemm and gemm_narrow in both of A's layouts (A·B and Aᵀ·B, through A's two strides), with
//   row strides wider than the rows, batches, accumulation, and random sizes that leave every
//   remainder of the tiles (rows mod 6 and 12, columns mod 64/16/4, k = 0, the last columns of
//   Aᵀ·B by vectors along its rows);
// - their scalar last columns (when the padded copy of B's cannot be allocated), through the
//   addon's test switch (testing.failPadAllocations) and its counter of the products that took it;
// - gemm_dot, with k a multiple of 4 (as the wrapper calls it) and not (only k − k mod 4 counts);
// - transpose, which moves floats and must agree exactly;
// - every product of the models' steps (scripts/benchEngineGemm.ts's shapes) planned by
//   callGemm, the wrapper's own dispatch (gemm_dot, transpose, k blocks of Aᵀ·B).
// Tolerance: each C(i, j) within (k + 2) · 2⁻²³ · (Σ_p |A(i, p) B(p, j)| + |C₀(i, j)|) of the WAT's.
// Both sum k float32 products, in different orders (the native code by VW lanes and with FMAs), so
// each is within γ_{k+1} ≈ (k + 1) · 2⁻²⁴ of that sum of magnitudes from the exact value (the
// standard bound of recursive summation), and the two within twice that. Cases over 10^6
// multiply-adds (the models' big products) compare every 5th row of C and the last, to keep the
// bounds' cost down. Everything outside C is compared exactly (neither may write past C's rows).
import { describe, expect } from 'vitest';
import { type KernelPair, itEveryIsa, seededFloats } from '../../../testing/nativeKernels.js';
import { callGemm, type GemmArgs, type GemmExports, type GemmLayout } from '../../gemm.js';
import { loadNativeAddon, type NativeTesting } from '../../native/nativeAddon.js';
import { wasmBase64 as shared } from './gemmSharedWasm.generated.js';
import { wasmBase64 as plain } from './gemmWasm.generated.js';

const ARENA = 1 << 20;

/** Where a product's operands are, in floats: A(i, p), B(p, j), C(i, j) of product q. */
interface Operands {
  readonly a: (q: number, i: number, p: number) => number;
  readonly b: (q: number, p: number, j: number) => number;
  readonly c: (q: number, i: number, j: number) => number;
  readonly m: number;
  readonly n: number;
  readonly k: number;
  readonly batch: number;
  readonly accum: boolean;
}

/** A seeded stream of integers in [lo, hi]. */
function integers(seed: number): (lo: number, hi: number) => number {
  let s = seed >>> 0;
  return (lo, hi) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return lo + (s % (hi - lo + 1));
  };
}

/** Fills floats [0, end) of both arenas with the same values (operands, old C, the gaps). */
function fill(pair: KernelPair, end: number, seed: number): Float32Array {
  const before = seededFloats(end, seed);
  pair.set(0, before);
  return before;
}

/** Each case's bounds per float of C (0 elsewhere), computed once for every ISA and arena. */
const boundsOf = new Map<string, Float64Array>();

/**
 * Whether row i of C is compared: all of them up to 10^6 multiply-adds a case, else every 5th and
 * the last (5 and the tile's 6 rows are coprime, so every row of a band is among them).
 */
const checked = (op: Operands, i: number) =>
  op.batch * op.m * op.n * op.k <= 1e6 || i % 5 === 0 || i === op.m - 1;

/** (k + 2) · 2⁻²³ · (Σ_p |A(i, p) B(p, j)| + |C₀(i, j)|) at each C(i, j) compared, ∞ at the
 * others, 0 outside C. */
function bounds(op: Operands, before: Float32Array): Float64Array {
  const out = new Float64Array(before.length);
  for (let q = 0; q < op.batch; q++)
    for (let i = 0; i < op.m; i++)
      for (let j = 0; j < op.n; j++) {
        const at = op.c(q, i, j);
        if (!checked(op, i)) {
          out[at] = Number.POSITIVE_INFINITY;
          continue;
        }
        let magnitude = op.accum ? Math.abs(before[at]!) : 0;
        for (let p = 0; p < op.k; p++)
          magnitude += Math.abs(before[op.a(q, i, p)]! * before[op.b(q, p, j)]!);
        out[at] = (op.k + 2) * 2 ** -23 * magnitude + 1e-30;
      }
  return out;
}

/** Runs `call` on both arenas and checks C against its bounds, everything else exactly. */
function check(
  pair: KernelPair,
  what: string,
  op: Operands,
  before: Float32Array,
  call: () => void,
) {
  call();
  let bound = boundsOf.get(what);
  if (bound === undefined) {
    bound = bounds(op, before);
    boundsOf.set(what, bound);
  }
  const { wat, native } = pair.views();
  let [worst, moved] = [0, 0];
  for (let at = 0; at < before.length; at++)
    if (bound[at]! > 0) worst = Math.max(worst, Math.abs(native[at]! - wat[at]!) / bound[at]!);
    else if (native[at] !== wat[at]) moved++;
  expect(
    worst,
    `${what} [${pair.isa}]: the worst |native − wat| over its bound`,
  ).toBeLessThanOrEqual(1);
  expect(moved, `${what} [${pair.isa}]: floats outside C that differ`).toBe(0);
}

/** Sizes of a `gemm` call: m, n, k, batch, accumulate. */
type GemmSize = readonly [m: number, n: number, k: number, batch: number, accum: boolean];

/**
 * One random call of `gemm` or `gemm_narrow`: A stored m × k (`nn`) or k × m (`tn`), of `size` if
 * given; returns whether A's rows are adjacent floats (Aᵀ·B's last columns go by vectors along i).
 */
function randomGemm(
  pair: KernelPair,
  name: string,
  layout: 'nn' | 'tn',
  seed: number,
  size?: GemmSize,
): boolean {
  const r = integers(seed);
  const drawn: GemmSize = [r(1, 72), r(1, 72), r(0, 21), r(1, 3), r(0, 1) === 1];
  const [m, n, k, batch, accum] = size ?? drawn;
  const [aRows, aCols] = layout === 'tn' ? [k, m] : [m, k];
  const [lda, ldb, ldc] = [aCols + r(0, 3), n + r(0, 3), n + r(0, 3)];
  const [sa, sb, sc] = [aRows * lda + r(0, 5), k * ldb + r(0, 5), m * ldc + r(0, 5)];
  const a = r(0, 3);
  const b = a + batch * sa + 1;
  const c = b + batch * sb + 2;
  const [ars, acs] = layout === 'tn' ? [1, lda] : [lda, 1];
  const op: Operands = {
    a: (q, i, p) => a + q * sa + i * ars + p * acs,
    b: (q, p, j) => b + q * sb + p * ldb + j,
    c: (q, i, j) => c + q * sc + i * ldc + j,
    ...{ m, n, k, batch, accum },
  };
  const before = fill(pair, c + batch * sc + 3, seed);
  const args = [4 * a, 4 * ars, 4 * acs, 4 * sa, 4 * b, 4 * ldb, 4 * sb, 4 * c, 4 * ldc, 4 * sc];
  const what = `${name} ${layout} ${m}×${n}×${k} (batch ${batch}${accum ? ', accumulate' : ''}, seed ${seed})`;
  check(pair, what, op, before, () => pair.call(name, ...args, m, n, k, batch, accum ? 1 : 0));
  return ars === 1;
}

/** One random call of `gemm_dot`: C (+)= A·Bᵀ, A m × k and B n × k, rows contiguous. */
function randomDot(pair: KernelPair, seed: number): void {
  const r = integers(seed);
  const [m, n, batch] = [r(1, 13), r(1, 19), r(1, 3)];
  const k = r(0, 1) === 1 ? 4 * r(0, 20) : r(0, 70); // the wrapper's multiples of 4, and any k
  const accum = r(0, 1) === 1;
  const [lda, ldb, ldc] = [k + r(0, 3), k + r(0, 3), n + r(0, 3)];
  const [sa, sb, sc] = [m * lda + r(0, 5), n * ldb + r(0, 5), m * ldc + r(0, 5)];
  const a = r(0, 3);
  const b = a + batch * sa + 1;
  const c = b + batch * sb + 2;
  const op: Operands = {
    a: (q, i, p) => a + q * sa + i * lda + p,
    b: (q, p, j) => b + q * sb + j * ldb + p,
    c: (q, i, j) => c + q * sc + i * ldc + j,
    ...{ m, n, k: k - (k % 4), batch, accum },
  };
  const before = fill(pair, c + batch * sc + 3, seed);
  const args = [4 * a, 4 * lda, 4 * sa, 4 * b, 4 * ldb, 4 * sb, 4 * c, 4 * ldc, 4 * sc];
  const what = `gemm_dot ${m}×${n}×${k} (batch ${batch}${accum ? ', accumulate' : ''}, seed ${seed})`;
  check(pair, what, op, before, () =>
    pair.call('gemm_dot', ...args, m, n, k, batch, accum ? 1 : 0),
  );
}

/** One random `transpose`: exact, everything compared. */
function randomTranspose(pair: KernelPair, seed: number): void {
  const r = integers(seed);
  const [rows, cols, batch] = [r(1, 40), r(1, 40), r(1, 3)];
  const srs = cols + r(0, 3);
  const ss = rows * srs + r(0, 5);
  const [src, dst] = [r(0, 3), 4 + batch * ss];
  fill(pair, dst + batch * rows * cols + 3, seed);
  pair.call('transpose', 4 * src, 4 * srs, 4 * ss, 4 * dst, rows, cols, batch);
  const { wat, native } = pair.views();
  const end = dst + batch * rows * cols + 3;
  let differ = 0;
  for (let at = 0; at < end; at++) if (native[at] !== wat[at]) differ++;
  expect(differ, `transpose ${rows}×${cols} (batch ${batch}) [${pair.isa}]`).toBe(0);
}

/** Both sides' GEMM kernels as one: each call runs the WAT export and the native kernel. */
function bothSides(pair: KernelPair): GemmExports {
  const both =
    (name: string) =>
    (...args: number[]) => {
      pair.call(name, ...args);
    };
  return {
    gemm: both('gemm'),
    gemm_narrow: both('gemm_narrow'),
    gemm_dot: both('gemm_dot'),
    transpose: both('transpose'),
  };
}

/** One product of a model step (scripts/benchEngineGemm.ts). */
type Shape = readonly [GemmLayout, number, number, number, number];

/** A linear layer rows × inp → out: forward, input gradient dY·Wᵀ, weight gradient Xᵀ·dY. */
const linear = (rows: number, inp: number, out: number): Shape[] => [
  ['nn', rows, out, inp, 1],
  ['nt', rows, inp, out, 1],
  ['tn', inp, out, rows, 1],
];
/** The per-head products at T tokens, head width dh, `batch` sequences × heads. */
const heads = (t: number, dh: number, batch: number): Shape[] => [
  ['nt', t, t, dh, batch],
  ['nn', t, dh, t, batch],
  ['tn', t, dh, t, batch],
];
const MODEL_SHAPES: Shape[] = [
  ...linear(768, 64, 192),
  ...linear(768, 64, 256),
  ...linear(768, 256, 64),
  ...linear(768, 64, 65),
  ...heads(12, 64, 64),
  ...linear(768, 128, 384),
  ...linear(768, 128, 512),
  ...linear(768, 512, 128),
  ...linear(768, 128, 65),
  ...heads(64, 32, 48),
];

/** A model shape through the wrapper's plan, with or without accumulation. */
function modelShape(pair: KernelPair, [layout, m, n, k, batch]: Shape, accum: boolean): void {
  const [aSize, bSize, cSize] = [batch * m * k, batch * k * n, batch * m * n];
  const [a, b, c] = [1, 2 + aSize, 3 + aSize + bSize];
  const scratch = c + cSize + 1;
  const before = fill(pair, scratch + bSize, m + n + k);
  const lda = layout === 'tn' ? m : k;
  const ldb = layout === 'nt' ? k : n;
  const args: GemmArgs = { layout, m, n, k, a, b, c, batch, scratch, accumulate: accum };
  const op: Operands = {
    a: (q, i, p) => a + q * m * k + (layout === 'tn' ? p * lda + i : i * lda + p),
    b: (q, p, j) => b + q * k * n + (layout === 'nt' ? j * ldb + p : p * ldb + j),
    c: (q, i, j) => c + q * m * n + i * n + j,
    ...{ m, n, k, batch, accum },
  };
  const what = `model ${layout} ${m}×${n}×${k} (batch ${batch}${accum ? ', accumulate' : ''})`;
  // The scratch holds Bᵀ, the same on both sides (transpose is exact), so it is compared too.
  check(pair, what, op, before, () => callGemm(bothSides(pair), args, ARENA));
}

/**
 * Sizes whose last columns are padded on every ISA (n odd, so n mod 4, 8 and 16 are not 0), A·B
 * with A's rows apart: m over and under the padded tiles' 12 and 6 rows, k = 0, batches, accum.
 */
const PADDED_SIZES: GemmSize[] = [
  [1, 1, 3, 1, false],
  [5, 3, 0, 2, true],
  [13, 7, 9, 1, true],
  [30, 13, 17, 3, false],
  [47, 37, 5, 2, true],
  [72, 71, 21, 1, false],
  [19, 65, 2, 3, true],
];

/**
 * The GEMM's last columns one float at a time (scalar_entry), as when their padded copy cannot be
 * allocated: the addon's test switch fails pad_take, its counter says the fallback ran (once a
 * product), and the results agree with the WAT's as everywhere else.
 */
function scalarFallback(pair: KernelPair, testing: NativeTesting): void {
  for (const [s, size] of PADDED_SIZES.entries())
    for (const name of ['gemm', 'gemm_narrow']) {
      const seed = 5000 + 10 * s + (name === 'gemm' ? 0 : 1);
      const before = testing.padFallbacks();
      testing.failPadAllocations(true);
      let adjacent: boolean;
      try {
        adjacent = randomGemm(pair, name, 'nn', seed, size);
      } finally {
        testing.failPadAllocations(false);
      }
      const what = `${name} ${size.join(', ')} [${pair.isa}]`;
      const fallbacks = testing.padFallbacks() - before;
      expect(fallbacks, `${what}: scalar products`).toBe(adjacent ? 0 : size[3]);
      randomGemm(pair, name, 'nn', seed, size); // the switch off: padded again, no fallback
      expect(testing.padFallbacks() - before, `${what}: switched off`).toBe(fallbacks);
    }
}

describe('native GEMM kernels against the WAT', () => {
  itEveryIsa('gemm and gemm_narrow, random sizes', { plain, shared }, ARENA, (pair) => {
    for (let s = 0; s < 40; s++)
      for (const layout of ['nn', 'tn'] as const) {
        randomGemm(pair, 'gemm', layout, 1000 + s);
        randomGemm(pair, 'gemm_narrow', layout, 2000 + s);
      }
  });
  itEveryIsa('gemm_dot and transpose, random sizes', { plain, shared }, ARENA, (pair) => {
    for (let s = 0; s < 60; s++) {
      randomDot(pair, 3000 + s);
      randomTranspose(pair, 4000 + s);
    }
  });
  itEveryIsa('gemm and gemm_narrow, scalar last columns', { plain, shared }, ARENA, (pair) => {
    const testing = loadNativeAddon().addon?.testing;
    if (testing === undefined) throw new Error('the addon has no `testing` (an older build?)');
    scalarFallback(pair, testing);
  });
  itEveryIsa("the models' products as the wrapper calls them", { plain, shared }, ARENA, (pair) => {
    for (const [i, shape] of MODEL_SHAPES.entries()) modelShape(pair, shape, i % 2 === 1);
  });
});
