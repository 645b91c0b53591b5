/**
 * AdamW over the engine's flat parameter buffer in one pass, as the tfjs trainer's update
 * (internal/adamW.ts: decoupled decay on the slots that take it, bias corrections, the clip
 * factor applied to the gradient first), with float32 moments beside the parameters.
 */
import type { ParamSlot } from './engineTypes.js';

/** One update's hyper-parameters. */
export interface EngineAdamW {
  readonly lr: number;
  readonly beta1: number;
  readonly beta2: number;
  readonly epsilon: number;
  readonly weightDecay: number;
  /** 1-based step, for the bias corrections. */
  readonly step: number;
  /** Factor applied to every gradient first (global-norm clipping). */
  readonly gradScale: number;
}

/** Where the four buffers start: parameters, gradients and the two moments (same layout). */
export interface OptimizerBuffers {
  readonly params: number;
  readonly grads: number;
  readonly m: number;
  readonly v: number;
}

/** `√Σ g²` over every slot's gradient, in float64. */
export function gradientNorm(f: Float32Array, slots: readonly ParamSlot[], grads: number): number {
  let sum = 0;
  for (const s of slots)
    for (let i = grads + s.offset, end = i + s.size; i < end; i++) sum += f[i]! * f[i]!;
  return Math.sqrt(sum);
}

/** One AdamW update of every slot, in place. */
export function adamWStep(
  f: Float32Array,
  slots: readonly ParamSlot[],
  at: OptimizerBuffers,
  hyper: EngineAdamW,
): void {
  const { lr, beta1, beta2, epsilon, step, gradScale } = hyper;
  const c1 = 1 - beta1 ** step;
  const c2 = 1 - beta2 ** step;
  for (const s of slots) {
    const keep = 1 - lr * (s.decay ? hyper.weightDecay : 0);
    for (let i = s.offset, end = s.offset + s.size; i < end; i++) {
      const g = gradScale * f[at.grads + i]!;
      const m = beta1 * f[at.m + i]! + (1 - beta1) * g;
      const v = beta2 * f[at.v + i]! + (1 - beta2) * g * g;
      f[at.m + i] = m;
      f[at.v + i] = v;
      f[at.params + i] = f[at.params + i]! * keep - (lr * (m / c1)) / (Math.sqrt(v / c2) + epsilon);
    }
  }
}
