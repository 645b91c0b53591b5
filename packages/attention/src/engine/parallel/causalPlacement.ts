/**
 * Where a threaded pass runs its causal op. On every thread, each on its own shard, wherever
 * that gives the answers of one op over the whole batch: the closed forms (sigmoid), and the
 * built-in samplers another thread can rebuild from their recipe (exact, mean-field, tap,
 * transfer-matrix, whose problems do not depend on one another). Then no thread waits for another
 * and nothing is copied. Otherwise (an asynchronous sampler, a plugin's own, a wrapped or a random
 * one) on the calling thread alone, once over the whole batch gathered from the shards, so that
 * sampler sees exactly the calls of one thread.
 */
import { usesSampler } from '@boltzmann/ising-core';
import type { AttentionVariant, Sampler } from '@boltzmann/ising-core';
import { samplerFromRecipe, shardRecipeOf } from '@boltzmann/ising-core/internal';
import type { ShardRecipe } from '@boltzmann/ising-core/internal';

/** `'shards'`: every thread runs the op on its own shard; `'calling-thread'`: one op over the gathered batch. */
export type CausalPlacement = 'shards' | 'calling-thread';

/** A pass's placement, and for `'shards'` the recipe of the sampler each thread rebuilds (none for the closed forms). */
export type CausalPlan =
  | { readonly placement: 'shards'; readonly recipe?: ShardRecipe }
  | { readonly placement: 'calling-thread' };

/** Where the op of `variant` with `sampler` runs when a pass has more than one thread. */
export function planCausalOp(variant: AttentionVariant, sampler: Sampler | undefined): CausalPlan {
  if (!usesSampler(variant)) return { placement: 'shards' };
  // Only ising-core's synchronous built-ins carry a recipe (a wrapper, async or not, has none).
  const recipe = shardRecipeOf(sampler);
  return recipe === undefined ? { placement: 'calling-thread' } : { placement: 'shards', recipe };
}

/** The sampler a thread runs its shard's op with: rebuilt on this thread, alone (`threads: 1`). */
export function shardSampler(plan: CausalPlan): Sampler | undefined {
  return plan.placement === 'shards' && plan.recipe !== undefined
    ? samplerFromRecipe(plan.recipe)
    : undefined;
}
