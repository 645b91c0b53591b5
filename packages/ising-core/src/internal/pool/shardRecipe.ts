// How another thread rebuilds one of the built-in samplers to run its own shard of a batch: the
// plugin's name and its validated options, as plain data a worker can receive.
import type { Sampler } from '../../types.js';
import type { ThreadedSamplerName } from './poolMessages.js';

/**
 * A built-in sampler as plain data: its plugin and its validated options (without `threads`).
 * Only the deterministic samplers whose problems do not depend on one another have one (exact,
 * mean-field, tap, transfer-matrix): a batch cut between whole causal sequences gives every
 * problem the answer it gets in the whole batch, wherever each part runs.
 */
export interface ShardRecipe {
  readonly sampler: ThreadedSamplerName | 'exact';
  readonly options: Readonly<Record<string, unknown>>;
}

const recipes = new WeakMap<object, ShardRecipe>();

/** Records how to rebuild `sampler` on another thread; returns `sampler`. */
export function withShardRecipe<S extends Sampler>(sampler: S, recipe: ShardRecipe): S {
  recipes.set(sampler, recipe);
  return sampler;
}

/**
 * How to rebuild `sampler` on another thread, or `undefined` for any other object: a plugin's
 * own samplers, and a built-in one wrapped or copied (`{ ...sampler }`), which is then only ever
 * called where it is.
 */
export function shardRecipeOf(sampler: unknown): ShardRecipe | undefined {
  return typeof sampler === 'object' && sampler !== null ? recipes.get(sampler) : undefined;
}
