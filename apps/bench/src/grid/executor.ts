// The one grid loop: every executor (process pool, in-process, BullMQ queue) is planned and run
// through it, so the results lock, the plan and the dry run cannot drift apart between them.
import { gridOutcome, planGrid } from './plan.js';
import type { GridExecutor, GridOptions, GridOutcome } from './types.js';
import { sweepStaleTemps } from '../results/atomicWrite.js';
import { lockResults } from '../results/resultsLock.js';
import type { RunConfig } from '../types.js';

/**
 * Runs a grid on an executor: its start-up checks (`open`), then under the results lock the
 * plan (finished runs skipped, checkpoints resumed, the ETA, `onPlan`), then the executor's `run`.
 * A dry run prints the plan, takes no lock and runs nothing.
 *
 * @param configs the runs (from `expandGrid`).
 * @param executor where the runs train (`poolExecutor`, `inProcessExecutor`, `queueExecutor`).
 * @param options results folder, progress display, stop signal, output.
 * @returns finished records (this and earlier sessions), failures, and whether it was interrupted.
 * @throws BENCH_RESULTS_LOCKED when another bench uses the results folder; the executor's errors.
 * @example
 * const outcome = await runGrid(expandGrid(cmd), poolExecutor(options), options);
 */
export async function runGrid(
  configs: readonly RunConfig[],
  executor: GridExecutor,
  options: GridOptions,
): Promise<GridOutcome> {
  await executor.open?.();
  let release = (): void => undefined;
  try {
    // Lock before looking at checkpoints: reading one may set it aside (when it does not fit),
    // and a second bench must not touch runs the first is training. A dry run only reads.
    if (!options.dryRun) {
      release = lockResults(options.settings.resultsDir);
      // Under the lock no other bench writes here: what a killed write left can go.
      sweepStaleTemps(options.settings.resultsDir);
    }
    const grid = await planGrid(configs, executor, options);
    if (options.dryRun) return gridOutcome(grid, []);
    return await executor.run(grid);
  } finally {
    await executor.close?.();
    release();
  }
}
