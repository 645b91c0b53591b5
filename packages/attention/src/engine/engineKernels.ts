/**
 * Every kernel of the engine bound to one arena, and a float view of it. The view is made again
 * whenever the memory's buffer changed (a `grow` detaches the old one). The kernels are the
 * native addon's or the WebAssembly modules' (native/engineBackend.ts): `'auto'` binds native
 * where the addon loads and has every export of every module, else WebAssembly, and says why.
 */
import { isAttentionError } from '../core/errors.js';
import { createArena } from './arena.js';
import type { EngineMemory } from './arena.js';
import { createAdamWKernels } from './adamW.js';
import type { AdamWKernels } from './adamW.js';
import { createCrossEntropyKernels } from './crossEntropy.js';
import type { CrossEntropyKernels } from './crossEntropy.js';
import { createElementwiseKernels } from './elementwise.js';
import type { ElementwiseKernels } from './elementwise.js';
import { createGemmKernels } from './gemm.js';
import type { GemmKernels } from './gemm.js';
import { createLayerNormKernels } from './layerNorm.js';
import type { LayerNormKernels } from './layerNorm.js';
import { createSoftmaxKernels } from './softmax.js';
import { createTransferKernels } from './transfer.js';
import type { TransferKernels } from './transfer.js';
import type { SoftmaxKernels } from './softmax.js';
import {
  type EngineBackendInfo,
  type EngineBackendRequest,
  type KernelBackend,
  resolveEngineBackend,
  wasmBackend,
} from './native/engineBackend.js';

/** Every kernel (GEMM, LayerNorm, GELU, softmax, loss, AdamW) on one arena, with its float view. */
export interface EngineKernels
  extends GemmKernels,
    LayerNormKernels,
    ElementwiseKernels,
    SoftmaxKernels,
    CrossEntropyKernels,
    AdamWKernels {
  /** The arena as floats (the same array until the memory grows). */
  f32(): Float32Array;
  /** The backend the kernels run on: native (its ISA and lanes) or wasm (and why not native). */
  readonly backend: EngineBackendInfo;
  /** The transfer-matrix kernels (Boltzmann attention's causal op on the arena). */
  readonly transfer: TransferKernels;
}

/** Options of {@link createEngineKernels}. */
export interface EngineKernelOptions {
  /** Default `'auto'`. */
  readonly backend?: EngineBackendRequest;
  /** The native ISA (default: the best this CPU runs); a worker takes its engine's. */
  readonly isa?: string;
}

function bindAll(memory: EngineMemory, backend: KernelBackend) {
  return {
    ...createGemmKernels(memory, { backend }),
    ...createLayerNormKernels(memory, backend),
    ...createElementwiseKernels(memory, backend),
    ...createSoftmaxKernels(memory, backend),
    ...createCrossEntropyKernels(memory, backend),
    ...createAdamWKernels(memory, backend),
    transfer: createTransferKernels(memory, backend),
  };
}

const PREFIX = 'the native engine backend cannot run: ';

/**
 * Instantiates every kernel on `memory`, on the backend `options` ask for; `'native'` throws
 * `ATTENTION_BACKEND_UNAVAILABLE` with the reason where it cannot run.
 */
export function createEngineKernels(
  memory: EngineMemory,
  options: EngineKernelOptions = {},
): EngineKernels {
  const request = options.backend ?? 'auto';
  let backend = resolveEngineBackend(request, options.isa);
  let kernels: ReturnType<typeof bindAll>;
  try {
    kernels = bindAll(memory, backend);
  } catch (error) {
    // 'auto' with an addon that lacks a kernel (the native kernels are still being written).
    if (request !== 'auto' || backend.addon === undefined) throw error;
    if (!isAttentionError(error, 'ATTENTION_BACKEND_UNAVAILABLE')) throw error;
    backend = wasmBackend(error.message.replace(PREFIX, ''));
    kernels = bindAll(memory, backend);
  }
  let view = new Float32Array(memory.buffer);
  return {
    ...kernels,
    memory,
    backend: backend.info,
    f32() {
      if (view.buffer !== memory.buffer) view = new Float32Array(memory.buffer);
      return view;
    },
  };
}

/**
 * The backend an engine asking for `request` runs on here (picked as `createEngine` picks it: the
 * native addon where it loads and has every kernel, on a small arena of its own): to say which
 * backend runs before any engine exists.
 *
 * @summary The backend an engine would run on here (native or WebAssembly), and why.
 * @example
 * import { describeEngineBackend, engineBackendInfo } from '@boltzmann/attention';
 *
 * console.log(describeEngineBackend(engineBackendInfo('auto'), 2)); // e.g. engine: native avx512 (16 lanes), 2 threads
 * @category Engine
 */
export function engineBackendInfo(request: EngineBackendRequest = 'auto'): EngineBackendInfo {
  return createEngineKernels(createArena(1024), { backend: request }).backend;
}
