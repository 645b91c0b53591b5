/**
 * Where a threaded pass runs its causal op. On every thread, each on its own shard, wherever
 * that gives the answers of one op over the whole batch: the closed forms (sigmoid), and the
 * built-in samplers another thread can rebuild from their recipe (exact, mean-field, tap,
 * transfer-matrix, whose problems do not depend on one another). Then no thread waits for another
 * and nothing is copied. Otherwise (an asynchronous sampler, a plugin's own, a wrapped or a random
 * one) on the calling thread alone, once over the whole batch gathered from the shards, so that
 * sampler sees exactly the calls of one thread. A built-in sampler wrapped by ising-core's
 * `recordConvergence` runs on the shards too: each thread records the convergence of its own
 * calls, and the calling thread hands every thread's figures to the wrapper after the pass.
 */
import { recordConvergence, usesSampler } from '@boltzmann/ising-core';
import type { AttentionVariant, ConvergenceSummary, Sampler } from '@boltzmann/ising-core';
import { recordingOf, samplerFromRecipe, shardRecipeOf } from '@boltzmann/ising-core/internal';
import type { ShardRecipe } from '@boltzmann/ising-core/internal';

/** `'shards'`: every thread runs the op on its own shard; `'calling-thread'`: one op over the gathered batch. */
export type CausalPlacement = 'shards' | 'calling-thread';

/**
 * A pass's placement, and for `'shards'` the recipe of the sampler each thread rebuilds (none for
 * the closed forms) and whether each thread records its convergence for the sampler's recorder.
 */
export type CausalPlan =
  | { readonly placement: 'shards'; readonly recipe?: ShardRecipe; readonly record?: boolean }
  | { readonly placement: 'calling-thread' };

/** Where the op of `variant` with `sampler` runs when a pass has more than one thread. */
export function planCausalOp(variant: AttentionVariant, sampler: Sampler | undefined): CausalPlan {
  if (!usesSampler(variant)) return { placement: 'shards' };
  // Only ising-core's synchronous built-ins carry a recipe (a wrapper, async or not, has none).
  const recipe = shardRecipeOf(sampler);
  if (recipe === undefined) return { placement: 'calling-thread' };
  return { placement: 'shards', recipe, record: recordingOf(sampler) !== undefined };
}

/**
 * The sampler a thread runs its shard's op with: rebuilt on this thread, alone (`threads: 1`),
 * and recording its convergence where the plan says so.
 */
export function shardSampler(plan: CausalPlan): Sampler | undefined {
  if (plan.placement !== 'shards' || plan.recipe === undefined) return undefined;
  const sampler = samplerFromRecipe(plan.recipe);
  return plan.record === true ? recordConvergence(sampler) : sampler;
}

/** A shard sampler's figures since the last pass (undefined: none, or it does not record). */
export const shardConvergence = (sampler: Sampler | undefined): ConvergenceSummary | undefined =>
  recordingOf(sampler)?.drain();

/**
 * After a pass on the shards: the figures every thread recorded (the calling thread's shard
 * sampler `own`, then each worker's, in order) handed to the user's recording sampler.
 */
export function absorbShardConvergence(
  user: Sampler | undefined,
  own: Sampler | undefined,
  workers: { readonly count: number; convergence(w: number): ConvergenceSummary | undefined },
): void {
  const recorder = recordingOf(user);
  if (recorder === undefined) return;
  recorder.absorb(shardConvergence(own));
  for (let w = 1; w <= workers.count; w++) recorder.absorb(workers.convergence(w));
}
