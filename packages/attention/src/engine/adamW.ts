/**
 * AdamW over the engine's flat parameter buffer (scripts/adamWWat.mjs), as the tfjs trainer's
 * update (internal/adamW.ts: decoupled decay on the slots that take it, bias corrections, the
 * clip factor applied to the gradient first), with float32 moments beside the parameters; and
 * the global gradient norm, its squares summed in float64.
 */
import { AttentionError } from '../errors.js';
import { engineFits, instantiateEngineModule } from './arena.js';
import type { EngineMemory } from './arena.js';
import type { AdamWHyper } from '../internal/adamW.js';
import type { ParamSlot } from './engineTypes.js';
import { wasmBase64 as sharedBase64 } from './kernels/adamWSharedWasm.generated.js';
import { wasmBase64 } from './kernels/adamWWasm.generated.js';

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
export interface OptimizerKernels {
  /** `√Σ g²` over every slot's gradient. */
  gradientNorm(slots: readonly ParamSlot[], grads: number): number;
  /** One AdamW update of every slot, in place. */
  adamW(slots: readonly ParamSlot[], at: OptimizerBuffers, hyper: EngineAdamW): void;
  /** dst += src over `floats` floats (a multiple of 4, e.g. a whole padded gradient buffer). */
  addInto(dst: number, src: number, floats: number): void;
}

/** A slot's float count rounded up to its padded (aligned) extent. */
const padded = (s: ParamSlot): number => (s.size + 3) & ~3;

/** Instantiates the optimizer kernels on `memory`; the slots must come from `planParams`. */
export function createOptimizerKernels(memory: EngineMemory): OptimizerKernels {
  const k = instantiateEngineModule(
    { plain: wasmBase64, shared: sharedBase64 },
    memory,
    'AdamW',
  ) as AdamWExports;
  return {
    gradientNorm(slots, grads) {
      let sum = 0;
      for (const s of slots) sum += k.sum_squares(4 * (grads + s.offset), padded(s));
      return Math.sqrt(sum);
    },
    addInto(dst, src, floats) {
      if (floats % 4 !== 0)
        throw new AttentionError(
          'ATTENTION_INVALID_ARGUMENT',
          `addInto: ${floats} floats is not a multiple of 4`,
        );
      const arena = memory.buffer.byteLength >>> 2;
      engineFits('addInto', 'dst', dst, floats, arena);
      engineFits('addInto', 'src', src, floats, arena);
      k.add_into(4 * dst, 4 * src, floats);
    },
    adamW(slots, at, hyper) {
      const { lr, beta1, beta2, epsilon, step, gradScale } = hyper;
      const [c1, c2] = [1 - beta1 ** step, 1 - beta2 ** step];
      for (const s of slots) {
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
