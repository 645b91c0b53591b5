import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isAttentionError } from '../core/errors.js';
import { createArena } from './gemm.js';
import { createLayerNormKernels } from './layerNorm.js';
import { testKernelBackend } from '../testing/engineBackend.js';

const kernels = createLayerNormKernels(createArena(1 << 16), testKernelBackend());
const view = () => new Float32Array(kernels.memory.buffer);

/** The float64 reference: y = x̂ γ + β over each row (biased variance, ε = 1e-5). */
function forward64(x: number[], gamma: number[], beta: number[]): number[] {
  const c = x.length;
  const mu = x.reduce((s, v) => s + v, 0) / c;
  const variance = x.reduce((s, v) => s + (v - mu) ** 2, 0) / c;
  return x.map((v, j) => ((v - mu) / Math.sqrt(variance + 1e-5)) * gamma[j]! + beta[j]!);
}

/** Σ_j w_j y_j of one row: the loss whose central differences check the analytic gradient. */
const loss = (x: number[], gamma: number[], beta: number[], w: number[]) =>
  forward64(x, gamma, beta).reduce((s, y, j) => s + y * w[j]!, 0);

/** The float64 analytic backward of one row: dx, dγ, dβ for dy = w. */
function backward64(x: number[], gamma: number[], w: number[]) {
  const c = x.length;
  const mu = x.reduce((s, v) => s + v, 0) / c;
  const r = 1 / Math.sqrt(x.reduce((s, v) => s + (v - mu) ** 2, 0) / c + 1e-5);
  const xh = x.map((v) => (v - mu) * r);
  const g = w.map((d, j) => d * gamma[j]!);
  const mg = g.reduce((s, v) => s + v, 0) / c;
  const mgx = g.reduce((s, v, j) => s + v * xh[j]!, 0) / c;
  const dx = g.map((v, j) => (v - mg - xh[j]! * mgx) * r);
  // x̂ is recomputed from the float32 mean the forward saved: off by up to ulp(μ)/2 · rstd.
  const slack = 2 ** -24 * Math.max(1, Math.abs(mu)) * r;
  const gMax = g.reduce((s, v) => Math.max(s, Math.abs(v)), 0);
  return { dx, dGamma: w.map((d, j) => d * xh[j]!), slack, dxSlack: slack * r * 3 * gMax };
}

const size = fc.record({
  rows: fc.integer({ min: 1, max: 4 }),
  cols: fc.integer({ min: 1, max: 19 }),
  offset: fc.constantFrom(0, 10, -300),
  beta: fc.boolean(),
  seed: fc.integer(),
});

/** Fills `n` floats with offset + uniform [-1, 1) values and returns the float32 values. */
function fill(n: number, offset: number, seed: number): number[] {
  let s = seed >>> 0;
  const mem = view();
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    mem[i] = offset + (s / 2 ** 32 - 0.5) * 2;
  }
  return Array.from(mem.subarray(0, n));
}

const near = (got: number, want: number, tol: number) =>
  expect(Math.abs(got - want)).toBeLessThanOrEqual(tol * (1 + Math.abs(want)));

describe('engine LayerNorm', () => {
  it('forward matches float64, with and without β (|err| ≤ 2e-5 (1 + |y|))', () => {
    fc.assert(
      fc.property(size, ({ rows, cols, offset, beta, seed }) => {
        const n = rows * cols;
        const [x, gamma, b, y, mean, rstd] = [
          0,
          n,
          n + cols,
          n + 2 * cols,
          2 * n + 2 * cols,
          2 * n + 2 * cols + rows,
        ];
        const v = fill(2 * n + 2 * cols + 2 * rows, 0, seed);
        const mem = view();
        for (let i = 0; i < n; i++) mem[x + i] = v[x + i]! + offset;
        kernels.layerNorm({ rows, cols, x, gamma, beta: beta ? b : undefined, y, mean, rstd });
        const out = view();
        for (let i = 0; i < rows; i++) {
          const xs = Array.from(out.subarray(x + i * cols, x + (i + 1) * cols));
          const bs = beta ? v.slice(b, b + cols) : new Array(cols).fill(0);
          const want = forward64(xs, v.slice(gamma, gamma + cols), bs);
          for (let j = 0; j < cols; j++) near(out[y + i * cols + j]!, want[j]!, 2e-5);
          near(out[mean + i]!, xs.reduce((s, t) => s + t, 0) / cols, 1e-6);
        }
      }),
      { seed: 28, numRuns: 80 },
    );
  });

  it('backward matches the float64 gradient, itself checked by central differences', () => {
    fc.assert(
      fc.property(size, ({ rows, cols, offset, beta, seed }) => {
        const n = rows * cols;
        const o = {
          x: 0,
          gamma: n,
          mean: n + cols,
          rstd: n + cols + rows,
          dy: n + cols + 2 * rows,
        };
        const [dx, dGamma, dBeta] = [
          2 * n + cols + 2 * rows,
          3 * n + cols + 2 * rows,
          3 * n + 2 * cols + 2 * rows,
        ];
        const v = fill(3 * n + 3 * cols + 2 * rows, 0, seed);
        const mem = view();
        for (let i = 0; i < n; i++) mem[o.x + i] = v[o.x + i]! + offset;
        kernels.layerNorm({
          rows,
          cols,
          x: o.x,
          gamma: o.gamma,
          y: dx,
          mean: o.mean,
          rstd: o.rstd,
        });
        const before = Array.from(view().subarray(0, 3 * n + 3 * cols + 2 * rows));
        kernels.layerNormBackward({
          rows,
          cols,
          ...o,
          dx,
          dGamma,
          dBeta: beta ? dBeta : undefined,
        });
        const out = view();
        const gamma = before.slice(o.gamma, o.gamma + cols);
        const zero = new Array(cols).fill(0);
        const dg = new Array(cols).fill(0);
        const db = new Array(cols).fill(0);
        const dgSlack = new Array(cols).fill(0);
        for (let i = 0; i < rows; i++) {
          const xs = before.slice(o.x + i * cols, o.x + (i + 1) * cols);
          const w = before.slice(o.dy + i * cols, o.dy + (i + 1) * cols);
          const want = backward64(xs, gamma, w);
          for (let j = 0; j < cols; j++) {
            const h = 1e-4;
            const [up, down] = [[...xs], [...xs]];
            up[j]! += h;
            down[j]! -= h;
            const fd = (loss(up, gamma, zero, w) - loss(down, gamma, zero, w)) / (2 * h);
            near(fd, want.dx[j]!, 1e-6);
            const got = out[dx + i * cols + j]!;
            expect(Math.abs(got - want.dx[j]!)).toBeLessThanOrEqual(
              1e-4 * (1 + Math.abs(want.dx[j]!)) + want.dxSlack,
            );
            dg[j] += want.dGamma[j]!;
            dgSlack[j] += Math.abs(w[j]!) * want.slack;
            db[j] += w[j]!;
          }
        }
        for (let j = 0; j < cols; j++) {
          const wantG = before[dGamma + j]! + dg[j]!;
          const errG = Math.abs(out[dGamma + j]! - wantG);
          expect(errG).toBeLessThanOrEqual(1e-5 * (1 + Math.abs(wantG)) + dgSlack[j]!);
          const b0 = before[dBeta + j]!;
          expect(Math.abs(out[dBeta + j]! - (beta ? b0 + db[j]! : b0))).toBeLessThanOrEqual(
            1e-5 * (1 + Math.abs(b0 + db[j]!)),
          );
        }
      }),
      { seed: 29, numRuns: 80 },
    );
  });

  it('runs the backward in place (dx = dy) with the same dx, bit for bit', () => {
    const [rows, cols] = [2, 13];
    const n = rows * cols;
    const o = { x: 0, gamma: n, mean: n + cols, rstd: n + cols + rows, dy: n + cols + 2 * rows };
    const [y, dx, dGamma] = [
      2 * n + cols + 2 * rows,
      3 * n + cols + 2 * rows,
      4 * n + cols + 2 * rows,
    ];
    fill(4 * n + 2 * cols + 2 * rows, 1, 5);
    kernels.layerNorm({ rows, cols, x: o.x, gamma: o.gamma, y, mean: o.mean, rstd: o.rstd });
    kernels.layerNormBackward({ rows, cols, ...o, dx, dGamma });
    const apart = view().slice(dx, dx + n);
    kernels.layerNormBackward({ rows, cols, ...o, dx: o.dy, dGamma });
    expect(view().slice(o.dy, o.dy + n)).toEqual(apart);
  });

  it('rejects bad sizes and operands outside the arena with coded errors', () => {
    const floats = kernels.memory.buffer.byteLength >>> 2;
    const base = { rows: 2, cols: 4, x: 0, gamma: 0, y: 0, mean: 0, rstd: 0 };
    const bad = (f: () => void, code: 'ATTENTION_INVALID_ARGUMENT' | 'ATTENTION_SHAPE_MISMATCH') =>
      expect(() => {
        try {
          f();
        } catch (e) {
          if (isAttentionError(e, code)) throw new Error('coded');
        }
      }).toThrow('coded');
    bad(() => kernels.layerNorm({ ...base, rows: 1.5 }), 'ATTENTION_INVALID_ARGUMENT');
    bad(() => kernels.layerNorm({ ...base, cols: 0 }), 'ATTENTION_INVALID_ARGUMENT');
    bad(() => kernels.layerNorm({ ...base, beta: floats - 2 }), 'ATTENTION_SHAPE_MISMATCH');
    bad(
      () => kernels.layerNormBackward({ ...base, dy: 0, dx: floats - 1, dGamma: 0 }),
      'ATTENTION_SHAPE_MISMATCH',
    );
  });
});
