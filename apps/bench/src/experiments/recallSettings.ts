// The MQAR settings a `bench recall` run carries (a leaf: the recall module and the task data read it).
import { BenchError } from '../benchError.js';
import type { RecallSettings, RunConfig } from '../types.js';

/**
 * The settings of a recall run, read from its config.
 *
 * @throws BENCH_INVALID_JOB when the config has none (an MQAR run built elsewhere than the grid).
 */
export function recallOf(config: RunConfig): RecallSettings {
  if (!config.recall)
    throw new BenchError('BENCH_INVALID_JOB', 'a recall run config has no recall settings');
  return config.recall;
}
