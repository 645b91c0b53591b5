/**
 * A training pass over threads: each thread (the calling one is thread 0) runs forward and
 * backward on its shard of the batch into its own gradient buffer; the calling thread runs the
 * causal op of every shard while the workers wait at the barrier, then sums the gradients into
 * its own buffer. The result equals one thread's up to the order of float32 sums.
 */
import type { CausalWeights } from '@boltzmann/ising-core';
import { causalBackward, causalForward } from '../causalExchange.js';
import type { CausalExchange, CausalSource } from '../causalExchange.js';
import { modelBackward, modelForward } from '../modelPass.js';
import type { PassContext } from '../passContext.js';
import type { ShardPlan } from './shards.js';
import type { EngineWorkers } from './workerPool.js';

/** The calling thread's exchange: every shard's causal op between the workers' arrival and release. */
export function coordinatorExchange(
  src: CausalSource,
  plan: ShardPlan,
  workers: EngineWorkers,
): CausalExchange {
  const busy = plan.shards.length - 1;
  const ops: CausalWeights[][][] = plan.shards.map(() => []);
  return {
    async forward(layer) {
      workers.arrivals(busy);
      for (const [s, shard] of plan.shards.entries())
        ops[s]![layer] = await causalForward(src, shard.acts, layer);
      workers.release(busy);
    },
    backward(layer) {
      workers.arrivals(busy);
      for (const [s, shard] of plan.shards.entries())
        causalBackward(src, shard.acts, layer, ops[s]![layer]!);
      workers.release(busy);
    },
  };
}

/**
 * Issues the pass to the workers and runs shard 0 on the calling thread (`ctx`); when either side
 * fails, stops the other and rethrows the first error. The gradients stay in each shard's buffer.
 */
export async function threadedPass(
  workers: EngineWorkers,
  plan: ShardPlan,
  pass: { readonly batchSize: number; readonly step?: number },
  ctx: PassContext,
): Promise<void> {
  workers.issue({ batch: pass.batchSize, length: plan.shards[0]!.acts.length, step: pass.step });
  try {
    await modelForward(ctx);
    modelBackward(ctx);
  } catch (error) {
    workers.abort();
    try {
      workers.finish();
    } catch {}
    throw error;
  }
  workers.finish();
}
