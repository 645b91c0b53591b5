/**
 * The causal op of a block on the arena (sigmoid, boltzmann, coupling): the fields `h` and
 * couplings `J` of a pass's activations in, the weights `w` out, and back from `∂L/∂w` to
 * `∂L/∂h` and `∂L/∂J`, through the one buffer wrapper of ising-core's op (causalOpBuffers.ts).
 * A pass reaches it through a {@link CausalExchange}: on one thread the op runs on the pass's
 * own activations; with worker threads the calling thread gathers every shard's fields into one
 * batch and runs the op once (the sampler sees the same calls, batches and problems as on one
 * thread, and is only ever called there) while the workers wait.
 */
import type { CausalWeights, Sampler } from '@boltzmann/ising-core';
import { causalHeadOps, writeCausalGradients, writeCausalWeights } from '../causalOpBuffers.js';
import { prepareEstimates } from '../preparedEstimates.js';
import type { PreparedEstimates } from '../preparedEstimates.js';
import type { ResolvedTransformerConfig } from '../transformerConfig.js';
import type { EngineKernels } from './engineKernels.js';
import type { ActivationLayout } from './engineTypes.js';

/** Where a pass's causal op is run: forward after `h` and `J` are written, backward after `∂L/∂w`. */
export interface CausalExchange {
  forward(layer: number): Promise<void>;
  backward(layer: number): void;
}

/** What the op needs besides the activations. */
export interface CausalSource {
  readonly k: EngineKernels;
  readonly config: ResolvedTransformerConfig;
  readonly sampler: Sampler | undefined;
  readonly samplerTimeoutMs: number;
}

/** One batch of the op: its sequences' fields, weights and gradients (`B × H × T × T`) and J's. */
export interface CausalBuffers {
  readonly batch: number;
  readonly length: number;
  readonly h: Float32Array;
  readonly w: Float32Array;
  readonly gw: Float32Array;
  readonly gh: Float32Array;
  /** `H × T × T`; the gradient of J is written into `gj`. */
  readonly j: Float32Array;
  readonly gj: Float32Array;
}

/** Views of block `layer`'s buffers in `acts` (no copy). */
export function blockBuffers(
  src: CausalSource,
  acts: ActivationLayout,
  layer: number,
): CausalBuffers {
  const f = src.k.f32();
  const a = acts.blocks[layer]!;
  const bhtt = acts.batch * src.config.heads * acts.length ** 2;
  const htt = src.config.heads * acts.length ** 2;
  const view = (at: number, size: number) => f.subarray(at, at + size);
  return {
    batch: acts.batch,
    length: acts.length,
    h: view(a.h, bhtt),
    w: view(a.w, bhtt),
    gw: view(acts.gw, bhtt),
    gh: view(acts.gh, bhtt),
    j: view(a.j, htt),
    gj: view(a.gj, htt),
  };
}

/** w from h and J; returns the heads' ops for the backward. */
export async function causalForward(src: CausalSource, b: CausalBuffers): Promise<CausalWeights[]> {
  const { config, sampler } = src;
  const shape = { batch: b.batch, heads: config.heads, length: b.length };
  let prepared: PreparedEstimates | undefined;
  if (sampler?.capabilities.async === true)
    prepared = await prepareEstimates(b.h, b.j, shape, sampler, config.beta, {
      timeoutMs: src.samplerTimeoutMs,
    });
  const source = { variant: config.variant as 'sigmoid', beta: config.beta, sampler, prepared };
  // Nothing grows the arena while the op runs, so the views stay valid.
  const ops = causalHeadOps(b.h, b.j, shape, source);
  writeCausalWeights(ops, shape, b.w);
  return ops;
}

/** ∂L/∂h into `gh` and ∂L/∂J into `gj` from ∂L/∂w in `gw`. */
export function causalBackward(
  src: CausalSource,
  b: CausalBuffers,
  ops: readonly CausalWeights[],
): void {
  const { config } = src;
  const shape = { batch: b.batch, heads: config.heads, length: b.length };
  writeCausalGradients(ops, shape, config.variant as 'sigmoid', {
    gw: b.gw,
    gh: b.gh,
    gj: config.variant === 'sigmoid' ? undefined : b.gj,
  });
}

/** The op on one pass's own activations (one thread). */
export function localExchange(src: CausalSource, acts: ActivationLayout): CausalExchange {
  const ops: CausalWeights[][] = [];
  return {
    async forward(layer) {
      ops[layer] = await causalForward(src, blockBuffers(src, acts, layer));
    },
    backward(layer) {
      causalBackward(src, blockBuffers(src, acts, layer), ops[layer]!);
    },
  };
}
