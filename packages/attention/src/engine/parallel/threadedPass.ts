/**
 * A training pass over threads: each thread (the calling one is thread 0) runs forward and
 * backward on its shard of the batch into its own gradient buffer; then every thread adds the
 * shards' gradients into thread 0's buffer over its own range of the parameters, with the range's
 * Σ g² (optimizerTail.ts). The causal op runs on each shard where it can
 * (causalPlacement.ts); otherwise the calling thread runs it over the whole batch
 * ({@link coordinatorExchange}) while the workers do their block's independent work and then wait
 * at the barrier. The result equals one thread's up to the order of float32 sums.
 */
import type { CausalWeights, Sampler } from '@boltzmann/ising-core';
import { blockBuffers, causalBackward, forwardAround, localExchange } from '../causalExchange.js';
import type { CausalBuffers, CausalExchange, CausalSource } from '../causalExchange.js';
import { modelBackward, modelForward } from '../modelPass.js';
import type { ParamRun } from '../engineTypes.js';
import type { PassContext } from '../passContext.js';
import type { CausalPlan } from './causalPlacement.js';
import { sumGradientRuns } from './optimizerTail.js';
import type { ShardPlan } from './shards.js';
import type { EngineWorkers } from './workerPool.js';

/** Every shard's buffers of one block, and the whole batch's, gathered from (and back to) them. */
function gathered(src: CausalSource, plan: ShardPlan, layer: number) {
  const parts = plan.shards.map((s) => blockBuffers(src, s.acts, layer));
  const batch = parts.reduce((n, p) => n + p.batch, 0);
  const size = parts.reduce((n, p) => n + p.h.length, 0);
  const whole: CausalBuffers = {
    batch,
    length: parts[0]!.length,
    h: new Float32Array(size),
    w: new Float32Array(size),
    gw: new Float32Array(size),
    gh: new Float32Array(size),
    j: parts[0]!.j,
    gj: parts[0]!.gj,
  };
  /** Copies field `key` of every shard into the whole batch's, or back. */
  const move = (key: 'h' | 'w' | 'gw' | 'gh', toWhole: boolean) => {
    let at = 0;
    for (const p of parts) {
      if (toWhole) whole[key].set(p[key], at);
      else p[key].set(whole[key].subarray(at, at + p[key].length));
      at += p[key].length;
    }
  };
  return { parts, whole, move };
}

/**
 * The calling thread's exchange: the whole batch's causal op, gathered from every shard, between
 * the workers' arrival and release. The sampler is called as on one thread: once per head and
 * layer, on every sequence of the batch. J's gradient goes to shard 0 alone. The calling thread's
 * own independent work runs while an asynchronous sampler is pending, else after the release.
 */
export function coordinatorExchange(
  src: CausalSource,
  plan: ShardPlan,
  workers: EngineWorkers,
): CausalExchange {
  const busy = plan.shards.length - 1;
  const ops: CausalWeights[][] = [];
  return {
    async forward(layer, independent) {
      workers.arrivals(busy);
      const { whole, move } = gathered(src, plan, layer);
      move('h', true);
      await forwardAround(src, whole, independent, (o) => {
        ops[layer] = o;
        move('w', false);
        workers.release(busy);
      });
    },
    backward(layer, independent) {
      workers.arrivals(busy);
      const { parts, whole, move } = gathered(src, plan, layer);
      move('gw', true);
      causalBackward(src, whole, ops[layer]!);
      move('gh', false);
      for (const p of parts.slice(1)) p.gj.fill(0);
      workers.release(busy);
      independent();
    },
  };
}

/**
 * The calling thread's exchange of a threaded pass: the op on its own shard where the op runs per
 * shard (with `op.sampler`, its rebuilt copy of the sampler), else the gathered op.
 */
export function callingExchange(
  src: CausalSource,
  plan: ShardPlan,
  workers: EngineWorkers,
  op: CausalPlan & { readonly sampler: Sampler | undefined },
): CausalExchange {
  return op.placement === 'shards'
    ? localExchange({ ...src, sampler: op.sampler }, plan.shards[0]!.acts)
    : coordinatorExchange(src, plan, workers);
}

/**
 * Issues the pass to the workers and runs shard 0 on the calling thread (`ctx`), then the calling
 * thread's range (`runs`) of the gradient sum; when either side fails, stops the other and
 * rethrows the first error. Returns Σ g² of the summed gradients (in thread order).
 */
export async function threadedPass(
  workers: EngineWorkers,
  plan: ShardPlan,
  pass: { readonly batchSize: number; readonly step?: number },
  ctx: PassContext,
  runs: readonly ParamRun[],
): Promise<number> {
  workers.issue({ batch: pass.batchSize, length: plan.shards[0]!.acts.length, step: pass.step });
  let squares: number;
  try {
    await modelForward(ctx);
    modelBackward(ctx);
    workers.gradientsDone();
    workers.awaitGradients();
    const others = plan.shards.slice(1).map((s) => s.gradBase);
    squares = sumGradientRuns(ctx.k, runs, ctx.gradBase, others);
  } catch (error) {
    workers.abort();
    try {
      workers.finish();
    } catch {}
    throw error;
  }
  workers.finish();
  for (let w = 1; w <= workers.count; w++) squares += workers.squares(w);
  return squares;
}
