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

/** h = q·kᵀ/√d_k per head: q, k `N × d`; h `B × H × T × T`; scratch `N × d_k`. */
export function fieldsForward(
  k: EngineKernels,
  s: HeadShape,
  at: { q: number; k: number; h: number; scratch: number },
): void {
  const { batch, heads, t, dk, tt } = dims(s);
  for (let hd = 0; hd < heads; hd++) {
    const { rows, block } = operands(s, hd);
    const shape = { m: t, n: t, k: dk, batch, scratch: at.scratch };
    k.gemm({ layout: 'nt', ...shape, ...asA(rows(at.q)), ...asB(rows(at.k)), ...asC(block(at.h)) });
  }
  k.scale({ x: at.h, out: at.h, n: batch * heads * tt, by: 1 / Math.sqrt(dk) });
}

/** dq = gh·k/√d_k and dk = ghᵀ·q/√d_k per head (gh is scaled in place). */
export function fieldsBackward(
  k: EngineKernels,
  s: HeadShape,
  at: { q: number; k: number; gh: number; gq: number; gk: number },
): void {
  const { batch, heads, t, dk, tt } = dims(s);
  k.scale({ x: at.gh, out: at.gh, n: batch * heads * tt, by: 1 / Math.sqrt(dk) });
  for (let hd = 0; hd < heads; hd++) {
    const { rows, block } = operands(s, hd);
    const shape = { m: t, n: dk, k: t, batch };
    k.gemm({ ...shape, ...asA(block(at.gh)), ...asB(rows(at.k)), ...asC(rows(at.gq)) });
    const gk = { ...asA(block(at.gh)), ...asB(rows(at.q)), ...asC(rows(at.gk)) };
    k.gemm({ layout: 'tn', ...shape, ...gk });
  }
}

/** o = w·v per head: w `B × H × T × T`, v and o `N × d`. */
export function headsForward(
  k: EngineKernels,
  s: HeadShape,
  at: { w: number; v: number; o: number },
): void {
  const { batch, heads, t, dk } = dims(s);
  for (let hd = 0; hd < heads; hd++) {
    const { rows, block } = operands(s, hd);
    const shape = { m: t, n: dk, k: t, batch };
    k.gemm({ ...shape, ...asA(block(at.w)), ...asB(rows(at.v)), ...asC(rows(at.o)) });
  }
}

/** gw = go·vᵀ and gv = wᵀ·go per head; scratch `N × d_k`. */
export function headsBackward(
  k: EngineKernels,
  s: HeadShape,
  at: { w: number; v: number; go: number; gw: number; gv: number; scratch: number },
): void {
  const { batch, heads, t, dk } = dims(s);
  for (let hd = 0; hd < heads; hd++) {
    const { rows, block } = operands(s, hd);
    const gw = { ...asA(rows(at.go)), ...asB(rows(at.v)), ...asC(block(at.gw)) };
    k.gemm({ layout: 'nt', m: t, n: t, k: dk, batch, scratch: at.scratch, ...gw });
    const gv = { ...asA(block(at.w)), ...asB(rows(at.go)), ...asC(rows(at.gv)) };
    k.gemm({ layout: 'tn', m: t, n: dk, k: t, batch, ...gv });
  }
}
