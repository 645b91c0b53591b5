// The native element-wise kernels (elementwise.c) against the WAT ones (elementwise.wat) on every
// ISA the CPU runs: the same random inputs and arguments on two arenas, then the whole used part
// of the arenas compared, so a write past an output, or a lane left unwritten, shows too.
//
// Tolerance. The portable baseline (SSE2, no FMA) must match wasm bit for bit: it evaluates the
// same formulas in the same order with the same float32 roundings. AVX2 and AVX-512 contract
// a·b + c into FMAs (-ffp-contract=fast), which rounds once where wasm rounds twice, so there each
// float may differ by a few roundings of the terms it is made of, and is compared against that
// scale with 8 float32 ulps (ε = 2⁻²³), i.e. |native − wat| ≤ 8ε · scale:
//   - y = gelu(u): scale |u| (y = u Φ(u) cancels to ~0 for u ≪ 0; measured at most 2.4ε |u|),
//   - Φ(u): scale 1 (measured 2ε), dx = dy gelu'(u): scale |dy| (measured 2.9ε |dy|; gelu' has
//     a root near u = −0.75, so dx itself can be far smaller than its terms),
//   - db += Σ dx: scale |db₀| + Σ_rows |dx| (a different rounding early in the sum moves every
//     later partial sum's rounding; measured 3.8ε),
//   - residual with a mask, x + y·m: scale |x| + |y·m| (measured 1ε; 1.9ε after two in place).
// Copies, sums and lone products, with nothing to contract (embed, its backward, column_sums,
// bias_rows, masked, scale, the residual without a mask), are exact on every ISA: each float sees the
// same operations in the same order as in wasm.
import { describe, expect } from 'vitest';
import type { KernelPair } from '../../../testing/nativeKernels.js';
import { itEveryIsa, seededFloats } from '../../../testing/nativeKernels.js';
import { wasmBase64 as shared } from './elementwiseSharedWasm.generated.js';
import { wasmBase64 as plain } from './elementwiseWasm.generated.js';

const WAT = { plain, shared };
const EPS = 2 ** -23;
const ULPS = 8;
/** Room for the largest case (768 × 512 in six matrices). */
const ARENA = 6 * 768 * 512 + (1 << 12);

/**
 * rows × cols: every width up to 19 and a few past the vector widths (31, 33, 63) at small
 * rows, and the engine's FFN shapes: the paper model's (64 × 12 tokens, FFN 256) and GPT baby's
 * (12 × 64 tokens, FFN 512).
 */
const SHAPES: readonly (readonly [number, number])[] = [
  ...Array.from({ length: 19 }, (_, i) => [1 + (i % 4), i + 1] as const),
  [2, 31],
  [3, 33],
  [2, 63],
  [768, 256],
  [768, 512],
];

/** A region of the arena written by a kernel, compared with ULPS·ε·scale(i) (i from `at`). */
interface Output {
  readonly what: string;
  readonly at: number;
  readonly size: number;
  /** The float's scale on the FMA ISAs, or undefined where every ISA must be exact. */
  readonly scale?: (i: number) => number;
}

/**
 * Floats [0, end) of the two arenas: bit for bit, except `outputs` on an FMA ISA, which agree to
 * ULPS·ε of their scale.
 */
function expectArena(pair: KernelPair, end: number, outputs: readonly Output[]): void {
  const { wat, native } = pair.views();
  const exact = pair.isa === 'base';
  for (const o of outputs) {
    let worst = 0;
    let where = -1;
    for (let i = 0; i < o.size; i++) {
      const [w, n] = [wat[o.at + i]!, native[o.at + i]!];
      if (Object.is(w, n)) continue;
      const ratio =
        exact || o.scale === undefined ? Infinity : Math.abs(n - w) / (EPS * o.scale(i));
      if (!(ratio <= worst)) [worst, where] = [ratio, i];
    }
    const detail =
      where < 0 ? '' : `; at ${where}: wat ${wat[o.at + where]}, native ${native[o.at + where]}`;
    expect(
      worst,
      `${o.what} [${pair.isa}]: worst ${worst} ulps of its scale${detail}`,
    ).toBeLessThanOrEqual(ULPS);
  }
  const inside = (i: number) => outputs.some((o) => i >= o.at && i < o.at + o.size);
  for (let i = 0; i < end; i++)
    if (!Object.is(wat[i], native[i]) && !inside(i))
      expect.fail(
        `float ${i}, outside every output, differs [${pair.isa}]: ${wat[i]} vs ${native[i]}`,
      );
}

/** The float offsets of a GELU case: odd, so rows start off any vector alignment. */
function geluLayout(rows: number, cols: number) {
  const n = rows * cols;
  const x = 3;
  const b = x + n + 2;
  const y = b + cols + 1;
  const cdf = y + n + 3;
  const dy = cdf + n + 1;
  const dx = dy + n + 5;
  const db = dx + n + 1;
  return { n, x, b, y, cdf, dy, dx, db, end: db + cols + 7 };
}

/** Both arenas' floats [0, end) set to seeded junk, so a lane left unwritten shows. */
function junk(pair: KernelPair, end: number, seed: number) {
  pair.set(0, seededFloats(end, seed, 100));
}

/** |x + b| of a GELU case as a float's scale, read now from the WAT arena (before any in-place call). */
function argScale(pair: KernelPair, l: ReturnType<typeof geluLayout>, cols: number) {
  const { wat } = pair.views();
  const u = Float32Array.from({ length: l.n }, (_, i) => wat[l.x + i]! + wat[l.b + (i % cols)]!);
  return (i: number) => Math.abs(u[i]!);
}

describe('native element-wise kernels against the WAT', () => {
  itEveryIsa('bias_gelu and bias_gelu_save, out of place and in place', WAT, ARENA, (pair) => {
    for (const [rows, cols] of SHAPES) {
      const l = geluLayout(rows, cols);
      const seed = 31 * rows + cols;
      junk(pair, l.end, seed);
      // |x + b| to 9: past erf's clamp at |u/√2| = 4 and exp's underflow.
      pair.set(l.x, seededFloats(l.n, seed + 1, 8));
      pair.set(l.b, seededFloats(cols, seed + 2, 1));
      const u = argScale(pair, l, cols);
      const shape = `${rows} × ${cols}`;
      pair.call('bias_gelu', 4 * l.x, 4 * l.b, 4 * l.y, 0, rows, cols);
      expectArena(pair, l.end, [{ what: `y (${shape})`, at: l.y, size: l.n, scale: u }]);
      pair.call('bias_gelu_save', 4 * l.x, 4 * l.b, 4 * l.y, 4 * l.cdf, rows, cols);
      expectArena(pair, l.end, [
        { what: `y (${shape}, saving)`, at: l.y, size: l.n, scale: u },
        { what: `cdf (${shape})`, at: l.cdf, size: l.n, scale: () => 1 },
      ]);
      // In place (y = x), as the wrapper allows.
      pair.call('bias_gelu', 4 * l.x, 4 * l.b, 4 * l.x, 0, rows, cols);
      expectArena(pair, l.end, [
        { what: `y (${shape}, saving)`, at: l.y, size: l.n, scale: u },
        { what: `cdf (${shape})`, at: l.cdf, size: l.n, scale: () => 1 },
        { what: `y in place (${shape})`, at: l.x, size: l.n, scale: u },
      ]);
    }
  });

  itEveryIsa('bias_gelu_backward and bias_gelu_backward_saved', WAT, ARENA, (pair) => {
    for (const [rows, cols] of SHAPES) {
      const l = geluLayout(rows, cols);
      const seed = 37 * rows + cols;
      junk(pair, l.end, seed);
      pair.set(l.x, seededFloats(l.n, seed + 1, 8));
      pair.set(l.b, seededFloats(cols, seed + 2, 1));
      pair.set(l.dy, seededFloats(l.n, seed + 3, 1));
      pair.set(l.db, seededFloats(cols, seed + 4, 1));
      // Φ(x + b) from the WAT's forward into both, so the saved backward is compared on its own.
      pair.call('bias_gelu_save', 4 * l.x, 4 * l.b, 4 * l.y, 4 * l.cdf, rows, cols);
      pair.set(l.cdf, pair.views().wat.slice(l.cdf, l.cdf + l.n));
      pair.set(l.y, pair.views().wat.slice(l.y, l.y + l.n));
      const { wat } = pair.views();
      const dy = wat.slice(l.dy, l.dy + l.n);
      const db0 = wat.slice(l.db, l.db + cols);
      const shape = `${rows} × ${cols}`;
      for (const saved of [false, true]) {
        const name = saved ? 'bias_gelu_backward_saved' : 'bias_gelu_backward';
        // Twice: dx apart from dy, then in place (dx = dy), db accumulating over both.
        for (const dx of [l.dx, l.dy]) {
          pair.call(name, 4 * l.x, 4 * l.b, 4 * l.cdf, 4 * l.dy, 4 * dx, 4 * l.db, rows, cols);
          const out = pair.views().wat;
          const sums = Array.from(db0, (v) => Math.abs(v));
          for (let i = 0; i < l.n; i++) sums[i % cols]! += Math.abs(out[dx + i]!);
          expectArena(pair, l.end, [
            { what: `${name} dx (${shape})`, at: dx, size: l.n, scale: (i) => Math.abs(dy[i]!) },
            { what: `${name} db (${shape})`, at: l.db, size: cols, scale: (j) => sums[j]! },
          ]);
          // Back to the same state in both arenas before the next call.
          pair.set(l.dy, dy);
          pair.set(l.dx, out.slice(l.dx, l.dx + l.n));
          pair.set(l.db, db0);
        }
      }
    }
  });

  /** n: every count up to 19, past the vector widths, and the engine's N·d (768 × 64, × 128). */
  const COUNTS = [...Array.from({ length: 19 }, (_, i) => i + 1), 31, 33, 63, 768 * 64, 768 * 128];

  itEveryIsa('residual (with and without its mask), masked and scale', WAT, ARENA, (pair) => {
    for (const n of COUNTS) {
      const [x, y, mask, out, end] = [1, n + 4, 2 * n + 7, 3 * n + 9, 4 * n + 16];
      junk(pair, end, n);
      pair.set(x, seededFloats(n, n + 1, 4));
      pair.set(y, seededFloats(n, n + 2, 4));
      // A dropout mask (0 or 1/(1 − p)) for the small counts, any floats for the large.
      const keep = seededFloats(n, n + 3, 1);
      pair.set(mask, n < 100 ? keep.map((v) => (v < -0.5 ? 0 : 1.25)) : keep);
      const { wat } = pair.views();
      const ins = wat.slice(0, end);
      const scale = (i: number) => Math.abs(ins[x + i]!) + Math.abs(ins[y + i]! * ins[mask + i]!);
      pair.call('residual', 4 * x, 4 * y, 4 * mask, 4 * out, n, 1);
      expectArena(pair, end, [{ what: `residual masked (n ${n})`, at: out, size: n, scale }]);
      pair.call('residual', 4 * x, 4 * y, 0, 4 * out, n, 0);
      expectArena(pair, end, [{ what: `residual (n ${n})`, at: out, size: n }]);
      pair.call('masked', 4 * x, 4 * mask, 4 * out, n);
      expectArena(pair, end, [{ what: `masked (n ${n})`, at: out, size: n }]);
      // 1/√32, not a float32: both sides round it to one (the fields' scale at d_k = 32).
      pair.call('scale', 4 * x, 4 * out, n, 1 / Math.sqrt(32));
      expectArena(pair, end, [{ what: `scale (n ${n})`, at: out, size: n }]);
      pair.call('scale', 4 * out, 4 * out, n, -3);
      expectArena(pair, end, [{ what: `scale in place (n ${n})`, at: out, size: n }]);
      // In place: out = y (the masked residual), then out = x (the plain one, as the backward does).
      pair.call('residual', 4 * x, 4 * y, 4 * mask, 4 * y, n, 1);
      pair.call('residual', 4 * x, 4 * y, 0, 4 * x, n, 0);
      const inPlace = (i: number) => scale(i) + Math.abs(ins[x + i]!);
      expectArena(pair, end, [
        { what: `residual masked in place (n ${n})`, at: y, size: n, scale },
        { what: `residual in place (n ${n})`, at: x, size: n, scale: inPlace },
      ]);
    }
  });

  itEveryIsa('column_sums and bias_rows', WAT, ARENA, (pair) => {
    for (const [rows, cols] of SHAPES) {
      const n = rows * cols;
      const [src, dst, b, y, end] = [
        5,
        n + 6,
        n + cols + 8,
        n + 2 * cols + 9,
        2 * n + 2 * cols + 12,
      ];
      junk(pair, end, n + cols);
      pair.set(src, seededFloats(n, rows + 1, 2));
      pair.set(dst, seededFloats(cols, cols + 2, 2));
      pair.set(b, seededFloats(cols, cols + 3, 2));
      pair.call('column_sums', 4 * src, rows, cols, 4 * dst);
      pair.call('bias_rows', 4 * b, 4 * y, rows, cols);
      expectArena(pair, end, [
        { what: `column_sums (${rows} × ${cols})`, at: dst, size: cols },
        { what: `bias_rows (${rows} × ${cols})`, at: y, size: n },
      ]);
    }
  });

  /**
   * [count, length, d, vocab]: small odd cases (a count not a multiple of length, d of every
   * width up to 19 and past the vectors) and the engine's: the paper model's 64 × 12 tokens at
   * d 64, GPT baby's 12 × 64 at d 128, vocabulary 65 (so tokens repeat).
   */
  const EMBEDS = [
    ...Array.from(
      { length: 19 },
      (_, i) => [2 + (i % 9), 1 + (i % 4), i + 1, 1 + (i % 5)] as const,
    ),
    [7, 3, 33, 4],
    [5, 5, 63, 2],
    [768, 12, 64, 65],
    [768, 64, 128, 65],
  ] as const;

  itEveryIsa('embed and embed_backward (with and without positions)', WAT, ARENA, (pair) => {
    for (const [count, length, d, vocab] of EMBEDS) {
      const tokens = 3;
      const table = tokens + count + 2;
      const positions = table + vocab * d + 1;
      const x = positions + length * d + 3;
      const end = x + count * d + 5;
      const seed = 41 * count + d;
      junk(pair, end, seed);
      const ids = seededFloats(count, seed + 1).map((v) => Math.floor(((v + 1) / 2) * vocab));
      pair.setInts(
        tokens,
        Int32Array.from(ids, (v) => Math.min(vocab - 1, v)),
      );
      pair.set(table, seededFloats(vocab * d, seed + 2));
      pair.set(positions, seededFloats(length * d, seed + 3));
      const what = `(count ${count}, length ${length}, d ${d})`;
      for (const has of [1, 0]) {
        pair.call('embed', 4 * tokens, 4 * table, 4 * positions, 4 * x, count, length, d, has);
        expectArena(pair, end, [
          { what: `embed ${has ? 'with' : 'without'} positions ${what}`, at: x, size: count * d },
        ]);
        // The backward from x as the gradient into the tables (the tables as their gradients).
        pair.call(
          'embed_backward',
          4 * tokens,
          4 * x,
          4 * table,
          4 * positions,
          count,
          length,
          d,
          has,
        );
        expectArena(pair, end, [
          { what: `embed_backward dTable ${what}`, at: table, size: vocab * d },
          { what: `embed_backward dPositions ${what}`, at: positions, size: length * d },
        ]);
      }
    }
  });
});
