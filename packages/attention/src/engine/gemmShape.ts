/**
 * The checks and the kernel call of one engine GEMM: sizes and offsets in floats, turned into the
 * byte strides the WAT kernel reads (see kernels/gemm/gemmWat.mjs).
 */
import { AttentionError } from '../core/errors.js';

/** `nn`: C = A·B; `tn`: C = Aᵀ·B (A stored k × m); `nt`: C = A·Bᵀ (B stored n × k). */
export type GemmLayout = 'nn' | 'tn' | 'nt';

/** One (batched) product C (+)= op(A)·op(B), op(A) m × k, op(B) k × n, C m × n; offsets in floats. */
export interface GemmArgs {
  /** Which operand is stored transposed; default `nn`. */
  readonly layout?: GemmLayout;
  readonly m: number;
  readonly n: number;
  readonly k: number;
  /** Float offsets of A, B and C in the arena. */
  readonly a: number;
  readonly b: number;
  readonly c: number;
  /** Row strides of A, B and C as stored, in floats; default their stored column counts. */
  readonly lda?: number;
  readonly ldb?: number;
  readonly ldc?: number;
  /** Add the product to C instead of overwriting it (gradient accumulation). */
  readonly accumulate?: boolean;
  /** Number of products; default 1. */
  readonly batch?: number;
  /** Floats between consecutive products' A, B and C; default each stored matrix's size. */
  readonly strideA?: number;
  readonly strideB?: number;
  readonly strideC?: number;
  /** Float offset of batch·k·n floats of scratch, required by `nt` (each Bᵀ is written there). */
  readonly scratch?: number;
}

/** What the kernel is called with: its argument lists in bytes (see kernels/gemm/gemmWat.mjs). */
export interface GemmPlan {
  /** `gemm`'s arguments: a, ars, acs, sa, b, brs, sb, c, crs, sc, m, n, k, batch, accum. */
  readonly call: readonly number[];
  /** `transpose`'s arguments (Bᵀ of every product into the scratch), for `nt` only. */
  readonly transposeB?: readonly number[];
  /**
   * `gemm_dot`'s arguments (a, ars, sa, b, brs, sb, c, crs, sc, m, n, k, batch, accum), for `nt`
   * only: the product as dot products of A's and B's rows, with no transpose.
   */
  readonly dot?: readonly number[];
  /** Bytes A and B advance per step of the inner dimension (for blocking k). */
  readonly kStep: { readonly a: number; readonly b: number };
  readonly layout: GemmLayout;
}

function count(name: string, value: number | undefined, fallback: number, min = 0): number {
  const v = value ?? fallback;
  if (!Number.isSafeInteger(v) || v < min)
    throw new AttentionError(
      'ATTENTION_INVALID_ARGUMENT',
      `gemm: ${name} must be an integer >= ${min}, got ${String(value)}`,
    );
  return v;
}

/** Throws unless rows × cols (row stride ld) at offset, `batch` times `stride` apart, fits. */
function fits(name: string, at: number, shape: number[], arena: number): void {
  const [rows, cols, ld, batch, stride] = shape as [number, number, number, number, number];
  if (rows === 0 || cols === 0 || batch === 0) return;
  const end = at + (batch - 1) * stride + (rows - 1) * ld + cols;
  if (end > arena)
    throw new AttentionError(
      'ATTENTION_SHAPE_MISMATCH',
      `gemm: ${name} (${batch} × ${rows} × ${cols}, row stride ${ld}, at ${at}) ends at float ${end}, past the arena's ${arena}`,
    );
}

/** Validates `args` against an arena of `arena` floats and plans the kernel call. */
export function gemmPlan(args: GemmArgs, arena: number): GemmPlan {
  const layout = args.layout ?? 'nn';
  if (layout !== 'nn' && layout !== 'tn' && layout !== 'nt')
    throw new AttentionError(
      'ATTENTION_INVALID_ARGUMENT',
      `gemm: layout must be nn, tn or nt, got ${String(layout)}`,
    );
  const m = count('m', args.m, Number.NaN);
  const n = count('n', args.n, Number.NaN);
  const k = count('k', args.k, Number.NaN);
  const batch = count('batch', args.batch, 1);
  // Stored shapes: A m × k (or k × m for tn), B k × n (or n × k for nt), C m × n.
  const [aRows, aCols] = layout === 'tn' ? [k, m] : [m, k];
  const [bRows, bCols] = layout === 'nt' ? [n, k] : [k, n];
  const lda = count('lda', args.lda, aCols, aCols);
  const ldb = count('ldb', args.ldb, bCols, bCols);
  const ldc = count('ldc', args.ldc, n, n);
  const sa = count('strideA', args.strideA, aRows * lda);
  const sb = count('strideB', args.strideB, bRows * ldb);
  const sc = count('strideC', args.strideC, m * ldc);
  const a = count('a', args.a, Number.NaN);
  const b = count('b', args.b, Number.NaN);
  const c = count('c', args.c, Number.NaN);
  fits('A', a, [aRows, aCols, lda, batch, sa], arena);
  fits('B', b, [bRows, bCols, ldb, batch, sb], arena);
  fits('C', c, [m, n, ldc, batch, sc], arena);
  const [ars, acs] = layout === 'tn' ? [4, 4 * lda] : [4 * lda, 4];
  const accum = args.accumulate === true ? 1 : 0;
  const sizes = [m, n, k, batch, accum];
  if (layout !== 'nt' || k === 0 || n === 0 || m === 0 || batch === 0)
    return {
      call: [4 * a, ars, acs, 4 * sa, 4 * b, 4 * ldb, 4 * sb, 4 * c, 4 * ldc, 4 * sc, ...sizes],
      kStep: { a: acs, b: 4 * ldb },
      layout,
    };
  const scratch = count('scratch (required by layout nt)', args.scratch, Number.NaN);
  fits('scratch', scratch, [batch, k * n, k * n, 1, 0], arena);
  return {
    call: [
      4 * a,
      ars,
      acs,
      4 * sa,
      4 * scratch,
      4 * n,
      4 * k * n,
      4 * c,
      4 * ldc,
      4 * sc,
      ...sizes,
    ],
    transposeB: [4 * b, 4 * ldb, 4 * sb, 4 * scratch, n, k, batch],
    dot: [4 * a, 4 * lda, 4 * sa, 4 * b, 4 * ldb, 4 * sb, 4 * c, 4 * ldc, 4 * sc, ...sizes],
    kStep: { a: acs, b: 4 * n },
    layout,
  };
}
