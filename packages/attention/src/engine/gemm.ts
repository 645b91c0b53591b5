/**
 * The engine's matrix products over one arena: float32, row-major, every operand an offset into
 * the one WebAssembly memory the caller owns (no allocation per call). The three layouts the
 * backward pass needs, C = A·B, C = Aᵀ·B and C = A·Bᵀ, each optionally accumulated into C and
 * batched with strides (the per-head products). The kernels are generated as WAT by
 * kernels/gemm/gemmWat.mjs (a 4 × 8 register-blocked f32x4 micro-tile), in two variants: fused
 * multiply-adds (relaxed SIMD) where the JavaScript engine runs them, else mul + add.
 */
import { nodeBuiltin } from '@boltzmann/ising-core/internal';
import { instantiateEngineModule } from './arena.js';
import type { EngineMemory } from './arena.js';
import type { KernelBackend } from './native/engineBackend.js';
import { type GemmArgs, gemmPlan } from './gemmShape.js';
import { wasmBase64 as fmaSharedBase64 } from './kernels/gemm/gemmFmaSharedWasm.generated.js';
import { wasmBase64 as fmaBase64 } from './kernels/gemm/gemmFmaWasm.generated.js';
import { wasmBase64 as sharedBase64 } from './kernels/gemm/gemmSharedWasm.generated.js';
import { wasmBase64 } from './kernels/gemm/gemmWasm.generated.js';

export type { GemmArgs, GemmLayout } from './gemmShape.js';
export { createArena } from './arena.js';
export type { EngineMemory } from './arena.js';

/** The GEMM module's exports (gemm.wat), or the native kernels of the same names (kernels/gemm/*.c). */
export interface GemmExports {
  gemm(...args: number[]): void;
  gemm_narrow(...args: number[]): void;
  gemm_dot(...args: number[]): void;
  transpose(...args: number[]): void;
}

/**
 * A·Bᵀ narrower than this runs as dot products of rows (`gemm_dot`, k a multiple of 4): the
 * per-head Q·Kᵀ and dO·Vᵀ at T = 12 (12 × 12 × 64) went from 69 % of the f32x4 peak (transpose,
 * then the narrow tile) to 97–98 % (scripts/benchEngineGemm.ts, 5 Dec 2026).
 */
const DOT_BELOW_N = 16;

/** Steps of k per call of an Aᵀ·B product (measured: 64 beats 128–768 on 64 × 256 × 768). */
const K_BLOCK = 64;

/**
 * Checks `args` against an arena of `arenaFloats` floats and runs the product on `kernels` (the
 * WAT module's exports or the native kernels): `gemm_dot` for narrow A·Bᵀ, else a transpose of B
 * for A·Bᵀ, then `gemm` (or `gemm_narrow` below 16 columns), Aᵀ·B in blocks of K_BLOCK steps.
 */
export function callGemm(kernels: GemmExports, args: GemmArgs, arenaFloats: number): void {
  const plan = gemmPlan(args, arenaFloats);
  if (plan.dot !== undefined && args.n < DOT_BELOW_N && args.k % 4 === 0) {
    kernels.gemm_dot(...plan.dot);
    return;
  }
  if (plan.transposeB !== undefined) kernels.transpose(...plan.transposeB);
  const [n, k, accum] = [plan.call[11] ?? 0, plan.call[12] ?? 0, plan.call[14] ?? 0];
  // The wide tile is 16 columns; narrower products (the per-head ones at small T) use the other.
  const kernel = n >= 16 ? kernels.gemm : kernels.gemm_narrow;
  if (plan.layout !== 'tn' || k <= K_BLOCK) {
    kernel(...plan.call);
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
    kernel(...call);
  }
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
  /** Whether the products run on fused multiply-adds (the relaxed-SIMD variant). */
  readonly fma: boolean;
}

/** Options of {@link createGemmKernels}. */
export interface GemmOptions {
  /**
   * `true`: the fused multiply-add variant (throws where relaxed SIMD cannot run); `false`: mul +
   * add; default: fused where the JavaScript engine runs relaxed SIMD, else mul + add.
   */
  readonly fma?: boolean;
  /**
   * The native kernels (gemm.c) instead of the WAT module; `fma` does not apply (the native
   * kernels fuse where the ISA has FMA: AVX2, AVX-512, NEON).
   */
  readonly backend?: KernelBackend;
}

let relaxedFlagSet = false;

/**
 * Node 20 runs relaxed SIMD only behind V8's `--experimental-wasm-relaxed-simd` (Node 22 and
 * browsers since 2023 by default, and Node 24's V8 no longer knows the flag): where the fused
 * module does not validate, the engine sets that flag once, before its first fused module, so the
 * fused GEMM runs on Node 20 too. It enables one WebAssembly feature and nothing else.
 */
function allowRelaxedSimd(): void {
  if (relaxedFlagSet) return;
  relaxedFlagSet = true;
  const fused = Uint8Array.from(atob(fmaBase64), (c) => c.charCodeAt(0));
  const wasm = (globalThis as { WebAssembly?: { validate(bytes: Uint8Array): boolean } })
    .WebAssembly;
  if (wasm?.validate(fused) === true) return;
  nodeBuiltin<typeof import('node:v8')>('node:v8')?.setFlagsFromString(
    '--experimental-wasm-relaxed-simd',
  );
}

/** The fused module where it runs (or where asked for), else the mul + add one. */
function instantiate(memory: EngineMemory, fma: boolean | undefined): [GemmExports, boolean] {
  if (fma !== false) {
    allowRelaxedSimd();
    try {
      return [
        instantiateEngineModule(
          { plain: fmaBase64, shared: fmaSharedBase64 },
          memory,
          'fused GEMM',
        ) as GemmExports,
        true,
      ];
    } catch (error) {
      if (fma === true) throw error;
    }
  }
  return [
    instantiateEngineModule(
      { plain: wasmBase64, shared: sharedBase64 },
      memory,
      'GEMM',
    ) as GemmExports,
    false,
  ];
}

/**
 * Instantiates the GEMM kernels on `memory` (made by `createArena`); synchronous, in Node
 * and in browsers. Throws `ATTENTION_BACKEND_UNAVAILABLE` without WebAssembly SIMD.
 */
export function createGemmKernels(memory: EngineMemory, options: GemmOptions = {}): GemmKernels {
  const { backend } = options;
  const [kernels, fma] =
    backend?.addon === undefined
      ? instantiate(memory, options.fma)
      : [
          instantiateEngineModule(
            { plain: wasmBase64, shared: sharedBase64 },
            memory,
            'GEMM',
            backend,
          ) as GemmExports,
          backend.info.isa !== 'base',
        ];
  return {
    memory,
    fma,
    gemm(args) {
      callGemm(kernels, args, memory.buffer.byteLength >>> 2);
    },
  };
}
