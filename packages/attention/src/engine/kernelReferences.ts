/**
 * Slow, obviously correct float64 references of the engine's row kernels, which the kernel tests
 * compare against: the causal softmax and its backward, the masked cross-entropy with its
 * gradient, and AdamW with the gradient norm (model/adamW.ts's own, on the flat buffer).
 */
import { adamWUpdate, globalNorm } from '../model/adamW.js';
import type { EngineAdamW, OptimizerBuffers } from './adamW.js';
import type { ParamSlot } from './engineTypes.js';

/** w = softmax_j(β h_ij) over j ≤ i (zero above the diagonal), for `rows` T × T blocks. */
export function referenceSoftmax(
  f: Float32Array,
  at: { h: number; w: number },
  blocks: number,
  t: number,
  beta: number,
) {
  for (let r = 0; r < blocks * t; r++) {
    const i = r % t;
    const h = at.h + r * t;
    const w = at.w + r * t;
    let max = -Infinity;
    for (let j = 0; j <= i; j++) max = Math.max(max, beta * f[h + j]!);
    let sum = 0;
    for (let j = 0; j <= i; j++) {
      const e = Math.exp(beta * f[h + j]! - max);
      f[w + j] = e;
      sum += e;
    }
    const inv = 1 / sum;
    for (let j = 0; j <= i; j++) f[w + j] = f[w + j]! * inv;
    f.fill(0, w + i + 1, w + t);
  }
}

/** gh_ij = β w_ij (gw_ij − Σ_k w_ik gw_ik) for j ≤ i, 0 above. */
export function referenceSoftmaxBackward(
  f: Float32Array,
  at: { w: number; gw: number; gh: number },
  blocks: number,
  t: number,
  beta: number,
) {
  for (let r = 0; r < blocks * t; r++) {
    const i = r % t;
    const [w, gw, gh] = [at.w + r * t, at.gw + r * t, at.gh + r * t];
    let dot = 0;
    for (let j = 0; j <= i; j++) dot += f[w + j]! * f[gw + j]!;
    for (let j = 0; j <= i; j++) f[gh + j] = beta * f[w + j]! * (f[gw + j]! - dot);
    f.fill(0, gh + i + 1, gh + t);
  }
}

/** Loss of `rows` logit rows of width `classes` at `logits`; the rows become their gradient. */
export function referenceCrossEntropy(
  f: Float32Array,
  logits: number,
  rows: number,
  classes: number,
  targets: Int32Array,
  mask: Float32Array,
): number {
  let total = 0;
  for (let n = 0; n < rows; n++) total += mask[n]!;
  let loss = 0;
  for (let n = 0; n < rows; n++) {
    const z = logits + n * classes;
    let max = -Infinity;
    for (let c = 0; c < classes; c++) max = Math.max(max, f[z + c]!);
    let sum = 0;
    for (let c = 0; c < classes; c++) sum += Math.exp(f[z + c]! - max);
    const lse = max + Math.log(sum);
    const weight = mask[n]! / total;
    loss += mask[n]! * (lse - f[z + targets[n]!]!);
    for (let c = 0; c < classes; c++) f[z + c] = Math.exp(f[z + c]! - lse) * weight;
    f[z + targets[n]!] = f[z + targets[n]!]! - weight;
  }
  return loss / total;
}

/** The floats of slot `s` in the flat buffer that starts at `base`. */
const run = (f: Float32Array, base: number, s: ParamSlot) =>
  f.subarray(base + s.offset, base + s.offset + s.size);

/** `√Σ g²` over every slot's gradient: the tfjs trainer's `globalNorm`. */
export function referenceGradientNorm(
  f: Float32Array,
  slots: readonly ParamSlot[],
  grads: number,
): number {
  return globalNorm(slots.map((s) => run(f, grads, s)));
}

/**
 * One AdamW update of every slot, in place: the tfjs trainer's own update (`adamWUpdate`, in
 * float64) on each slot, its moments read from and written back to the float32 buffers.
 */
export function referenceAdamW(
  f: Float32Array,
  slots: readonly ParamSlot[],
  at: OptimizerBuffers,
  hyper: EngineAdamW,
): void {
  for (const s of slots) {
    const m = Float64Array.from(run(f, at.m, s));
    const v = Float64Array.from(run(f, at.v, s));
    const weightDecay = s.decay ? hyper.weightDecay : 0;
    adamWUpdate(run(f, at.params, s), run(f, at.grads, s), m, v, { ...hyper, weightDecay });
    run(f, at.m, s).set(m);
    run(f, at.v, s).set(v);
  }
}
