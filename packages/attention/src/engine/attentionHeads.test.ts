// The per-head attention products, which run in causal bands from T = 128 on, against float64
// loops over the whole square: h and gw on and below the diagonal (their readers' part), o, gv,
// gq and gk everywhere. w and gh are lower-triangular, as the causal kernels write them.
import { describe, expect, it } from 'vitest';
import { createArena } from './arena.js';
import {
  causalBands,
  fieldsBackward,
  fieldsForward,
  headsBackward,
  headsForward,
} from './attentionHeads.js';
import { createEngineKernels } from './engineKernels.js';
import { testEngineBackend } from '../testing/engineBackend.js';

/** Tolerance per term's magnitude: float32 sums of at most T products (8 ε · Σ|a b|). */
const REL = 8 * 2 ** -23;

/** A seeded stream in [−1, 1). */
function floats(n: number, seed: number): Float32Array {
  let x = seed >>> 0 || 1;
  return Float32Array.from({ length: n }, () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 31 - 1;
  });
}

/** Zeroes the part of each T × T block above the diagonal (w and gh as the kernels leave them). */
function lower(block: Float32Array, t: number): Float32Array {
  for (let r = 0; r < block.length / t; r++) block.fill(0, r * t + (r % t) + 1, (r + 1) * t);
  return block;
}

interface Case {
  readonly batch: number;
  readonly heads: number;
  readonly length: number;
  readonly dModel: number;
}

/** Runs the four products on the engine and checks each against float64 loops. */
function check(c: Case): void {
  const { batch, heads, length: t, dModel: d } = c;
  const [n, dk, bhtt] = [batch * t, d / heads, batch * heads * t * t];
  const names = ['q', 'k', 'v', 'go', 'o', 'gq', 'gk', 'gv', 'scratch'] as const;
  const at: Record<string, number> = {};
  let end = 0;
  for (const name of names) [at[name], end] = [end, end + n * d];
  for (const name of ['h', 'w', 'gw', 'gh'] as const) [at[name], end] = [end, end + bhtt];
  const kernels = createEngineKernels(createArena(end + 64), { backend: testEngineBackend() });
  const f = kernels.f32();
  const input = {
    q: floats(n * d, 1),
    k: floats(n * d, 2),
    v: floats(n * d, 3),
    go: floats(n * d, 4),
  };
  const w = lower(floats(bhtt, 5), t);
  const gh = lower(floats(bhtt, 6), t);
  for (const [name, x] of Object.entries(input)) f.set(x, at[name]);
  f.set(w, at.w!);
  f.set(gh, at.gh!);
  f.fill(Number.NaN, at.h!, at.h! + bhtt); // what the bands skip stays as it was: never read here
  f.fill(Number.NaN, at.gw!, at.gw! + bhtt);
  const shape = { batch, heads, length: t, dModel: d };
  fieldsForward(kernels, shape, { q: at.q!, k: at.k!, h: at.h!, scratch: at.scratch! });
  headsForward(kernels, shape, { w: at.w!, v: at.v!, o: at.o! });
  headsBackward(kernels, shape, {
    w: at.w!,
    v: at.v!,
    go: at.go!,
    gw: at.gw!,
    gv: at.gv!,
    scratch: at.scratch!,
  });
  fieldsBackward(kernels, shape, { q: at.q!, k: at.k!, gh: at.gh!, gq: at.gq!, gk: at.gk! });
  const scale = 1 / Math.sqrt(dk);
  /** Row i, column c of head hd of sequence b in an N × d operand. */
  const row = (x: Float32Array, b: number, i: number, hd: number, col: number) =>
    x[(b * t + i) * d + hd * dk + col]!;
  const block = (b: number, hd: number, i: number, j: number) => ((b * heads + hd) * t + i) * t + j;
  const expectNear = (what: string, got: number, terms: number[]) => {
    const want = terms.reduce((s, x) => s + x, 0);
    const tol = REL * terms.reduce((s, x) => s + Math.abs(x), 0) + 1e-30;
    if (!(Math.abs(got - want) <= tol))
      expect.fail(`${what}: ${got} against ${want} (tolerance ${tol})`);
  };
  for (let b = 0; b < batch; b++)
    for (let hd = 0; hd < heads; hd++)
      for (let i = 0; i < t; i++) {
        for (let j = 0; j <= i; j++) {
          const qk = Array.from(
            { length: dk },
            (_, p) => row(input.q, b, i, hd, p) * row(input.k, b, j, hd, p) * scale,
          );
          expectNear(`h ${b},${hd},${i},${j}`, f[at.h! + block(b, hd, i, j)]!, qk);
          const gov = Array.from(
            { length: dk },
            (_, p) => row(input.go, b, i, hd, p) * row(input.v, b, j, hd, p),
          );
          expectNear(`gw ${b},${hd},${i},${j}`, f[at.gw! + block(b, hd, i, j)]!, gov);
        }
        for (let p = 0; p < dk; p++) {
          const col = (x: number) => f[x + (b * t + i) * d + hd * dk + p]!;
          const sum = (g: (j: number) => number) => Array.from({ length: t }, (_, j) => g(j));
          expectNear(
            `o ${b},${hd},${i},${p}`,
            col(at.o!),
            sum((j) => w[block(b, hd, i, j)]! * row(input.v, b, j, hd, p)),
          );
          expectNear(
            `gv ${b},${hd},${i},${p}`,
            col(at.gv!),
            sum((j) => w[block(b, hd, j, i)]! * row(input.go, b, j, hd, p)),
          );
          expectNear(
            `gq ${b},${hd},${i},${p}`,
            col(at.gq!),
            sum((j) => gh[block(b, hd, i, j)]! * scale * row(input.k, b, j, hd, p)),
          );
          expectNear(
            `gk ${b},${hd},${i},${p}`,
            col(at.gk!),
            sum((j) => gh[block(b, hd, j, i)]! * scale * row(input.q, b, j, hd, p)),
          );
        }
      }
}

describe('attention products in causal bands', () => {
  it('bands cover every row once, and start past one band only from T = 128', () => {
    expect(causalBands(127)).toEqual([[0, 127]]);
    for (const t of [128, 129, 150, 256, 1024]) {
      const bands = causalBands(t);
      expect(bands.length).toBeGreaterThan(1);
      expect(bands[0]![0]).toBe(0);
      expect(bands.at(-1)![1]).toBe(t);
      for (let x = 1; x < bands.length; x++) expect(bands[x]![0]).toBe(bands[x - 1]![1]);
    }
  });

  for (const c of [
    { batch: 2, heads: 2, length: 12, dModel: 16 },
    { batch: 2, heads: 2, length: 129, dModel: 16 },
    { batch: 1, heads: 1, length: 150, dModel: 20 },
    { batch: 1, heads: 2, length: 256, dModel: 32 },
  ])
    it(`match float64 loops: B ${c.batch}, H ${c.heads}, T ${c.length}, d ${c.dModel}`, () =>
      check(c));
});
