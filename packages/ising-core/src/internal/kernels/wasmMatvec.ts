/**
 * The dense products of the fixed-point samplers (`J x`, `(J ∘ J) y`) in WebAssembly SIMD
 * (wasm/matvec/matvec.wat), with the JavaScript kernels of denseMatvec.ts as the fallback. Measured at
 * n = 256: 6.7 G multiply-adds/s for `J x` against 1.5 in JavaScript.
 *
 * The wasm code reads only its own memory, so a {@link DenseProducts} copies its coupling matrix
 * there when it is first used (and again if another matrix was loaded in between: one module
 * instance per thread, shared by every batch), and copies each vector in and out (`O(n)` against
 * the `O(n²)` product). Results differ from the JavaScript loops by rounding only (lanes sum the
 * even and the odd columns separately).
 */
import { matvec, matvecAndSquares } from './denseMatvec.js';
import { wasmBase64 } from './wasm/matvec/matvecWasm.generated.js';
import { instantiateWasm } from './wasmInstance.js';
import type { WasmMemory } from './wasmInstance.js';

interface MatvecExports {
  readonly memory: WasmMemory;
  matvec(J: number, stride: number, n: number, x: number, out: number): void;
  matvecAndSquares(
    J: number,
    stride: number,
    n: number,
    x: number,
    y: number,
    jx: number,
    wy: number,
  ): void;
}

let instance: MatvecExports | null | undefined;
let enabled = true;
/** The products object whose matrix the wasm memory currently holds. */
let owner: DenseProducts | undefined;

function wasm(): MatvecExports | null {
  if (!enabled) return null;
  if (instance === undefined) {
    instance = instantiateWasm<MatvecExports>(wasmBase64); // null: the JavaScript kernels do the work
  }
  return instance;
}

/**
 * Turns the wasm products off (`false`) or back on for this thread (to compare both in one run).
 *
 * @returns whether the wasm products are now in use.
 */
export function useWasmMatvec(on: boolean): boolean {
  enabled = on;
  owner = undefined;
  return wasm() !== null;
}

/** Products with one `stride × stride` row-major matrix, for vectors of up to `capacity` entries. */
export class DenseProducts {
  private readonly sym: Float64Array;
  private readonly stride: number;
  private readonly capacity: number;
  private views:
    | { x: Float64Array; y: Float64Array; o1: Float64Array; o2: Float64Array }
    | undefined;

  constructor(sym: Float64Array, stride: number, capacity: number) {
    this.sym = sym;
    this.stride = stride;
    this.capacity = capacity;
  }

  /** The module with this matrix loaded, or null (JavaScript fallback). */
  private ready(): MatvecExports | null {
    const mod = wasm();
    if (mod === null) return null;
    if (owner === this && this.views !== undefined && this.views.x.buffer === mod.memory.buffer)
      return mod;
    // Layout: matrix (+1 slack double for the odd-n column pair), then x, y (+1 zero pad each), two outputs.
    const matrix = this.stride * this.stride + 1;
    const vector = this.capacity + 2;
    const bytes = 8 * (matrix + 4 * vector);
    const have = mod.memory.buffer.byteLength;
    if (bytes > have) mod.memory.grow(Math.ceil((bytes - have) / 65536));
    const buffer = mod.memory.buffer;
    const m = new Float64Array(buffer, 0, matrix);
    m.set(this.sym);
    m[matrix - 1] = 0;
    const at = (i: number): Float64Array =>
      new Float64Array(buffer, 8 * (matrix + i * vector), vector);
    this.views = { x: at(0), y: at(1), o1: at(2), o2: at(3) };
    owner = this;
    return mod;
  }

  /** `out[j] = Σ_k J[j, k] x[k]` for `j < n`. */
  matvec(n: number, x: Float64Array, out: Float64Array): void {
    const mod = this.ready();
    if (mod === null) {
      matvec(this.sym, this.stride, n, x, out);
      return;
    }
    const v = this.views!;
    v.x.set(x.subarray(0, n));
    v.x[n] = 0;
    mod.matvec(0, this.stride, n, v.x.byteOffset, v.o1.byteOffset);
    out.set(v.o1.subarray(0, n));
  }

  /** `jx = J x` and `wy = (J ∘ J) y` over the first `n` entries, in one pass over `J`. */
  matvecAndSquares(
    n: number,
    x: Float64Array,
    y: Float64Array,
    jx: Float64Array,
    wy: Float64Array,
  ): void {
    const mod = this.ready();
    if (mod === null) {
      matvecAndSquares(this.sym, this.stride, n, x, y, jx, wy);
      return;
    }
    const v = this.views!;
    v.x.set(x.subarray(0, n));
    v.x[n] = 0;
    v.y.set(y.subarray(0, n));
    v.y[n] = 0;
    mod.matvecAndSquares(
      0,
      this.stride,
      n,
      v.x.byteOffset,
      v.y.byteOffset,
      v.o1.byteOffset,
      v.o2.byteOffset,
    );
    jx.set(v.o1.subarray(0, n));
    wy.set(v.o2.subarray(0, n));
  }
}
