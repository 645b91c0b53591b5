/**
 * The engine's matrix products over one arena: float32, row-major, every operand an offset into
 * the one WebAssembly memory the caller owns (no allocation per call). The three layouts the
 * backward pass needs, C = A·B, C = Aᵀ·B and C = A·Bᵀ, each optionally accumulated into C and
 * batched with strides (the per-head products). The kernels are generated as WAT by
 * scripts/gemmWat.mjs (a 4 × 8 register-blocked f32x4 micro-tile).
 */
import { AttentionError } from '../errors.js';
import { type GemmArgs, gemmPlan } from './gemmShape.js';
import { wasmBase64 } from './kernels/gemmWasm.generated.js';

export type { GemmArgs, GemmLayout } from './gemmShape.js';

/** The few WebAssembly JS API members the engine uses (the workspace's type libraries lack them). */
export interface EngineMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

interface WasmApi {
  Memory: new (descriptor: { initial: number; maximum?: number }) => EngineMemory;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { readonly exports: unknown };
}

interface GemmExports {
  gemm(...args: number[]): void;
  transpose(...args: number[]): void;
}

const PAGE_FLOATS = 16384;
/** Steps of k per call of an Aᵀ·B product (measured: 64 beats 128–768 on 64 × 256 × 768). */
const K_BLOCK = 64;

function wasmApi(): WasmApi {
  const api = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  if (api === undefined)
    throw new AttentionError(
      'ATTENTION_BACKEND_UNAVAILABLE',
      'the engine needs WebAssembly, which this JavaScript engine does not have',
    );
  return api;
}

/**
 * A WebAssembly memory of at least `floats` float32 entries: the engine's arena, which every
 * kernel reads and writes by offset. View it as `new Float32Array(memory.buffer)` (again after
 * a `grow`, which detaches the old buffer).
 */
export function createArena(floats: number): EngineMemory {
  if (!Number.isSafeInteger(floats) || floats < 0)
    throw new AttentionError(
      'ATTENTION_INVALID_ARGUMENT',
      `arena size must be a non-negative integer number of floats, got ${floats}`,
    );
  return new (wasmApi().Memory)({ initial: Math.max(1, Math.ceil(floats / PAGE_FLOATS)) });
}

/** The engine's GEMM kernels bound to one arena. */
export interface GemmKernels {
  /** The arena the kernels work on. */
  readonly memory: EngineMemory;
  /**
   * C (+)= op(A)·op(B) for each of `batch` products; throws `ATTENTION_INVALID_ARGUMENT` for a
   * bad size or offset and `ATTENTION_SHAPE_MISMATCH` for an operand outside the arena.
   */
  gemm(args: GemmArgs): void;
}

/**
 * Instantiates the GEMM kernels on `memory` (made by {@link createArena}); synchronous, in Node
 * and in browsers. Throws `ATTENTION_BACKEND_UNAVAILABLE` without WebAssembly SIMD.
 */
export function createGemmKernels(memory: EngineMemory): GemmKernels {
  const api = wasmApi();
  let kernels: GemmExports;
  try {
    const bytes = Uint8Array.from(atob(wasmBase64), (c) => c.charCodeAt(0));
    kernels = new api.Instance(new api.Module(bytes), { env: { memory } }).exports as GemmExports;
  } catch (cause) {
    throw new AttentionError(
      'ATTENTION_BACKEND_UNAVAILABLE',
      'the engine GEMM kernels need WebAssembly SIMD, which this engine cannot run',
      { cause },
    );
  }
  return {
    memory,
    gemm(args) {
      const plan = gemmPlan(args, memory.buffer.byteLength >>> 2);
      if (plan.transposeB !== undefined) kernels.transpose(...plan.transposeB);
      const [k, accum] = [plan.call[12] ?? 0, plan.call[14] ?? 0];
      if (plan.layout !== 'tn' || k <= K_BLOCK) {
        kernels.gemm(...plan.call);
        return;
      }
      // Aᵀ·B over a long k (the weight gradients, k = rows of the batch): blocks of K_BLOCK steps,
      // so that the strided column panel of A stays in L1 across the tiles of a row band.
      const call = [...plan.call];
      for (let p0 = 0; p0 < k; p0 += K_BLOCK) {
        call[0] = (plan.call[0] ?? 0) + p0 * plan.kStep.a;
        call[4] = (plan.call[4] ?? 0) + p0 * plan.kStep.b;
        call[12] = Math.min(K_BLOCK, k - p0);
        call[14] = p0 === 0 ? accum : 1;
        kernels.gemm(...call);
      }
    },
  };
}
