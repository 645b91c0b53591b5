/**
 * The causal op of a block on the arena (boltzmann, coupling; the engine runs sigmoid's closed
 * form on its own kernels, softmax.ts, as it runs softmax): the fields `h` and
 * couplings `J` of a pass's activations in, the weights `w` out, and back from `∂L/∂w` to
 * `∂L/∂h` and `∂L/∂J`, through the one buffer wrapper of ising-core's op (model/causalOpBuffers.ts).
 * A pass reaches it through a {@link CausalExchange}: on one thread, and on every thread of a pass
 * whose op can run per shard, the op runs on the pass's own activations ({@link localExchange});
 * otherwise the calling thread gathers every shard's fields into one batch and runs the op once
 * (parallel/threadedPass.ts: that sampler sees the same calls, batches and problems as on one
 * thread, and is only ever called there). parallel/causalPlacement.ts decides which.
 *
 * Each call carries the block's independent work: the part of the pass that neither writes the
 * op's input nor reads its output (the value projection and the dropout mask forward; weight
 * gradients and the value's input gradient backward). It runs while the op runs wherever that
 * is possible: on the workers while the calling thread runs a gathered op, and on the calling
 * thread while an asynchronous sampler is pending; otherwise right after the op.
 */
import type { CausalWeights, Sampler } from '@boltzmann/ising-core';
import {
  causalHeadOps,
  writeCausalGradients,
  writeCausalWeights,
} from '../model/causalOpBuffers.js';
import { sampleEstimates } from '../model/headEstimates.js';
import type { PreparedEstimates } from '../model/headEstimates.js';
import type { ResolvedTransformerConfig } from '../core/transformerConfigTypes.js';
import type { EngineKernels } from './engineKernels.js';
import type { ActivationLayout } from './engineTypes.js';
import { fusedTransferBackward, fusedTransferForward, fusedTransferWindow } from './transferOp.js';
import type { FusedTransferPass } from './transferOp.js';

/**
 * Where a pass's causal op is run: forward after `h` and `J` are written, backward after `∂L/∂w`.
 * `independent` is run exactly once per call, before the call returns, concurrently with the op
 * where the exchange can (it must not touch `h`, `w`, `∂L/∂w`, `∂L/∂h` or J's buffers).
 */
export interface CausalExchange {
  forward(layer: number, independent: () => void): Promise<void>;
  backward(layer: number, independent: () => void): void;
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

/**
 * w from h and J; returns the heads' ops for the backward. With an asynchronous sampler,
 * `whilePending` runs after the sampler has been called and before its answer is awaited.
 */
export async function causalForward(
  src: CausalSource,
  b: CausalBuffers,
  whilePending?: () => void,
): Promise<CausalWeights[]> {
  const { config, sampler } = src;
  const shape = { batch: b.batch, heads: config.heads, length: b.length };
  let prepared: PreparedEstimates | undefined;
  if (sampler?.capabilities.async === true) {
    const pending = sampleEstimates(b.h, b.j, shape, sampler, config.beta, {
      timeoutMs: src.samplerTimeoutMs,
    });
    try {
      whilePending?.();
    } catch (error) {
      pending.catch(() => {}); // the pass fails with the work's error; the sampler's is moot
      throw error;
    }
    prepared = await pending;
  }
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

/**
 * The op's forward with `independent` run while an asynchronous sampler is pending; `after` is
 * called with the ops, then `independent` when it has not run yet.
 */
export async function forwardAround(
  src: CausalSource,
  b: CausalBuffers,
  independent: () => void,
  after: (ops: CausalWeights[]) => void,
): Promise<void> {
  let ran = false;
  const ops = await causalForward(src, b, () => {
    ran = true;
    independent();
  });
  after(ops);
  if (!ran) independent();
}

/** Block `layer`'s forward on the engine's transfer kernels where they give the sampler's answer (transferOp.ts). */
function fusedForward(src: CausalSource, acts: ActivationLayout, layer: number) {
  const window = fusedTransferWindow(src.k, src.config, src.sampler, acts);
  if (window === undefined) return undefined;
  return fusedTransferForward(src.k, acts, layer, src.config, window, src.sampler!);
}

/** The op on one pass's own activations: one thread's, or one shard's on its own thread. */
export function localExchange(src: CausalSource, acts: ActivationLayout): CausalExchange {
  const ops: CausalWeights[][] = [];
  const fused: (FusedTransferPass | undefined)[] = [];
  return {
    async forward(layer, independent) {
      fused[layer] = fusedForward(src, acts, layer);
      if (fused[layer] !== undefined) return independent();
      const b = blockBuffers(src, acts, layer);
      await forwardAround(src, b, independent, (o) => (ops[layer] = o));
    },
    backward(layer, independent) {
      const pass = fused[layer];
      if (pass !== undefined) fusedTransferBackward(src.k, acts, layer, pass);
      else causalBackward(src, blockBuffers(src, acts, layer), ops[layer]!);
      independent();
    },
  };
}
