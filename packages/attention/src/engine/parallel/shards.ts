/**
 * How a threaded pass splits its batch: thread t takes a contiguous run of sequences with its
 * own gradient buffer and activations, all in the one shared arena. Every thread computes the
 * same plan from the same numbers, so the workers need only (batch, length, threads).
 *
 * Arena: [parameters P][gradients of thread 0 P][m P][v P][gradients of threads 1… P each]
 * [activations of thread 0][of thread 1]…
 */
import type { ResolvedTransformerConfig } from '../../core/transformerConfigTypes.js';
import type { OptimizerBuffers } from '../adamW.js';
import type { ActivationLayout, ParamLayout } from '../engineTypes.js';
import { planActivations } from '../layout.js';

/** One thread's part of a pass. */
export interface Shard {
  /** The first sequence of the batch it takes, and how many. */
  readonly start: number;
  readonly count: number;
  /** Where its gradients go (thread 0: the optimizer's gradient buffer). */
  readonly gradBase: number;
  readonly acts: ActivationLayout;
}

/** A pass's shards (at most one per thread, never empty) and the arena floats they need. */
export interface ShardPlan {
  readonly shards: readonly Shard[];
  readonly end: number;
}

/** The gradient buffer of thread `t` (0: the optimizer's, at P). */
export function gradBaseOf(params: ParamLayout, t: number): number {
  return t === 0 ? params.size : (3 + t) * params.size;
}

/** Where the optimizer's four buffers start: parameters, thread 0's gradients, the moments m, v. */
export function optimizerBuffersOf(params: ParamLayout): OptimizerBuffers {
  const p = params.size;
  return { params: 0, grads: gradBaseOf(params, 0), m: 2 * p, v: 3 * p };
}

/** Splits `batch` sequences of `length` tokens over up to `threads` threads of an engine of `engineThreads`. */
export function planShards(
  config: ResolvedTransformerConfig,
  params: ParamLayout,
  pass: { readonly batch: number; readonly length: number; readonly threads: number },
  engineThreads = pass.threads,
): ShardPlan {
  const { batch, length } = pass;
  const threads = Math.max(1, Math.min(pass.threads, batch));
  const shards: Shard[] = [];
  // Past every thread's gradient buffer, whatever this pass uses.
  let base = (3 + Math.max(1, engineThreads)) * params.size;
  let start = 0;
  for (let t = 0; t < threads; t++) {
    const count = Math.floor(batch / threads) + (t < batch % threads ? 1 : 0);
    const acts = planActivations(config, count, length, base);
    shards.push({ start, count, gradBase: gradBaseOf(params, t), acts });
    start += count;
    base += acts.size;
  }
  return { shards, end: base };
}
