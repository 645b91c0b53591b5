/**
 * AdamW over the engine's flat parameter buffer (kernels/adamW/adamWWat.mjs), as the tfjs trainer's
 * update (model/adamW.ts: decoupled decay on the slots that take it, bias corrections, the
 * clip factor applied to the gradient first), with float32 moments beside the parameters; and
 * the global gradient norm, its squares summed in float64.
 */
import { engineFits, instantiateEngineModule } from './arena.js';
import type { EngineMemory } from './arena.js';
import type { KernelBackend } from './native/engineBackend.js';
import type { AdamWHyper } from '../model/adamW.js';
import type { ParamRun } from './engineTypes.js';
import { wasmBase64 as sharedBase64 } from './kernels/adamW/adamWSharedWasm.generated.js';
import { wasmBase64 } from './kernels/adamW/adamWWasm.generated.js';

interface AdamWExports {
  adamw(...args: number[]): void;
  sum_squares(g: number, n: number): number;
  add_into(dst: number, src: number, n: number): void;
}

/** One update's hyper-parameters: the tfjs trainer's, with the decay applied per slot. */
export type EngineAdamW = Required<AdamWHyper>;

/** Where the four buffers start: parameters, gradients and the two moments (same layout). */
export interface OptimizerBuffers {
  readonly params: number;
  readonly grads: number;
  readonly m: number;
  readonly v: number;
}

/** The optimizer kernels bound to one arena. */
export interface AdamWKernels {
  /** `Σ g²` over the gradients of `runs` (slots or parts of them), in float64. */
  sumOfSquares(runs: readonly ParamRun[], grads: number): number;
  /** `√Σ g²` over every slot's gradient. */
  gradientNorm(slots: readonly ParamRun[], grads: number): number;
  /** One AdamW update of `runs` (every slot, or one thread's part of them), in place. */
  adamW(runs: readonly ParamRun[], at: OptimizerBuffers, hyper: EngineAdamW): void;
  /** dst += src over `runs` of two buffers with the parameters' layout (from `dst` and `src`). */
  addInto(runs: readonly ParamRun[], dst: number, src: number): void;
}

/** A run's float count rounded up to its padded (aligned) extent. */
const padded = (s: ParamRun): number => (s.size + 3) & ~3;

/** Instantiates the optimizer kernels on `memory`; the slots must come from `planParams`. */
export function createAdamWKernels(memory: EngineMemory, backend?: KernelBackend): AdamWKernels {
  const k = instantiateEngineModule(
    { plain: wasmBase64, shared: sharedBase64 },
    memory,
    'AdamW',
    backend,
  ) as AdamWExports;
  const sumOfSquares = (runs: readonly ParamRun[], grads: number): number => {
    let sum = 0;
    for (const s of runs) sum += k.sum_squares(4 * (grads + s.offset), padded(s));
    return sum;
  };
  return {
    sumOfSquares,
    gradientNorm: (slots, grads) => Math.sqrt(sumOfSquares(slots, grads)),
    addInto(runs, dst, src) {
      const arena = memory.buffer.byteLength >>> 2;
      for (const r of runs) {
        const n = padded(r);
        engineFits('addInto', 'dst', dst + r.offset, n, arena);
        engineFits('addInto', 'src', src + r.offset, n, arena);
        k.add_into(4 * (dst + r.offset), 4 * (src + r.offset), n);
      }
    },
    adamW(runs, at, hyper) {
      const { lr, beta1, beta2, epsilon, step, gradScale } = hyper;
      const [c1, c2] = [1 - beta1 ** step, 1 - beta2 ** step];
      for (const s of runs) {
        const keep = 1 - lr * (s.decay ? hyper.weightDecay : 0);
        const byte = (base: number) => 4 * (base + s.offset);
        k.adamw(
          byte(at.params),
          byte(at.grads),
          byte(at.m),
          byte(at.v),
          padded(s),
          lr,
          beta1,
          beta2,
          epsilon,
          keep,
          c1,
          c2,
          gradScale,
        );
      }
    },
  };
}
