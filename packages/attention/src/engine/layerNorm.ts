/**
 * The engine's LayerNorm kernels over the same arena as its GEMMs, as the tfjs model's: over the
 * last axis of a row-major rows × cols float32 matrix, biased variance, ε = 1e-5,
 * `y = x̂ γ (+ β)`. The forward saves each row's mean and 1/σ for the backward, which writes dx
 * and accumulates (+=) dγ and dβ. Generated as WAT by kernels/layerNorm/layerNormWat.mjs (f32x4).
 */
import { AttentionError } from '../core/errors.js';
import { engineCount, engineFits, instantiateEngineModule } from './arena.js';
import type { EngineMemory } from './arena.js';
import type { KernelBackend } from './native/engineBackend.js';
import { wasmBase64 as sharedBase64 } from './kernels/layerNorm/layerNormSharedWasm.generated.js';
import { wasmBase64 } from './kernels/layerNorm/layerNormWasm.generated.js';

interface LayerNormExports {
  layer_norm(...args: number[]): void;
  layer_norm_backward(...args: number[]): void;
}

/** Float offsets of a LayerNorm forward: x, y rows × cols; γ, β cols; mean, rstd rows. */
export interface LayerNormArgs {
  readonly rows: number;
  readonly cols: number;
  readonly x: number;
  readonly gamma: number;
  /** β's offset, or undefined for the model's `bias: false` (y = x̂ γ). */
  readonly beta?: number;
  readonly y: number;
  readonly mean: number;
  readonly rstd: number;
}

/** Float offsets of a LayerNorm backward (mean and rstd as the forward wrote them). */
export interface LayerNormBackwardArgs {
  readonly rows: number;
  readonly cols: number;
  readonly x: number;
  readonly gamma: number;
  readonly mean: number;
  readonly rstd: number;
  readonly dy: number;
  /** Written (may equal dy). */
  readonly dx: number;
  /** Accumulated (+=). */
  readonly dGamma: number;
  /** Accumulated (+=); undefined without β. */
  readonly dBeta?: number;
}

/** The engine's LayerNorm kernels bound to one arena. */
export interface LayerNormKernels {
  /** The arena the kernels work on. */
  readonly memory: EngineMemory;
  /** Forward; throws `ATTENTION_INVALID_ARGUMENT` / `ATTENTION_SHAPE_MISMATCH`. */
  layerNorm(args: LayerNormArgs): void;
  /** Backward of {@link LayerNormKernels.layerNorm}. */
  layerNormBackward(args: LayerNormBackwardArgs): void;
}

function rowsCols(kernel: string, a: { rows: number; cols: number }) {
  const rows = engineCount(kernel, 'rows', a.rows);
  const cols = engineCount(kernel, 'cols', a.cols);
  if (rows > 0 && cols === 0)
    throw new AttentionError('ATTENTION_INVALID_ARGUMENT', `${kernel}: cols must be >= 1`);
  return { rows, cols };
}

/** Instantiates the LayerNorm kernels on `memory` (made by `createArena`); synchronous. */
export function createLayerNormKernels(
  memory: EngineMemory,
  backend?: KernelBackend,
): LayerNormKernels {
  const k = instantiateEngineModule(
    { plain: wasmBase64, shared: sharedBase64 },
    memory,
    'LayerNorm',
    backend,
  ) as LayerNormExports;
  const check = (kernel: string, sizes: Record<string, readonly [number | undefined, number]>) => {
    const arena = memory.buffer.byteLength >>> 2;
    for (const [name, [at, size]] of Object.entries(sizes))
      if (at !== undefined) engineFits(kernel, name, at, size, arena);
  };
  return {
    memory,
    layerNorm(a) {
      const { rows, cols } = rowsCols('layerNorm', a);
      const [n, c] = [rows * cols, cols];
      const [x, g, b, y] = [
        [a.x, n],
        [a.gamma, c],
        [a.beta, c],
        [a.y, n],
      ] as const;
      check('layerNorm', { x, gamma: g, beta: b, y, mean: [a.mean, rows], rstd: [a.rstd, rows] });
      const hasBeta = a.beta === undefined ? 0 : 1;
      const args = [a.x, a.gamma, a.beta ?? 0, hasBeta, a.y, a.mean, a.rstd];
      k.layer_norm(...args.map((v, i) => (i === 3 ? v : 4 * v)), rows, cols);
    },
    layerNormBackward(a) {
      const { rows, cols } = rowsCols('layerNormBackward', a);
      const [n, c] = [rows * cols, cols];
      check('layerNormBackward', {
        x: [a.x, n],
        gamma: [a.gamma, c],
        mean: [a.mean, rows],
        rstd: [a.rstd, rows],
        dy: [a.dy, n],
        dx: [a.dx, n],
        dGamma: [a.dGamma, c],
        dBeta: [a.dBeta, c],
      });
      const offsets = [a.x, a.gamma, a.mean, a.rstd, a.dy, a.dx, a.dGamma, a.dBeta ?? 0];
      k.layer_norm_backward(
        ...offsets.map((v) => 4 * v),
        a.dBeta === undefined ? 0 : 1,
        rows,
        cols,
      );
    },
  };
}
