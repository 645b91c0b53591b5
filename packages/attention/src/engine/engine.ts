/**
 * The engine: a model's parameters, gradients, AdamW moments and activations in one
 * WebAssembly arena, and its forward and backward passes over the fused kernels. No allocation
 * per step once a batch shape has been seen (its activations are planned once and the arena
 * grows to fit the largest).
 *
 * Arena: [parameters P][gradients P][moment m P][moment v P][activations of the current shape].
 */
import type { Sampler } from '@boltzmann/ising-core';
import { parseCouplingForm } from '../couplingForm.js';
import { AttentionError } from '../errors.js';
import { DEFAULT_SAMPLER_TIMEOUT_MS } from '../samplerDeadline.js';
import type { ResolvedTransformerConfig } from '../transformerConfig.js';
import { createArena } from './arena.js';
import { localExchange } from './causalExchange.js';
import { createEngineKernels } from './engineKernels.js';
import type { EngineKernels } from './engineKernels.js';
import type { ActivationLayout, ParamLayout } from './engineTypes.js';
import { planActivations, planParams } from './layout.js';
import { modelBackward, modelForward } from './modelPass.js';
import type { PassContext } from './passContext.js';
import type { OptimizerBuffers } from './adamW.js';

const PAGE_FLOATS = 16384;

/** Options of {@link createEngine}. */
export interface EngineOptions {
  /** The sampler of `boltzmann`/`coupling` (a resolved instance, e.g. a model's `sampler`). */
  readonly sampler?: Sampler | undefined;
  /** The longest wait for an asynchronous sampler's answer (default 30 minutes). */
  readonly samplerTimeoutMs?: number;
}

/** One pass's inputs: `B × T` tokens (checked by the caller) and the dropout step. */
export interface EnginePass {
  readonly inputs: ArrayLike<number>;
  readonly batchSize: number;
  /** The training step whose dropout masks apply; unset: no dropout. */
  readonly step?: number;
}

/** A model on the engine. */
export interface Engine {
  readonly config: ResolvedTransformerConfig;
  readonly params: ParamLayout;
  readonly kernels: EngineKernels;
  /** Where parameters, gradients and the AdamW moments start (float offsets). */
  readonly buffers: OptimizerBuffers;
  /** The arena as floats (call again after a pass: the arena may have grown). */
  f32(): Float32Array;
  /** Parameter `name`'s values or gradient, a view into the arena (valid until it grows). */
  view(name: string, which?: 'params' | 'grads'): Float32Array;
  /** Logits `B × T × outputSize` of a pass (a view into the arena, valid until the next pass). */
  logits(pass: EnginePass): Promise<Float32Array>;
  /** Forward and backward: the masked mean cross-entropy; the gradients are overwritten. */
  lossAndGradients(pass: EnginePass, targets: Int32Array, mask: Float32Array): Promise<number>;
}

/** Creates the engine for a resolved configuration; its parameters start at zero (load them). */
export function createEngine(
  config: ResolvedTransformerConfig,
  options: EngineOptions = {},
): Engine {
  const params = planParams(config);
  const form = parseCouplingForm(config.couplingForm, config.maxLength);
  const p = params.size;
  const buffers = { params: 0, grads: p, m: 2 * p, v: 3 * p };
  const memory = createArena(4 * p + PAGE_FLOATS);
  const kernels = createEngineKernels(memory);
  const shapes = new Map<string, ActivationLayout>();
  const activations = (batch: number, length: number): ActivationLayout => {
    const key = `${batch}x${length}`;
    let acts = shapes.get(key);
    if (acts === undefined) {
      acts = planActivations(config, batch, length, 4 * p);
      shapes.set(key, acts);
    }
    const floats = memory.buffer.byteLength >>> 2;
    const end = 4 * p + acts.size;
    if (end > floats) memory.grow(Math.ceil((end - floats) / PAGE_FLOATS));
    return acts;
  };
  const source = {
    k: kernels,
    config,
    sampler: options.sampler,
    samplerTimeoutMs: options.samplerTimeoutMs ?? DEFAULT_SAMPLER_TIMEOUT_MS,
  };
  const context = (pass: EnginePass): PassContext => {
    const length = pass.inputs.length / pass.batchSize;
    if (!Number.isInteger(length) || length < 1 || length > config.maxLength)
      throw new AttentionError(
        'ATTENTION_SHAPE_MISMATCH',
        `engine: ${pass.inputs.length} tokens do not make ${pass.batchSize} sequences of length 1..${config.maxLength}`,
      );
    const acts = activations(pass.batchSize, length);
    // Another shape's pass may have written where this one's zeros lie.
    if (acts.zeros >= 0) kernels.f32().fill(0, acts.zeros, acts.zeros + config.ffnHidden);
    return {
      k: kernels,
      config,
      form,
      params,
      paramBase: buffers.params,
      gradBase: buffers.grads,
      acts,
      sampler: options.sampler,
      samplerTimeoutMs: options.samplerTimeoutMs ?? DEFAULT_SAMPLER_TIMEOUT_MS,
      step: pass.step,
      exchange: localExchange(source, acts),
    };
  };
  return {
    config,
    params,
    kernels,
    buffers,
    f32: () => kernels.f32(),
    view(name, which = 'params') {
      const slot = params.slot(name);
      if (slot === undefined)
        throw new AttentionError('ATTENTION_INVALID_ARGUMENT', `engine: no parameter "${name}"`);
      const at = (which === 'grads' ? buffers.grads : buffers.params) + slot.offset;
      return kernels.f32().subarray(at, at + slot.size);
    },
    async logits(pass) {
      const ctx = context(pass);
      await modelForward(ctx, pass.inputs);
      const { logits, batch, length } = ctx.acts;
      return kernels.f32().subarray(logits, logits + batch * length * config.outputSize);
    },
    async lossAndGradients(pass, targets, mask) {
      const ctx = context(pass);
      await modelForward(ctx, pass.inputs);
      kernels.f32().fill(0, buffers.grads, buffers.grads + p);
      return modelBackward(ctx, pass.inputs, targets, mask);
    },
  };
}
