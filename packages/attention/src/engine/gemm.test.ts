import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { isAttentionError } from '../core/errors.js';
import { createArena, createGemmKernels, type GemmArgs, type GemmLayout } from './gemm.js';
import { testKernelBackend } from '../testing/engineBackend.js';

// The fused variant needs relaxed SIMD, which the engine turns on in Node 20 (Node 22+ by default).
const memory = createArena(1 << 20);
// On the native backend (BOLTZMANN_ENGINE_BACKEND, testing/engineBackend.ts) the addon's GEMM,
// which has no fma choice; on wasm both modules.
const backend = testKernelBackend();
const VARIANTS =
  backend.addon === undefined
    ? [
        { name: 'mul + add', kernels: createGemmKernels(memory, { fma: false }) },
        { name: 'fused multiply-add', kernels: createGemmKernels(memory, { fma: true }) },
      ]
    : [{ name: `native ${backend.info.isa}`, kernels: createGemmKernels(memory, { backend }) }];
let kernels = VARIANTS[0]!.kernels;
const view = () => new Float32Array(memory.buffer);

/** A small seeded generator (mulberry32) of values in [-1, 1). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 31 - 1;
  };
}

interface Case {
  layout: GemmLayout;
  m: number;
  n: number;
  k: number;
  batch: number;
  pad: number;
  shift: number;
  accumulate: boolean;
  seed: number;
}

/** Lays the operands out (padded rows, odd offsets), runs the kernel and checks every float. */
function check(t: Case): void {
  const { layout, m, n, k, batch, pad, shift } = t;
  const [aRows, aCols] = layout === 'tn' ? [k, m] : [m, k];
  const [bRows, bCols] = layout === 'nt' ? [n, k] : [k, n];
  const [lda, ldb, ldc] = [aCols + pad, bCols + pad, n + pad];
  const a = shift;
  const b = a + batch * aRows * lda + 3;
  const c = b + batch * bRows * ldb + 1;
  const scratch = c + batch * m * ldc + 2;
  const end = scratch + batch * k * n + 8;
  const mem = view();
  const next = random(t.seed);
  for (let i = 0; i < end; i++) mem[i] = next();
  const before = mem.slice(0, end);
  const args: GemmArgs = { layout, m, n, k, a, b, c, lda, ldb, ldc, batch, scratch };
  kernels.gemm({ ...args, accumulate: t.accumulate });
  const after = view();
  const written = new Uint8Array(end);
  let worst = 0;
  for (let p = 0; p < batch; p++)
    for (let i = 0; i < m; i++)
      for (let j = 0; j < n; j++) {
        const at = c + p * m * ldc + i * ldc + j;
        written[at] = 1;
        let sum = 0;
        let abs = 0;
        for (let q = 0; q < k; q++) {
          const x = before[a + p * aRows * lda + (layout === 'tn' ? q * lda + i : i * lda + q)]!;
          const y = before[b + p * bRows * ldb + (layout === 'nt' ? j * ldb + q : q * ldb + j)]!;
          sum += x * y;
          abs += Math.abs(x * y);
        }
        const c0 = t.accumulate ? before[at]! : 0;
        // float32 sums k products in order: each product and partial sum rounds once (unit
        // roundoff 2^-24), so the error is at most about (k + 1) · 2^-24 · Σ|a·b| (plus C's).
        const tol = (k + 2) * 2 ** -24 * (abs + Math.abs(c0)) + 1e-30;
        worst = Math.max(worst, Math.abs(after[at]! - (sum + c0)) / tol);
      }
  expect(worst).toBeLessThanOrEqual(1);
  let touched = 0;
  for (let i = 0; i < scratch; i++) if (written[i] === 0 && after[i] !== before[i]) touched++;
  expect(touched).toBe(0);
}

const layouts = fc.constantFrom<GemmLayout>('nn', 'tn', 'nt');

describe.each(VARIANTS)('engine gemm, $name', (variant) => {
  beforeEach(() => {
    kernels = variant.kernels;
  });

  it('says which variant it is', () => {
    if (backend.addon === undefined) expect(variant.kernels.fma).toBe(variant.name !== 'mul + add');
  });

  it('matches a float64 triple loop in every layout, batched, on edge sizes', () => {
    fc.assert(
      fc.property(
        fc.record({
          layout: layouts,
          m: fc.integer({ min: 0, max: 21 }),
          n: fc.integer({ min: 0, max: 21 }),
          k: fc.integer({ min: 0, max: 19 }),
          batch: fc.integer({ min: 1, max: 3 }),
          pad: fc.integer({ min: 0, max: 3 }),
          shift: fc.integer({ min: 0, max: 5 }),
          accumulate: fc.boolean(),
          seed: fc.integer(),
        }),
        (t) => check(t),
      ),
      { seed: 2026, numRuns: 300 },
    );
  });

  it('handles k = 0 and k = 1, overwriting or keeping C', () => {
    for (const layout of ['nn', 'tn', 'nt'] as const)
      for (const k of [0, 1])
        for (const accumulate of [false, true]) {
          const base = { layout, m: 9, n: 13, k, batch: 2, pad: 1, shift: 1, seed: k };
          check({ ...base, accumulate });
        }
  });

  it('blocks a long k of Aᵀ·B without losing C or the accumulate flag', () => {
    for (const k of [63, 64, 65, 130])
      for (const accumulate of [false, true])
        check({ layout: 'tn', m: 7, n: 10, k, batch: 2, pad: 2, shift: 3, accumulate, seed: k });
  });

  it('runs narrow A·Bᵀ (n < 16, k a multiple of 4) as dot products of rows, on every edge', () => {
    for (const m of [1, 2, 3, 4, 5, 7, 12])
      for (const n of [1, 3, 4, 5, 8, 12, 15])
        for (const k of [4, 8, 64])
          for (const accumulate of [false, true])
            check({
              layout: 'nt',
              m,
              n,
              k,
              batch: 2,
              pad: 1,
              shift: 2,
              accumulate,
              seed: m * n + k,
            });
  });

  it('matches on the models’ own shapes (768 rows, FFN 256, per-head 12 × 32)', () => {
    const cases: [GemmLayout, number, number, number][] = [
      ['nn', 768, 256, 64],
      ['nt', 768, 64, 256],
      ['tn', 64, 256, 768],
      ['nt', 12, 12, 32],
      ['nt', 12, 12, 64],
    ];
    for (const [layout, m, n, k] of cases)
      check({ layout, m, n, k, batch: 1, pad: 0, shift: 0, accumulate: true, seed: m + n });
  });
});

describe('engine gemm errors', () => {
  const ok: GemmArgs = { m: 2, n: 2, k: 2, a: 0, b: 4, c: 8 };
  const cases: [string, Partial<Record<keyof GemmArgs, unknown>>, string][] = [
    ['negative m', { m: -1 }, 'ATTENTION_INVALID_ARGUMENT'],
    ['fractional k', { k: 1.5 }, 'ATTENTION_INVALID_ARGUMENT'],
    ['NaN offset', { a: Number.NaN }, 'ATTENTION_INVALID_ARGUMENT'],
    ['unknown layout', { layout: 'tt' }, 'ATTENTION_INVALID_ARGUMENT'],
    ['row stride below the columns', { lda: 1 }, 'ATTENTION_INVALID_ARGUMENT'],
    ['nt without scratch', { layout: 'nt' }, 'ATTENTION_INVALID_ARGUMENT'],
    ['C past the arena', { c: (1 << 20) - 3 }, 'ATTENTION_SHAPE_MISMATCH'],
    ['batch past the arena', { batch: 3, strideA: 1 << 19 }, 'ATTENTION_SHAPE_MISMATCH'],
    ['scratch past the arena', { layout: 'nt', scratch: 1 << 20 }, 'ATTENTION_SHAPE_MISMATCH'],
  ];
  it.each(cases)('%s throws a coded error', (_name, patch, code) => {
    let error: unknown;
    try {
      kernels.gemm({ ...ok, ...patch } as GemmArgs);
    } catch (e) {
      error = e;
    }
    expect(isAttentionError(error, code as 'ATTENTION_SHAPE_MISMATCH')).toBe(true);
  });

  it('rejects a negative arena size', () => {
    expect(() => createArena(-1)).toThrow(/non-negative/);
  });
});
