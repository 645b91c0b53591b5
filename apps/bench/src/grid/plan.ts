// The planning step of every grid, whichever executor trains it: which runs have finished, which
// resume from a checkpoint, the ETA, the plan's lines and the dry run's list.
import { whatRunsLine } from './whatRuns.js';
import { estimateGridSeconds, estimateRunSeconds } from './eta.js';
import type { EtaEngine } from './eta.js';
import { etaEngineHere } from './etaKernels.js';
import { runId, runLabel } from './expandGrid.js';
import { formatDuration } from './progress.js';
import { expectedTimeLine } from './stoppedShare.js';
import { readCheckpoint, readRecord } from '../results/runFiles.js';
import { familyCheckpoint, stoppedFamilyRecord } from './capFamily.js';
import type {
  GridExecutor,
  GridOptions,
  GridOutcome,
  PendingRun,
  PlannedGrid,
  RunFailure,
} from './types.js';
import type { RunConfig } from '../types.js';
import type { RunRecord } from '../recordTypes.js';

/** The grid's output sink: `options.out`, else standard output. */
export function gridOut(options: GridOptions): (line: string) => void {
  return options.out ?? ((l: string) => process.stdout.write(`${l}\n`));
}

/**
 * Reads the results folder for a grid: the finished records (a run's own, or its cap family's
 * that early stopping ended below its cap: grid/capFamily.ts), and for each other run its
 * checkpoint's step (its own, or its cap family's it continues from) when the executor resumes
 * local checkpoints. Call it under the results lock
 * unless `dryRun`: reading a checkpoint that does not fit sets it aside (a dry run only reads).
 *
 * @throws BENCH_CORRUPT_CHECKPOINT for a record that is not one of this run.
 */
export function readGrid(
  configs: readonly RunConfig[],
  options: GridOptions,
  resumesLocalCheckpoints: boolean,
): PlannedGrid {
  const dir = options.settings.resultsDir;
  const out = gridOut(options);
  const done = new Map<string, RunRecord>();
  const pending: PendingRun[] = [];
  for (const config of configs) {
    const id = runId(config);
    // A cap family's run that early stopping ended below this cap is this run's result.
    const record = readRecord(dir, id) ?? stoppedFamilyRecord(dir, config);
    if (record) {
      done.set(id, record);
      continue;
    }
    const warn = (m: string) => out(`warning: ${m}`);
    const ckpt = resumesLocalCheckpoints
      ? (readCheckpoint(dir, id, warn, !options.dryRun, config) ??
        familyCheckpoint(dir, config, warn))
      : null;
    pending.push({
      config,
      id,
      startStep: ckpt?.step ?? 0,
      doneFraction: ckpt ? ckpt.step / config.steps : 0,
    });
  }
  return { configs, done, pending };
}

/**
 * Plans a grid on an executor: reads the results folder ({@link readGrid}), estimates the pending
 * runs' wall time on the executor's slots, tells `onPlan`, prints the executor's plan line (with,
 * where finished runs stopped early, the time if the rest stop alike: stoppedShare.ts) and the
 * results folder, and for a dry run the list of runs to train.
 *
 * @returns the planned grid, for the executor's `run`.
 */
export async function planGrid(
  configs: readonly RunConfig[],
  executor: GridExecutor,
  options: GridOptions,
): Promise<PlannedGrid> {
  const out = gridOut(options);
  const grid = readGrid(configs, options, executor.resumesLocalCheckpoints);
  const slots = Math.max(1, executor.slots(grid.pending.length));
  const engine = etaEngineHere(options.settings.engine);
  const etaSeconds = estimateGridSeconds(grid.pending, slots, engine);
  options.onPlan?.({ runs: configs.length, pending: grid.pending.length, etaSeconds });
  out(await executor.announce(grid, etaSeconds));
  const expected = expectedTimeLine(grid.done.values(), grid.pending, slots, engine);
  if (expected) out(expected);
  out(`results: ${options.settings.resultsDir}`);
  out(whatRunsLine(configs, options.settings.engine));
  if (options.dryRun) for (const line of dryRunLines(grid.pending, engine)) out(line);
  // After the plan's lines: a display with bars starts drawing its grid line here.
  else options.progress.plan?.(grid.pending, slots, engine);
  return grid;
}

/**
 * The first line of a local grid's plan: finished, resuming and new runs, where they train and
 * the ETA.
 *
 * @param where `'in-process (no workers)'`, `'2 workers'`, …
 */
export function localPlanLine(grid: PlannedGrid, etaSeconds: number, where: string): string {
  const runs = grid.configs.length;
  const resuming = grid.pending.filter((t) => t.startStep > 0).length;
  return (
    `grid: ${runs} run${runs === 1 ? '' : 's'} — ${grid.done.size} finished, ${resuming} to resume, ${grid.pending.length - resuming} new; ` +
    (grid.pending.length === 0
      ? 'nothing to train'
      : `${where}; estimated time ≈ ${formatDuration(etaSeconds)} (rough, ±50 %)`)
  );
}

/** A dry run's list: each pending run, its steps (and where it resumes) and its own ETA. */
function dryRunLines(pending: readonly PendingRun[], engine?: EtaEngine): string[] {
  return pending.map(
    (t) =>
      `  ${runLabel(t.config)}  ${t.config.steps} steps${t.startStep ? ` (from ${t.startStep})` : ''}  ≈ ${formatDuration(estimateRunSeconds(t.config, engine) * (1 - t.doneFraction))}`,
  );
}

/**
 * A grid's outcome from its finished records (in grid order) and failures.
 *
 * @param stopped the grid was stopped (Ctrl-C): it is interrupted when runs are left without a record.
 * @param unfinished runs that go on elsewhere (the queue's); 0 for local executors.
 */
export function gridOutcome(
  grid: PlannedGrid,
  failures: readonly RunFailure[],
  stopped = false,
  unfinished = 0,
): GridOutcome {
  const records = grid.configs
    .map((c) => grid.done.get(runId(c)))
    .filter((r): r is RunRecord => !!r);
  const total = grid.configs.length;
  return { total, records, failures, interrupted: stopped && records.length < total, unfinished };
}
