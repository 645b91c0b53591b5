/**
 * The engine's linear map `y = x W (+ b)` over rows, forward and backward, on the arena:
 * `x` rows × in, `W` in × out (the tfjs model's kernel layout), `b` out. The bias is laid down
 * first and the product accumulated onto it; the backward accumulates (+=) dW and db and writes
 * or accumulates dx.
 */
import type { EngineKernels } from './engineKernels.js';

/** Float offsets and sizes of one linear map. */
export interface LinearArgs {
  readonly rows: number;
  readonly inDim: number;
  readonly outDim: number;
  readonly x: number;
  readonly w: number;
  /** Bias offset, or -1 for none. */
  readonly b: number;
  readonly y: number;
}

/** The backward's offsets: dy in, dx out (-1 to skip), dW and db accumulated (dw -1: skip both). */
export interface LinearGradArgs extends Omit<LinearArgs, 'y'> {
  readonly dy: number;
  readonly dx: number;
  /** Add into dx instead of overwriting it. */
  readonly accumulateDx?: boolean;
  readonly dw: number;
  readonly db: number;
  /** Offset of `inDim × outDim` floats of scratch (the transposed W). */
  readonly scratch: number;
}

/** y = x W (+ b). */
export function linearForward(k: EngineKernels, a: LinearArgs): void {
  const { rows, inDim, outDim } = a;
  if (a.b >= 0) k.biasRows({ b: a.b, y: a.y, rows, cols: outDim });
  k.gemm({ m: rows, n: outDim, k: inDim, a: a.x, b: a.w, c: a.y, accumulate: a.b >= 0 });
}

/** dW += xᵀ dy, db += Σ_rows dy, dx (+)= dy Wᵀ. */
export function linearBackward(k: EngineKernels, a: LinearGradArgs): void {
  const { rows, inDim, outDim } = a;
  if (a.dw >= 0) {
    k.gemm({
      layout: 'tn',
      m: inDim,
      n: outDim,
      k: rows,
      a: a.x,
      b: a.dy,
      c: a.dw,
      accumulate: true,
    });
    if (a.db >= 0) k.columnSums({ src: a.dy, rows, cols: outDim, dst: a.db });
  }
  if (a.dx < 0) return;
  k.gemm({
    layout: 'nt',
    m: rows,
    n: inDim,
    k: outDim,
    a: a.dy,
    b: a.w,
    c: a.dx,
    accumulate: a.accumulateDx === true,
    scratch: a.scratch,
  });
}
