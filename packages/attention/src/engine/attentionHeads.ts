/**
 * The per-head products of attention on the arena, without moving q, k, v out of their
 * `N × d` rows: head `h` of sequence `b` is the column block `h·d_k … (h+1)·d_k` of the
 * sequence's `T` rows, so each head is one batched GEMM over the batch (row stride d, batch
 * stride T·d) writing into `B × H × T × T`. And the masked softmax over keys `j ≤ i`.
 */
import type { EngineKernels } from './engineKernels.js';

/** The sizes of one attention layer's pass. */
export interface HeadShape {
  readonly batch: number;
  readonly heads: number;
  readonly length: number;
  readonly dModel: number;
}

function dims(s: HeadShape) {
  const { batch, heads, length: t, dModel: d } = s;
  return { batch, heads, t, d, dk: d / heads, tt: t * t, rowStride: t * d };
}

/** Where head `hd` of every sequence is: its offset, row stride and stride between sequences. */
interface HeadOperand {
  readonly at: number;
  readonly ld: number;
  readonly stride: number;
}

/**
 * The two layouts a head's operand has: its `d_k` columns of a sequence's `T` rows of `N × d`
 * (q, k, v, o and their gradients), or its `T × T` block of `B × H × T × T` (h, w and theirs).
 */
function operands(s: HeadShape, hd: number) {
  const { heads, t, d, dk, tt, rowStride } = dims(s);
  return {
    rows: (base: number): HeadOperand => ({ at: base + hd * dk, ld: d, stride: rowStride }),
    block: (base: number): HeadOperand => ({ at: base + hd * tt, ld: t, stride: heads * tt }),
  };
}

const asA = (o: HeadOperand) => ({ a: o.at, lda: o.ld, strideA: o.stride });
const asB = (o: HeadOperand) => ({ b: o.at, ldb: o.ld, strideB: o.stride });
const asC = (o: HeadOperand) => ({ c: o.at, ldc: o.ld, strideC: o.stride });

/** The operand from its row `row` and column `col` on. */
const from = (o: HeadOperand, row: number, col = 0): HeadOperand => ({
  ...o,
  at: o.at + row * o.ld + col,
});

/**
 * The width of a causal band: the native AVX-512 micro-tile's 64 columns (4 of AVX2's 16, 8 of
 * wasm's 8). The T × T products run in bands [b0, b1) that skip what causality never reads: q·kᵀ
 * and dO·Vᵀ by column bands over rows i ≥ b0 (each of B's rows is transposed once, as for the
 * whole square), w·v and gh·k by row bands over keys j < b1, wᵀ·dO and ghᵀ·q by row bands over
 * queries i ≥ b0. So at T = 256 the six products do 62.5 % of the square's work. Above the
 * diagonal band, h and gw hold whatever they held (their readers, the causal kernels and the
 * causal op, read keys j ≤ i only); w and gh are zero there, so the terms skipped change no sum.
 */
const CAUSAL_BAND = 64;

/** The bands [b0, b1) of a T × T block: one below 2 · CAUSAL_BAND. */
export function causalBands(t: number): (readonly [number, number])[] {
  if (t < 2 * CAUSAL_BAND) return [[0, t]];
  const bands: (readonly [number, number])[] = [];
  for (let b0 = 0; b0 < t; b0 += CAUSAL_BAND) bands.push([b0, Math.min(t, b0 + CAUSAL_BAND)]);
  return bands;
}

/** C = A·Bᵀ on and below the diagonal band: A, B `T × d_k` rows, C a `T × T` block. */
function causalOuter(
  k: EngineKernels,
  s: HeadShape,
  op: { a: HeadOperand; b: HeadOperand; c: HeadOperand; scratch: number },
): void {
  const { batch, t, dk } = dims(s);
  for (const [j0, j1] of causalBands(t)) {
    const [a, b, c] = [from(op.a, j0), from(op.b, j0), from(op.c, j0, j0)];
    const shape = { m: t - j0, n: j1 - j0, k: dk, batch, scratch: op.scratch };
    k.gemm({ layout: 'nt', ...shape, ...asA(a), ...asB(b), ...asC(c) });
  }
}

/**
 * C = W·B, or Wᵀ·B when `transposed`, for a lower-triangular `T × T` block W (zero above), B and
 * C `T × d_k` rows: row bands of C, each over the part of W that is not zero for it (W·B: keys
 * j < b1; Wᵀ·B: queries i ≥ b0).
 */
function causalLeft(
  k: EngineKernels,
  s: HeadShape,
  op: { w: HeadOperand; b: HeadOperand; c: HeadOperand },
  transposed = false,
): void {
  const { batch, t, dk } = dims(s);
  for (const [b0, b1] of causalBands(t)) {
    const [w, b] = transposed ? [from(op.w, b0, b0), from(op.b, b0)] : [from(op.w, b0), op.b];
    const shape = { m: b1 - b0, n: dk, k: transposed ? t - b0 : b1, batch };
    const layout = transposed ? 'tn' : 'nn';
    k.gemm({ layout, ...shape, ...asA(w), ...asB(b), ...asC(from(op.c, b0)) });
  }
}

/** h = q·kᵀ/√d_k per head on and below the diagonal band: q, k `N × d`; h `B × H × T × T`; scratch `N × d_k`. */
export function fieldsForward(
  k: EngineKernels,
  s: HeadShape,
  at: { q: number; k: number; h: number; scratch: number },
): void {
  const { batch, heads, dk, tt } = dims(s);
  for (let hd = 0; hd < heads; hd++) {
    const { rows, block } = operands(s, hd);
    causalOuter(k, s, { a: rows(at.q), b: rows(at.k), c: block(at.h), scratch: at.scratch });
  }
  k.scale({ x: at.h, out: at.h, n: batch * heads * tt, by: 1 / Math.sqrt(dk) });
}

/** dq = gh·k/√d_k and dk = ghᵀ·q/√d_k per head (gh, zero above the diagonal, is scaled in place). */
export function fieldsBackward(
  k: EngineKernels,
  s: HeadShape,
  at: { q: number; k: number; gh: number; gq: number; gk: number },
): void {
  const { batch, heads, dk, tt } = dims(s);
  k.scale({ x: at.gh, out: at.gh, n: batch * heads * tt, by: 1 / Math.sqrt(dk) });
  for (let hd = 0; hd < heads; hd++) {
    const { rows, block } = operands(s, hd);
    causalLeft(k, s, { w: block(at.gh), b: rows(at.k), c: rows(at.gq) });
    causalLeft(k, s, { w: block(at.gh), b: rows(at.q), c: rows(at.gk) }, true);
  }
}

/** o = w·v per head: w `B × H × T × T` (zero above the diagonal), v and o `N × d`. */
export function headsForward(
  k: EngineKernels,
  s: HeadShape,
  at: { w: number; v: number; o: number },
): void {
  for (let hd = 0; hd < s.heads; hd++) {
    const { rows, block } = operands(s, hd);
    causalLeft(k, s, { w: block(at.w), b: rows(at.v), c: rows(at.o) });
  }
}

/** gw = go·vᵀ on and below the diagonal band and gv = wᵀ·go per head; scratch `N × d_k`. */
export function headsBackward(
  k: EngineKernels,
  s: HeadShape,
  at: { w: number; v: number; go: number; gw: number; gv: number; scratch: number },
): void {
  for (let hd = 0; hd < s.heads; hd++) {
    const { rows, block } = operands(s, hd);
    causalOuter(k, s, { a: rows(at.go), b: rows(at.v), c: block(at.gw), scratch: at.scratch });
    causalLeft(k, s, { w: block(at.w), b: rows(at.go), c: rows(at.gv) }, true);
  }
}
