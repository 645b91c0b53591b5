/**
 * Every kernel of the engine bound to one arena, and a float view of it. The view is made again
 * whenever the memory's buffer changed (a `grow` detaches the old one).
 */
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
import type { SoftmaxKernels } from './softmax.js';

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
}

/** Instantiates every kernel on `memory`. */
export function createEngineKernels(memory: EngineMemory): EngineKernels {
  let view = new Float32Array(memory.buffer);
  return {
    ...createGemmKernels(memory),
    ...createLayerNormKernels(memory),
    ...createElementwiseKernels(memory),
    ...createSoftmaxKernels(memory),
    ...createCrossEntropyKernels(memory),
    ...createAdamWKernels(memory),
    memory,
    f32() {
      if (view.buffer !== memory.buffer) view = new Float32Array(memory.buffer);
      return view;
    },
  };
}
