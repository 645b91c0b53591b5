/**
 * What one engine pass works with: the kernels, the configuration, where the parameters,
 * gradients and activations are, where its causal op runs, and the pass's dropout step. Built once per pass
 * by the engine (engine.ts); the block and model passes only read it.
 */
import type { ParsedCouplingForm } from '../core/couplingForm.js';
import { fillDropoutMask } from '../model/dropout.js';
import type { ResolvedTransformerConfig } from '../core/transformerConfigTypes.js';
import type { CausalExchange } from './causalExchange.js';
import type { EngineKernels } from './engineKernels.js';
import type { ActivationLayout, ParamLayout } from './engineTypes.js';

/** One pass's context. */
export interface PassContext {
  readonly k: EngineKernels;
  readonly config: ResolvedTransformerConfig;
  readonly form: ParsedCouplingForm;
  /** The parameters: their records (`blocks`, `embedding`, `head`) give each one's offset. */
  readonly params: ParamLayout;
  /** The first sequence of the batch this pass's activations hold (a thread's shard). */
  readonly batchStart: number;
  /** Float offsets of the parameter and gradient buffers. */
  readonly paramBase: number;
  readonly gradBase: number;
  readonly acts: ActivationLayout;
  /** The training step whose dropout masks apply; `undefined`: no dropout. */
  readonly step: number | undefined;
  /** Where the causal op (sigmoid and the sampler variants) runs. */
  readonly exchange: CausalExchange;
}

/** Whether this pass drops (a training step of a model with dropout). */
export function dropping(ctx: PassContext): boolean {
  return ctx.step !== undefined && ctx.config.dropout > 0;
}

/** Float offset in the arena of the values of the parameter at `at` (a field of `ctx.params`' records). */
export function paramAt(ctx: PassContext, at: number): number {
  return ctx.paramBase + at;
}

/** Float offset in the arena of this pass's gradient of the parameter at `at`. */
export function gradAt(ctx: PassContext, at: number): number {
  return ctx.gradBase + at;
}

/** {@link paramAt} of an optional parameter: -1, the kernels' "none", when the model has none. */
export function optionalParamAt(ctx: PassContext, at: number | undefined): number {
  return at === undefined ? -1 : ctx.paramBase + at;
}

/** {@link gradAt} of an optional parameter: -1, the kernels' "none", when the model has none. */
export function optionalGradAt(ctx: PassContext, at: number | undefined): number {
  return at === undefined ? -1 : ctx.gradBase + at;
}

/**
 * Fills the mask at `at` (`size` floats, the pass's sequences) for dropout site `site` of block
 * `layer`: the part of the whole batch's mask that belongs to this pass's sequences.
 */
export function fillMask(ctx: PassContext, at: number, size: number, layer: number, site: string) {
  const skip = (size / ctx.acts.batch) * ctx.batchStart;
  const where = { seed: ctx.config.seed, step: ctx.step!, layer, site };
  fillDropoutMask(ctx.k.f32().subarray(at, at + size), ctx.config.dropout, where, skip);
}
