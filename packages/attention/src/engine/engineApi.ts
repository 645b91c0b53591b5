// The engine's public contract, a leaf of types: the options of createEngine (engine.ts), one
// pass's inputs, and the Engine it returns.
import type { Sampler } from '@boltzmann/ising-core';
import type { ResolvedTransformerConfig } from '../core/transformerConfigTypes.js';
import type { EngineAdamW, OptimizerBuffers } from './adamW.js';
import type { EngineKernels } from './engineKernels.js';
import type { ParamLayout } from './engineTypes.js';
import type { EngineBackendInfo, EngineBackendRequest } from './native/engineBackend.js';
import type { CausalPlacement } from './parallel/causalPlacement.js';

/**
 * Options of `createEngine` (engine.ts).
 *
 * @category Engine
 */
export interface EngineOptions {
  /** The sampler of `boltzmann`/`coupling` (a resolved instance, e.g. a model's `sampler`). */
  readonly sampler?: Sampler | undefined;
  /** The longest wait for an asynchronous sampler's answer (default 30 minutes). */
  readonly samplerTimeoutMs?: number;
  /**
   * Threads of a training pass (default 1): the calling thread and `threads − 1` workers on a
   * shared arena, at most the cores available (`threadInfo().cores` of `@boltzmann/ising-core`;
   * more is ATTENTION_INVALID_ARGUMENT). Throws ATTENTION_THREADS_UNAVAILABLE where they cannot
   * run (see `engineThreadsUnsupported`, parallel/workerPool.ts).
   */
  readonly threads?: number;
  /**
   * The kernels: `'native'` (the Node-API addon at the CPU's vector width; throws
   * ATTENTION_BACKEND_UNAVAILABLE with the reason where it cannot run), `'wasm'`, or `'auto'`
   * (default): native where the addon loads and has every kernel, else wasm. Every thread runs
   * the same backend and ISA.
   */
  readonly backend?: EngineBackendRequest;
}

/**
 * One pass's inputs: `B × T` tokens (checked by the caller) and the dropout step.
 *
 * @category Engine
 */
export interface EnginePass {
  readonly inputs: ArrayLike<number>;
  readonly batchSize: number;
  /** The training step whose dropout masks apply; unset: no dropout. */
  readonly step?: number;
}

/**
 * A model on the engine.
 *
 * @category Engine
 */
export interface Engine {
  readonly config: ResolvedTransformerConfig;
  readonly params: ParamLayout;
  readonly kernels: EngineKernels;
  /** Threads of a training pass. */
  readonly threads: number;
  /** The backend the kernels run on: native (ISA, lanes) or wasm (and why not native). */
  readonly backend: EngineBackendInfo;
  /** One line: `engine: native avx512 (16 lanes), 2 threads` or `engine: wasm f32x4, 1 thread (native addon: …)`. */
  readonly backendLine: string;
  /**
   * Where a pass on more than one thread runs the causal op: `'shards'`, every thread on its own
   * sequences (softmax, sigmoid, and the built-in deterministic samplers, rebuilt on each thread);
   * `'calling-thread'`, once over the gathered batch (any other sampler). See parallel/causalPlacement.ts.
   */
  readonly causalPlacement: CausalPlacement;
  /** Where parameters, gradients and the AdamW moments start (float offsets). */
  readonly buffers: OptimizerBuffers;
  /** The arena as floats (call again after a pass: the arena may have grown). */
  f32(): Float32Array;
  /** Parameter `name`'s values or gradient, a view into the arena (valid until it grows). */
  view(name: string, which?: 'params' | 'grads'): Float32Array;
  /** Logits `B × T × outputSize` of a pass (a view into the arena, valid until the next pass; one thread). */
  logits(pass: EnginePass): Promise<Float32Array>;
  /** Forward and backward: the masked mean cross-entropy; the gradients are overwritten. */
  lossAndGradients(pass: EnginePass, targets: Int32Array, mask: Float32Array): Promise<number>;
  /**
   * `√Σ g²` of the gradients the last `lossAndGradients` left (a threaded pass sums the threads'
   * parts it computed on the way; write into the gradients and use `kernels.gradientNorm` instead).
   */
  gradientNorm(): number;
  /** One AdamW update of every parameter, each thread taking its range of the buffer. */
  adamW(hyper: EngineAdamW): void;
  /** Ends the worker threads (the engine stays usable on one thread). */
  dispose(): Promise<void>;
}
