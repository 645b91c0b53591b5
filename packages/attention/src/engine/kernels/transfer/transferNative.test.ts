// The native transfer-matrix kernels (transfer.c) against two references on seeded random
// problems, on every ISA the CPU runs: ising-core's transfer-matrix sampler in float64 (itself
// tested against enumeration) for the weights, ∂L/∂h and ∂L/∂J of every row, and brute-force
// enumeration of all 2^n states for short rows. Batches of 1, 3, 12 and 17 sequences give lane
// groups of one length, of mixed lengths and with padding lanes on every vector width; windows
// 1–10, lengths up to 64. Fields beyond the float32 kernel's range must be left to the caller
// (sums = −1, the row untouched).
import {
  causalBatch,
  causalWeightsFromEstimate,
  estimateTransferMatrix,
} from '@boltzmann/ising-core';
import { describe, expect, it } from 'vitest';
import { loadNativeAddon } from '../../native/nativeAddon.js';
import { itWithoutAddon, seededFloats } from '../../../testing/nativeKernels.js';

const load = loadNativeAddon();

interface Case {
  readonly batch: number;
  readonly heads: number;
  readonly length: number;
  readonly window: number;
  readonly beta: number;
  /** Scale of the fields (uniform in ±scale) and of the band couplings. */
  readonly fieldScale: number;
  readonly couplingScale: number;
}

/** Banded couplings (`heads × T × T`, strict upper triangle within `window`). */
function bandedCouplings(c: Case, seed: number): Float32Array {
  const { heads, length: t, window: w } = c;
  const raw = seededFloats(heads * t * t, seed, c.couplingScale);
  const j = new Float32Array(heads * t * t);
  for (let hd = 0; hd < heads; hd++)
    for (let r = 0; r < t; r++)
      for (let k = r + 1; k <= Math.min(t - 1, r + w); k++)
        j[(hd * t + r) * t + k] = raw[(hd * t + r) * t + k]!;
  return j;
}

/** The float64 reference of head `hd`: ising-core's transfer matrix on the same float32 inputs. */
function reference(c: Case, h: Float32Array, j: Float32Array, gw: Float32Array, hd: number) {
  const { batch, heads, length: t } = c;
  const tt = t * t;
  const fields = new Float64Array(batch * tt);
  const grad = new Float64Array(batch * tt);
  for (let b = 0; b < batch; b++) {
    fields.set(h.subarray((b * heads + hd) * tt, (b * heads + hd + 1) * tt), b * tt);
    grad.set(gw.subarray((b * heads + hd) * tt, (b * heads + hd + 1) * tt), b * tt);
  }
  const ising = causalBatch(
    fields,
    Float64Array.from(j.subarray(hd * tt, (hd + 1) * tt)),
    { batch, length: t },
    c.beta,
  );
  const op = causalWeightsFromEstimate(
    ising,
    estimateTransferMatrix(ising, { bandwidth: c.window }),
  );
  return { weights: op.weights, ...op.backward(grad) };
}

/** max |a − b| / max |b|. */
function relativeError(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let err = 0;
  let scale = 1e-30;
  for (let i = 0; i < b.length; i++) {
    err = Math.max(err, Math.abs(a[i]! - b[i]!));
    scale = Math.max(scale, Math.abs(b[i]!));
  }
  return err / scale;
}

function runKernels(isa: string, c: Case, seed: number, segment = 0) {
  const { batch, heads, length: t, window: w, beta } = c;
  const bhtt = batch * heads * t * t;
  const htt = heads * t * t;
  // h, J, w, sums, gw, gh, gJ at odd float offsets.
  const at = { h: 3, j: 5 + bhtt, w: 7 + bhtt + htt, sums: 9 + 2 * bhtt + htt };
  const at2 = { gw: at.sums + batch * heads * t + 11, gh: 0, gj: 0 };
  at2.gh = at2.gw + bhtt + 13;
  at2.gj = at2.gh + bhtt + 15;
  const f = new Float32Array(at2.gj + htt + 64);
  const h = seededFloats(bhtt, seed, c.fieldScale);
  const j = bandedCouplings(c, seed + 1);
  const gw = seededFloats(bhtt, seed + 2);
  f.set(h, at.h);
  f.set(j, at.j);
  f.set(gw, at2.gw);
  f.fill(7, at.w, at.w + bhtt); // stale values above the diagonal must be zeroed
  const k = load.addon!.bind(new Uint8Array(f.buffer), isa);
  const args = [4 * at.h, 4 * at.j, 4 * at.w, 4 * at.sums, batch, heads, t, w, beta];
  const left = k.transfer_forward!(...args);
  k.transfer_backward!(...args, 4 * at2.gw, 4 * at2.gh, 4 * at2.gj, segment);
  const view = (o: number, n: number) => f.slice(o, o + n);
  return {
    left,
    h,
    j,
    gw,
    w: view(at.w, bhtt),
    sums: view(at.sums, batch * heads * t),
    gh: view(at2.gh, bhtt),
    gj: view(at2.gj, htt),
  };
}

const CASES: Case[] = [
  ...[1, 2, 3, 4, 5, 6, 8, 10].map((window) => ({
    batch: 3,
    heads: 2,
    length: 16,
    window,
    beta: 1,
    fieldScale: 2,
    couplingScale: 0.5,
  })),
  ...[4, 6, 8, 10].map((window) => ({
    batch: 12,
    heads: 1,
    length: 64,
    window,
    beta: 0.7,
    fieldScale: 2,
    couplingScale: 0.4,
  })),
  { batch: 17, heads: 2, length: 24, window: 8, beta: 1.3, fieldScale: 1.5, couplingScale: 0.3 },
  { batch: 1, heads: 1, length: 64, window: 8, beta: 1, fieldScale: 3, couplingScale: 0.5 },
];

describe('native transfer-matrix kernels against ising-core (float64)', () => {
  if (load.addon === undefined) return itWithoutAddon('transfer kernels', load.reason);
  for (const isa of load.addon.isas())
    it(`weights, ∂L/∂h and ∂L/∂J on every case [${isa}]`, () => {
      for (const [n, c] of CASES.entries()) {
        const out = runKernels(isa, c, 1000 + 17 * n);
        expect(out.left, 'rows left to the caller').toBe(0);
        const t = c.length;
        const tt = t * t;
        for (let hd = 0; hd < c.heads; hd++) {
          const ref = reference(c, out.h, out.j, out.gw, hd);
          const rows = (src: Float32Array) => {
            const r = new Float64Array(c.batch * tt);
            for (let b = 0; b < c.batch; b++)
              r.set(src.subarray((b * c.heads + hd) * tt, (b * c.heads + hd + 1) * tt), b * tt);
            return r;
          };
          const label = `${isa} case ${n} (B ${c.batch}, T ${t}, W ${c.window}) head ${hd}`;
          // Every entry, the zeros above each row's keys too. Float32 against float64, with the
          // kernels' blocked sums (measured over W = 1 … 10: w ≤ 2.0e-7, gh ≤ 1.4e-6, gJ ≤ 1.5e-6).
          expect(relativeError(rows(out.w), ref.weights), `w ${label}`).toBeLessThan(5e-7);
          expect(relativeError(rows(out.gh), ref.fields), `gh ${label}`).toBeLessThan(4e-6);
          const gj = out.gj.subarray(hd * tt, (hd + 1) * tt);
          expect(relativeError(gj, ref.couplings), `gJ ${label}`).toBeLessThan(4e-6);
        }
      }
    });
});

/** Causal weights of one row by enumerating its 2^n states (float64): w_t = P(s_t = +1) / Σ_k P(s_k = +1). */
function enumerateRow(
  h: ArrayLike<number>,
  j: ArrayLike<number>,
  jAt: number,
  t: number,
  n: number,
  beta: number,
): Float64Array {
  const up = new Float64Array(n);
  let z = 0;
  for (let s = 0; s < 1 << n; s++) {
    let e = 0;
    for (let a = 0; a < n; a++) {
      const sa = (s >> a) & 1 ? 1 : -1;
      e += h[a]! * sa;
      for (let b = a + 1; b < n; b++) e += j[jAt + a * t + b]! * sa * ((s >> b) & 1 ? 1 : -1);
    }
    const p = Math.exp(beta * e);
    z += p;
    for (let a = 0; a < n; a++) if ((s >> a) & 1) up[a]! += p;
  }
  let sum = 0;
  for (let a = 0; a < n; a++) sum += up[a]! / z;
  return up.map((u) => u / z / sum);
}

/** L = Σ gw · w over every row, by enumeration (float64). */
function enumeratedLoss(
  c: Case,
  h: ArrayLike<number>,
  j: ArrayLike<number>,
  gw: ArrayLike<number>,
): number {
  const { batch, heads, length: t } = c;
  let loss = 0;
  for (let b = 0; b < batch; b++)
    for (let hd = 0; hd < heads; hd++)
      for (let i = 0; i < t; i++) {
        const row = ((b * heads + hd) * t + i) * t;
        const w = enumerateRow(
          Array.from({ length: i + 1 }, (_, k) => h[row + k]!),
          j,
          hd * t * t,
          t,
          i + 1,
          c.beta,
        );
        for (let k = 0; k <= i; k++) loss += gw[row + k]! * w[k]!;
      }
  return loss;
}

describe('native transfer-matrix kernels: the VJP from checkpointed segments', () => {
  if (load.addon === undefined) return itWithoutAddon('transfer kernels (segments)', load.reason);
  // The VJP keeps every backward message of a lane group while they fit in 16 MB (all the cases
  // above); wider windows recompute them in segments from checkpoints. A 13th argument (tests
  // only) sets the segment length: every length must give the answer of the whole sweep.
  for (const isa of load.addon.isas())
    it(`segments of 1, 2, 5 and 13 positions give the whole sweep's gradients [${isa}]`, () => {
      const c: Case = {
        batch: 5,
        heads: 2,
        length: 40,
        window: 6,
        beta: 1.1,
        fieldScale: 2,
        couplingScale: 0.4,
      };
      const whole = runKernels(isa, c, 99);
      for (const segment of [1, 2, 5, 13]) {
        const cut = runKernels(isa, c, 99, segment);
        expect(relativeError(cut.gh, whole.gh), `gh, segments of ${segment}`).toBeLessThan(1e-6);
        expect(relativeError(cut.gj, whole.gj), `gJ, segments of ${segment}`).toBeLessThan(1e-6);
      }
    });
});

describe('native transfer-matrix kernels against enumeration', () => {
  if (load.addon === undefined)
    return itWithoutAddon('transfer kernels (enumeration)', load.reason);
  const c: Case = {
    batch: 2,
    heads: 2,
    length: 9,
    window: 3,
    beta: 0.9,
    fieldScale: 1.5,
    couplingScale: 0.6,
  };
  for (const isa of load.addon.isas())
    it(`w by enumeration, ∂L/∂h and ∂L/∂J by central differences of L = Σ gw·w [${isa}]`, () => {
      const out = runKernels(isa, c, 4242);
      const t = c.length;
      const h = Float64Array.from(out.h);
      const j = Float64Array.from(out.j);
      for (let p = 0; p < c.batch * c.heads * t; p++) {
        const i = p % t;
        const ref = enumerateRow(
          h.subarray(p * t, p * t + i + 1),
          j,
          (Math.floor(p / t) % c.heads) * t * t,
          t,
          i + 1,
          c.beta,
        );
        for (let k = 0; k < t; k++) expect(out.w[p * t + k]!).toBeCloseTo(k <= i ? ref[k]! : 0, 6);
      }
      const eps = 1e-4;
      const diff = (x: Float64Array, at: number) => {
        const keep = x[at]!;
        x[at] = keep + eps;
        const plus = enumeratedLoss(c, h, j, out.gw);
        x[at] = keep - eps;
        const minus = enumeratedLoss(c, h, j, out.gw);
        x[at] = keep;
        return (plus - minus) / (2 * eps);
      };
      for (let p = 0; p < c.batch * c.heads * t; p++)
        for (let k = 0; k <= p % t; k++)
          expect(out.gh[p * t + k]!).toBeCloseTo(diff(h, p * t + k), 5);
      for (let at = 0; at < c.heads * t * t; at++) {
        const r = Math.floor(at / t) % t;
        const k = at % t;
        const inBand = k > r && k - r <= c.window;
        expect(out.gj[at]!).toBeCloseTo(inBand ? diff(j, at) : 0, 5);
      }
    });

  it('leaves rows beyond the float32 range (|h| up to 1e3) to the caller, untouched', () => {
    const isa = load.addon!.isas()[0]!;
    const big: Case = { ...c, fieldScale: 1e3 };
    const out = runKernels(isa, big, 77);
    const rows = big.batch * big.heads * big.length;
    const left = Array.from(out.sums).filter((s) => s === -1).length;
    expect(out.left).toBe(left);
    expect(left).toBeGreaterThan(rows / 2);
    for (let p = 0; p < rows; p++) {
      if (out.sums[p] !== -1) continue;
      const t = big.length;
      expect(Array.from(out.w.subarray(p * t, (p + 1) * t))).toEqual(new Array(t).fill(7));
      expect(Array.from(out.gh.subarray(p * t, (p + 1) * t))).toEqual(new Array(t).fill(0));
    }
  });
});
