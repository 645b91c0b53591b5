import { echo } from './echo.js';
import { IsingError } from './errors.js';
import { wasmBase64 } from './internal/kernels/wasm/gemm/gemmWasm.generated.js';
import { instantiateWasm } from './internal/kernels/wasmInstance.js';
import type { WasmMemory } from './internal/kernels/wasmInstance.js';

/**
 * Shape of {@link batchedMatMul}: `batch` products of `m×k` by `k×n`, either operand stored transposed.
 *
 * @category Exact
 */
export interface BatchedMatMulShape {
  readonly batch: number;
  readonly m: number;
  readonly k: number;
  readonly n: number;
  /** `a` holds each `Aᵀ` (`k×m`) instead of `A`. */
  readonly transposeA?: boolean;
  /** `b` holds each `Bᵀ` (`n×k`) instead of `B`. */
  readonly transposeB?: boolean;
}

interface GemmExports {
  readonly memory: WasmMemory;
  gemm(a: number, b: number, c: number, batch: number, m: number, k: number, n: number): void;
}

let instance: GemmExports | null | undefined;

/** Copies `batch` matrices of `rows×cols` from `src` to `dst`, transposing each when `transpose` (src is then `cols×rows`). */
function copyIn(
  dst: Float32Array,
  src: Float32Array,
  batch: number,
  rows: number,
  cols: number,
  transpose: boolean,
): void {
  if (!transpose) {
    dst.set(src);
    return;
  }
  const size = rows * cols;
  for (let p = 0; p < batch; p++) {
    const base = p * size;
    for (let c = 0; c < cols; c++) {
      const from = base + c * rows;
      for (let r = 0; r < rows; r++) dst[base + r * cols + c] = src[from + r]!;
    }
  }
}

function plainGemm(
  a: Float32Array,
  b: Float32Array,
  c: Float32Array,
  batch: number,
  m: number,
  k: number,
  n: number,
): void {
  for (let p = 0; p < batch; p++) {
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < n; j++) {
        let s = 0;
        for (let q = 0; q < k; q++)
          s = Math.fround(s + Math.fround(a[(p * m + i) * k + q]! * b[(p * k + q) * n + j]!));
        c[(p * m + i) * n + j] = s;
      }
    }
  }
}

function assertShape(shape: BatchedMatMulShape, a: Float32Array, b: Float32Array): void {
  for (const key of ['batch', 'm', 'k', 'n'] as const) {
    const v = shape[key];
    if (!Number.isInteger(v) || v < 1)
      throw new IsingError(
        'ISING_INVALID_ARGUMENT',
        `batchedMatMul: ${key} must be a positive integer, got ${echo(v)}`,
      );
  }
  const { batch, m, k, n } = shape;
  if (
    !(a instanceof Float32Array) ||
    !(b instanceof Float32Array) ||
    a.length !== batch * m * k ||
    b.length !== batch * k * n
  ) {
    throw new IsingError(
      'ISING_SHAPE_MISMATCH',
      `batchedMatMul: ${batch} products of ${m}×${k} by ${k}×${n} need Float32Arrays of ${batch * m * k} and ${batch * k * n} entries`,
    );
  }
}

/**
 * `C[p] = A[p] B[p]` for `p < batch`, float32, row-major, in WebAssembly SIMD (a plain loop where
 * WebAssembly is missing): the small per-head products of attention, which tfjs-backend-wasm's
 * batched matmul runs through a scalar loop (about 1.7 GFLOP/s at 48 × 64×32×64 against 20–30
 * for its single large products; see docs/benchmarks/attention.md). Each entry sums its `k` products in
 * order, in float32.
 *
 * @summary `C[p] = A[p] B[p]` for `p < batch`, float32, row-major, in WebAssembly SIMD (a plain loop where WebAssembly is missing).
 * @returns `batch × m × n` row-major.
 * @throws {IsingError} ISING_INVALID_ARGUMENT for a non-positive dimension, ISING_SHAPE_MISMATCH for operands of the wrong size.
 * @example
 * import { batchedMatMul } from '@boltzmann/ising-core';
 *
 * const [B, H, T, dHead] = [2, 2, 4, 8];
 * const q = Float32Array.from({ length: B * H * T * dHead }, (_, i) => Math.sin(i));
 * const k = Float32Array.from({ length: B * H * T * dHead }, (_, i) => Math.cos(i));
 * const scores = batchedMatMul(q, k, { batch: B * H, m: T, k: dHead, n: T, transposeB: true });
 * console.log(scores.length); // B · H · T · T
 * @category Exact
 */
export function batchedMatMul(
  a: Float32Array,
  b: Float32Array,
  shape: BatchedMatMulShape,
): Float32Array {
  assertShape(shape, a, b);
  const { batch, m, k, n } = shape;
  const sizeA = batch * m * k;
  const sizeB = batch * k * n;
  const sizeC = batch * m * n;
  instance ??= instantiateWasm<GemmExports>(wasmBase64);
  if (instance === null) {
    const left = new Float32Array(sizeA);
    const right = new Float32Array(sizeB);
    copyIn(left, a, batch, m, k, shape.transposeA === true);
    copyIn(right, b, batch, k, n, shape.transposeB === true);
    const out = new Float32Array(sizeC);
    plainGemm(left, right, out, batch, m, k, n);
    return out;
  }
  const bytes = 4 * (sizeA + sizeB + sizeC);
  const have = instance.memory.buffer.byteLength;
  if (bytes > have) instance.memory.grow(Math.ceil((bytes - have) / 65536));
  const buffer = instance.memory.buffer;
  copyIn(new Float32Array(buffer, 0, sizeA), a, batch, m, k, shape.transposeA === true);
  copyIn(new Float32Array(buffer, 4 * sizeA, sizeB), b, batch, k, n, shape.transposeB === true);
  instance.gemm(0, 4 * sizeA, 4 * (sizeA + sizeB), batch, m, k, n);
  return new Float32Array(buffer, 4 * (sizeA + sizeB), sizeC).slice();
}
