import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isAttentionError } from '../core/errors.js';
import { createElementwiseKernels } from './elementwise.js';
import { createArena } from './gemm.js';
import { testKernelBackend } from '../testing/engineBackend.js';

const kernels = createElementwiseKernels(createArena(1 << 16), testKernelBackend());
const view = () => new Float32Array(kernels.memory.buffer);

/** erf in float64: 2/√π e^{−x²} Σ (2x²)ⁿ x / (1·3·…·(2n+1)), all terms positive (no cancellation). */
function erf64(x: number): number {
  if (Math.abs(x) > 6) return Math.sign(x);
  let term = x;
  let sum = x;
  for (let n = 1; n < 200 && Math.abs(term) > 1e-17 * Math.abs(sum); n++) {
    term *= (2 * x * x) / (2 * n + 1);
    sum += term;
  }
  return (2 / Math.sqrt(Math.PI)) * Math.exp(-x * x) * sum;
}
const gelu64 = (u: number) => 0.5 * u * (1 + erf64(u * Math.SQRT1_2));
const dgelu64 = (u: number) =>
  0.5 * (1 + erf64(u * Math.SQRT1_2)) + (u * Math.exp(-0.5 * u * u)) / Math.sqrt(2 * Math.PI);

const size = fc.record({
  rows: fc.integer({ min: 1, max: 5 }),
  cols: fc.integer({ min: 1, max: 19 }),
  scale: fc.constantFrom(0.5, 3, 12),
  seed: fc.integer(),
});

/** Fills the arena's first floats with values from `mem` (float32-rounded) and returns them. */
function fill(n: number, scale: number, seed: number): Float32Array {
  let s = seed >>> 0;
  const mem = view();
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    mem[i] = (s / 2 ** 32 - 0.5) * 2 * scale;
  }
  return mem.slice(0, n);
}

describe('engine bias + GELU', () => {
  it('matches the float64 exact GELU forward (|err| ≤ 2e-6 (1 + |y|))', () => {
    fc.assert(
      fc.property(size, ({ rows, cols, scale, seed }) => {
        const [x, bias, y] = [0, rows * cols + 1, rows * cols + cols + 2];
        const before = fill(y + rows * cols + 1, scale, seed);
        kernels.biasGelu({ rows, cols, x, bias, y });
        const out = view();
        for (let i = 0; i < rows; i++)
          for (let j = 0; j < cols; j++) {
            const want = gelu64(Math.fround(before[x + i * cols + j]! + before[bias + j]!));
            const got = out[y + i * cols + j]!;
            expect(Math.abs(got - want)).toBeLessThanOrEqual(2e-6 * (1 + Math.abs(want)));
          }
        expect(out[y + rows * cols]).toBe(before[y + rows * cols]);
      }),
      { seed: 26, numRuns: 60 },
    );
  });

  it('backward: dx = dy gelu′(x + b) and db += Σ dx, against float64 and finite differences', () => {
    fc.assert(
      fc.property(size, ({ rows, cols, scale, seed }) => {
        const n = rows * cols;
        const [x, bias, dy, dx, db] = [0, n, n + cols, 2 * n + cols, 3 * n + cols];
        const before = fill(3 * n + 2 * cols + 1, scale, seed);
        kernels.biasGeluBackward({ rows, cols, x, bias, dy, dx, dBias: db });
        const out = view();
        const sums = new Float64Array(cols);
        for (let i = 0; i < rows; i++)
          for (let j = 0; j < cols; j++) {
            const u = Math.fround(before[x + i * cols + j]! + before[bias + j]!);
            const g = before[dy + i * cols + j]!;
            // Central differences of the float64 loss g · gelu(u), h = 1e-5: error O(h²) ≈ 1e-10.
            const fd = (g * (gelu64(u + 1e-5) - gelu64(u - 1e-5))) / 2e-5;
            const want = g * dgelu64(u);
            expect(Math.abs(fd - want)).toBeLessThanOrEqual(1e-7 * (1 + Math.abs(want)));
            const got = out[dx + i * cols + j]!;
            expect(Math.abs(got - want)).toBeLessThanOrEqual(3e-6 * (1 + Math.abs(want)));
            sums[j]! += got;
          }
        for (let j = 0; j < cols; j++) {
          const want = before[db + j]! + sums[j]!;
          expect(Math.abs(out[db + j]! - want)).toBeLessThanOrEqual(1e-5 * (1 + Math.abs(want)));
        }
        expect(out[db + cols]).toBe(before[db + cols]);
      }),
      { seed: 27, numRuns: 60 },
    );
  });

  it('a NaN or infinite input comes out NaN or infinite, never as a clamped finite number', () => {
    const cols = 5;
    const [x, bias, y, cdf, dy, dx, db] = [0, 8, 16, 24, 32, 40, 48];
    const mem = view();
    mem.set([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1, -1], x);
    mem.fill(0, bias, bias + cols);
    mem.fill(1, dy, dy + cols);
    kernels.biasGelu({ rows: 1, cols, x, bias, y, cdf });
    // gelu(−∞) = ½ (−∞)(1 − 1) is NaN, as in the tfjs model's float arithmetic.
    expect(Array.from(mem.slice(y, y + 3))).toEqual([
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NaN,
    ]);
    kernels.biasGeluBackward({ rows: 1, cols, x, bias, dy, dx, dBias: db, cdf });
    expect(mem[dx]).toBeNaN();
    kernels.biasGeluBackward({ rows: 1, cols, x, bias, dy, dx, dBias: db });
    expect(mem[dx]).toBeNaN();
  });

  it('runs in place (y = x, dx = dy) with the same results, bit for bit', () => {
    const [rows, cols] = [3, 11];
    const n = rows * cols;
    const [x, bias, y, dy, dx, db] = [0, n, n + cols, 2 * n + cols, 3 * n + cols, 4 * n + cols];
    fill(4 * n + 2 * cols, 4, 7);
    kernels.biasGelu({ rows, cols, x, bias, y });
    kernels.biasGeluBackward({ rows, cols, x, bias, dy, dx, dBias: db });
    const apart = view().slice(0, 4 * n + 2 * cols);
    kernels.biasGeluBackward({ rows, cols, x, bias, dy, dx: dy, dBias: db });
    kernels.biasGelu({ rows, cols, x, bias, y: x });
    const mem = view();
    expect(mem.slice(x, x + n)).toEqual(apart.slice(y, y + n));
    expect(mem.slice(dy, dy + n)).toEqual(apart.slice(dx, dx + n));
  });

  it('a backward from the forward’s saved Φ equals the one that computes erf again, bit for bit', () => {
    const [rows, cols] = [4, 13];
    const n = rows * cols;
    const [x, bias, y, cdf, dy, dx, db, dx2, db2] = [
      0,
      n,
      n + cols,
      2 * n + cols,
      3 * n + cols,
      4 * n + cols,
      5 * n + cols,
      5 * n + 2 * cols,
      6 * n + 2 * cols,
    ];
    fill(6 * n + 3 * cols, 5, 11);
    view().fill(0, db, db + cols);
    view().fill(0, db2, db2 + cols);
    kernels.biasGelu({ rows, cols, x, bias, y: dx2 });
    kernels.biasGelu({ rows, cols, x, bias, y, cdf });
    expect(view().slice(y, y + n)).toEqual(view().slice(dx2, dx2 + n));
    kernels.biasGeluBackward({ rows, cols, x, bias, dy, dx, dBias: db });
    kernels.biasGeluBackward({ rows, cols, x, bias, dy, dx: dx2, dBias: db2, cdf });
    expect(view().slice(dx2, dx2 + n)).toEqual(view().slice(dx, dx + n));
    expect(view().slice(db2, db2 + cols)).toEqual(view().slice(db, db + cols));
  });

  it('rejects bad sizes and operands outside the arena with coded errors', () => {
    const floats = kernels.memory.buffer.byteLength >>> 2;
    const bad = (f: () => void, code: string) => {
      try {
        f();
      } catch (e) {
        expect(isAttentionError(e, code as 'ATTENTION_INVALID_ARGUMENT')).toBe(true);
        return;
      }
      throw new Error('expected a throw');
    };
    bad(
      () => kernels.biasGelu({ rows: -1, cols: 4, x: 0, bias: 0, y: 0 }),
      'ATTENTION_INVALID_ARGUMENT',
    );
    bad(
      () => kernels.biasGelu({ rows: 1, cols: 2.5, x: 0, bias: 0, y: 0 }),
      'ATTENTION_INVALID_ARGUMENT',
    );
    bad(
      () => kernels.biasGelu({ rows: 2, cols: 4, x: floats - 4, bias: 0, y: 0 }),
      'ATTENTION_SHAPE_MISMATCH',
    );
    bad(
      () =>
        kernels.biasGeluBackward({ rows: 1, cols: 4, x: 0, bias: 0, dy: 0, dx: 0, dBias: floats }),
      'ATTENTION_SHAPE_MISMATCH',
    );
  });
});

describe('engine residual, masked copy, scaled copy and column sums', () => {
  it('match plain loops on every size, with and without a mask, in place', () => {
    fc.assert(
      fc.property(size, ({ rows, cols, scale, seed }) => {
        const n = rows * cols;
        const [x, y, mask, out, dst] = [1, 2 + n, 3 + 2 * n, 4 + 3 * n, 5 + 4 * n];
        const before = fill(dst + cols + 1, scale, seed);
        kernels.residual({ x, y, mask, out, n });
        for (let i = 0; i < n; i++)
          expect(view()[out + i]).toBe(
            Math.fround(before[x + i]! + Math.fround(before[y + i]! * before[mask + i]!)),
          );
        kernels.residual({ x, y, mask: -1, out: y, n });
        for (let i = 0; i < n; i++)
          expect(view()[y + i]).toBe(Math.fround(before[x + i]! + before[y + i]!));
        kernels.masked({ x, mask, out: x, n });
        for (let i = 0; i < n; i++)
          expect(view()[x + i]).toBe(Math.fround(before[x + i]! * before[mask + i]!));
        kernels.columnSums({ src: mask, rows, cols, dst });
        for (let j = 0; j < cols; j++) {
          let sum = before[dst + j]!;
          for (let i = 0; i < rows; i++) sum = Math.fround(sum + before[mask + i * cols + j]!);
          expect(view()[dst + j]).toBe(sum);
        }
        expect(view()[dst + cols]).toBe(before[dst + cols]);
      }),
      { seed: 27, numRuns: 60 },
    );
  });

  it('scale: out = fround(by) · x, in place too; a bad factor or operand is a coded error', () => {
    fc.assert(
      fc.property(size, ({ rows, cols, scale, seed }) => {
        const n = rows * cols;
        const [x, out] = [1, 2 + n];
        const before = fill(out + n + 1, scale, seed);
        const by = 1 / Math.sqrt(32); // not a float32: the kernel rounds it to one
        kernels.scale({ x, out, n, by });
        for (let i = 0; i < n; i++)
          expect(view()[out + i]).toBe(Math.fround(before[x + i]! * Math.fround(by)));
        expect(view()[out + n]).toBe(before[out + n]);
        kernels.scale({ x, out: x, n, by: -2 });
        for (let i = 0; i < n; i++) expect(view()[x + i]).toBe(Math.fround(-2 * before[x + i]!));
      }),
      { seed: 28, numRuns: 40 },
    );
    const code = (f: () => void) => {
      try {
        f();
      } catch (e) {
        return isAttentionError(e) ? e.code : String(e);
      }
      return 'no error';
    };
    for (const by of [Number.NaN, Number.POSITIVE_INFINITY])
      expect(code(() => kernels.scale({ x: 0, out: 0, n: 4, by }))).toBe(
        'ATTENTION_INVALID_ARGUMENT',
      );
    expect(code(() => kernels.scale({ x: 0, out: 0, n: -1, by: 1 }))).toBe(
      'ATTENTION_INVALID_ARGUMENT',
    );
    expect(code(() => kernels.scale({ x: (1 << 16) - 2, out: 0, n: 4, by: 1 }))).toBe(
      'ATTENTION_SHAPE_MISMATCH',
    );
  });
});
