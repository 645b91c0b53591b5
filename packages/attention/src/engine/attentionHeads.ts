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

/** h = q·kᵀ/√d_k per head: q, k `N × d`; h `B × H × T × T`; scratch `N × d_k`. */
export function fieldsForward(
  k: EngineKernels,
  s: HeadShape,
  at: { q: number; k: number; h: number; scratch: number },
): void {
  const { batch, heads, t, d, dk, tt, rowStride } = dims(s);
  for (let hd = 0; hd < heads; hd++)
    k.gemm({
      layout: 'nt',
      m: t,
      n: t,
      k: dk,
      a: at.q + hd * dk,
      lda: d,
      strideA: rowStride,
      b: at.k + hd * dk,
      ldb: d,
      strideB: rowStride,
      c: at.h + hd * tt,
      ldc: t,
      strideC: heads * tt,
      batch,
      scratch: at.scratch,
    });
  const f = k.f32();
  const scale = 1 / Math.sqrt(dk);
  for (let i = at.h, end = at.h + batch * heads * tt; i < end; i++) f[i] = f[i]! * scale;
}

/** dq = gh·k/√d_k and dk = ghᵀ·q/√d_k per head (gh is scaled in place). */
export function fieldsBackward(
  k: EngineKernels,
  s: HeadShape,
  at: { q: number; k: number; gh: number; gq: number; gk: number },
): void {
  const { batch, heads, t, d, dk, tt, rowStride } = dims(s);
  const f = k.f32();
  const scale = 1 / Math.sqrt(dk);
  for (let i = at.gh, end = at.gh + batch * heads * tt; i < end; i++) f[i] = f[i]! * scale;
  const perHead = { batch, ldc: d, strideC: rowStride };
  for (let hd = 0; hd < heads; hd++) {
    const g = { a: at.gh + hd * tt, lda: t, strideA: heads * tt };
    k.gemm({
      ...perHead,
      ...g,
      m: t,
      n: dk,
      k: t,
      b: at.k + hd * dk,
      ldb: d,
      strideB: rowStride,
      c: at.gq + hd * dk,
    });
    k.gemm({
      ...perHead,
      ...g,
      layout: 'tn',
      m: t,
      n: dk,
      k: t,
      b: at.q + hd * dk,
      ldb: d,
      strideB: rowStride,
      c: at.gk + hd * dk,
    });
  }
}

/** o = w·v per head: w `B × H × T × T`, v and o `N × d`. */
export function headsForward(
  k: EngineKernels,
  s: HeadShape,
  at: { w: number; v: number; o: number },
): void {
  const { batch, heads, t, d, dk, tt, rowStride } = dims(s);
  for (let hd = 0; hd < heads; hd++)
    k.gemm({
      m: t,
      n: dk,
      k: t,
      a: at.w + hd * tt,
      lda: t,
      strideA: heads * tt,
      b: at.v + hd * dk,
      ldb: d,
      strideB: rowStride,
      c: at.o + hd * dk,
      ldc: d,
      strideC: rowStride,
      batch,
    });
}

/** gw = go·vᵀ and gv = wᵀ·go per head; scratch `N × d_k`. */
export function headsBackward(
  k: EngineKernels,
  s: HeadShape,
  at: { w: number; v: number; go: number; gw: number; gv: number; scratch: number },
): void {
  const { batch, heads, t, d, dk, tt, rowStride } = dims(s);
  const rows = { ldb: d, strideB: rowStride, batch };
  for (let hd = 0; hd < heads; hd++) {
    const go = { a: at.go + hd * dk, lda: d, strideA: rowStride };
    k.gemm({
      ...rows,
      ...go,
      layout: 'nt',
      m: t,
      n: t,
      k: dk,
      b: at.v + hd * dk,
      c: at.gw + hd * tt,
      ldc: t,
      strideC: heads * tt,
      scratch: at.scratch,
    });
    k.gemm({
      ...rows,
      layout: 'tn',
      m: t,
      n: dk,
      k: t,
      a: at.w + hd * tt,
      lda: t,
      strideA: heads * tt,
      b: at.go + hd * dk,
      c: at.gv + hd * dk,
      ldc: d,
      strideC: rowStride,
    });
  }
}
