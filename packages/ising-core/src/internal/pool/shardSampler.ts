// A built-in sampler rebuilt from its recipe on this thread (a pool worker's sub-batch, an
// attention engine thread's shard).
import { exactSampler } from '../../exactSampler.js';
import { meanFieldSampler } from '../../meanField.js';
import { tapSampler } from '../../tap.js';
import { transferMatrixSampler } from '../../transferMatrixSampler.js';
import type { Sampler } from '../../types.js';
import type { ShardRecipe } from './shardRecipe.js';

/**
 * The sampler of `recipe` on this thread alone (`threads: 1`): the thread is already one of
 * those the work is split over. Its estimates equal the original's problem by problem.
 */
export function samplerFromRecipe(recipe: ShardRecipe): Sampler {
  const single = { ...recipe.options, threads: 1 };
  switch (recipe.sampler) {
    case 'exact':
      return exactSampler.create(single);
    case 'mean-field':
      return meanFieldSampler.create(single);
    case 'tap':
      return tapSampler.create(single);
    case 'transfer-matrix':
      return transferMatrixSampler.create(single);
  }
}
