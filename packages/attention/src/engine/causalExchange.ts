/**
 * The causal op of a block on the arena (sigmoid, boltzmann, coupling): the fields `h` and
 * couplings `J` of a pass's activations in, the weights `w` out, and back from `∂L/∂w` to
 * `∂L/∂h` and `∂L/∂J`, through the one buffer wrapper of ising-core's op (causalOpBuffers.ts).
 * A pass reaches it through a {@link CausalExchange}: on one thread the op runs on the pass's
 * own activations; with worker threads the calling thread runs it for every shard (the
 * sampler, even an asynchronous one, is only ever called there) while the workers wait.
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

function shapeOf(config: ResolvedTransformerConfig, acts: ActivationLayout) {
  return { batch: acts.batch, heads: config.heads, length: acts.length };
}

/** w from h and J of block `layer` of `acts`; returns the heads' ops for the backward. */
export async function causalForward(
  src: CausalSource,
  acts: ActivationLayout,
  layer: number,
): Promise<CausalWeights[]> {
  const { config, sampler } = src;
  const a = acts.blocks[layer]!;
  const shape = shapeOf(config, acts);
  const [bhtt, htt] = [
    acts.batch * config.heads * acts.length ** 2,
    config.heads * acts.length ** 2,
  ];
  const f = src.k.f32();
  const h = f.subarray(a.h, a.h + bhtt);
  const j = f.subarray(a.j, a.j + htt);
  let prepared: PreparedEstimates | undefined;
  if (sampler?.capabilities.async === true)
    prepared = await prepareEstimates(h, j, shape, sampler, config.beta, {
      timeoutMs: src.samplerTimeoutMs,
    });
  const source = { variant: config.variant as 'sigmoid', beta: config.beta, sampler, prepared };
  // The arena may not move while the op runs (nothing grows it), so the views stay valid.
  const ops = causalHeadOps(h, j, shape, source);
  writeCausalWeights(ops, shape, src.k.f32().subarray(a.w, a.w + bhtt));
  return ops;
}

/** ∂L/∂h into `acts.gh` and ∂L/∂J into the block's `gj` from ∂L/∂w in `acts.gw`. */
export function causalBackward(
  src: CausalSource,
  acts: ActivationLayout,
  layer: number,
  ops: readonly CausalWeights[],
): void {
  const { config } = src;
  const a = acts.blocks[layer]!;
  const f = src.k.f32();
  const [bhtt, htt] = [
    acts.batch * config.heads * acts.length ** 2,
    config.heads * acts.length ** 2,
  ];
  writeCausalGradients(ops, shapeOf(config, acts), config.variant as 'sigmoid', {
    gw: f.subarray(acts.gw, acts.gw + bhtt),
    gh: f.subarray(acts.gh, acts.gh + bhtt),
    gj: config.variant === 'sigmoid' ? undefined : f.subarray(a.gj, a.gj + htt),
  });
}

/** The op on one pass's own activations (one thread). */
export function localExchange(src: CausalSource, acts: ActivationLayout): CausalExchange {
  const ops: CausalWeights[][] = [];
  return {
    async forward(layer) {
      ops[layer] = await causalForward(src, acts, layer);
    },
    backward(layer) {
      causalBackward(src, acts, layer, ops[layer]!);
    },
  };
}
