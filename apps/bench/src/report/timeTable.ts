import { machineGroups } from './machines.js';
import { summarize } from './summary.js';
import { spread } from './summaryTable.js';
import type { Table } from './summaryTable.js';
import { trainedSteps } from '../results/earlyStopChecks.js';
import type { RunRecord } from '../recordTypes.js';

/**
 * A run's time per training step in milliseconds, over the steps it trained (early stopping's
 * too): its median loop iteration (`timing.medianStepMs`) plus its evaluations and checkpoints
 * spread over those steps. Wall time over steps is the fallback for records without a median
 * (older releases). The median is the figure because wall time counts every pause: a grid
 * stopped with SIGSTOP while a benchmark or CI ran beside it kept its clock running, which moved
 * the wall-time figures of issue 41's converged runs by up to 12× and their ratios with them.
 */
export function msPerStep(r: RunRecord): number {
  const steps = trainedSteps(r);
  const t = r.timing;
  if (t?.medianStepMs === undefined) return (1000 * r.wallSeconds) / steps;
  return t.medianStepMs + (1000 * (t.evalSeconds + t.checkpointSeconds)) / steps;
}

/** How {@link msPerStep} timed these runs, for a table's note. */
export function timeBasisNote(records: readonly RunRecord[]): string {
  const wall = records.filter((r) => r.timing?.medianStepMs === undefined).length;
  const median =
    "each run's median training step (the bench's loop around it included) plus its evaluations and checkpoints spread over its steps, which pauses of the grid do not move";
  if (wall === 0) return `Milliseconds per step: ${median}`;
  if (wall === records.length)
    return 'Milliseconds per step: wall time of each run over its steps (evaluations included; these records keep no median step, so pauses count)';
  const which =
    wall === 1 ? 'the one run whose record keeps' : `the ${wall} runs whose records keep`;
  return `Milliseconds per step: ${median}; for ${which} no median step, wall time over steps`;
}

/**
 * Time per training step per grid row and column, in ms: mean ± std over seeds of each run's
 * {@link msPerStep}, then `· r×`, the column's mean over the baseline's. Runs of a grid share the
 * machine with its other workers, so compare within a row. When the runs trained on several
 * machines (machines.ts), each grid row has one row per machine, labelled in a `machine` column
 * as the environment note names them (lettered over all runs, timed or not), so no cell averages two machines and every ratio is taken
 * within one.
 *
 * @returns the table, or null when no run has a wall time.
 */
export function timeTable(
  records: readonly RunRecord[],
  columns: readonly string[],
  baseline: string,
  modelAxes = false,
): Table | null {
  const timed = records.filter((r) => r.wallSeconds > 0 && r.config.steps > 0);
  if (timed.length === 0) return null;
  // Lettered over every run, as environmentNote letters them, so a machine whose first run has
  // no wall time keeps its letter here too.
  const machineOf = new Map(
    machineGroups(records).flatMap((g) => g.records.map((r) => [r, g.label] as const)),
  );
  const axis =
    new Set(timed.map((r) => machineOf.get(r))).size > 1
      ? { label: 'machine', of: (r: RunRecord) => machineOf.get(r)! }
      : undefined;
  const summary = summarize(timed, columns, baseline, { value: msPerStep, modelAxes, axis });
  const present = columns.filter((c) => summary.rows.some((r) => r.cells[c]));
  const digits = (mean: number): number => (mean >= 100 ? 0 : 1);
  return {
    head: [...summary.rowLabels, ...present],
    body: summary.rows.map((row) => {
      const base = row.cells[baseline];
      const cell = (c: string): string => {
        const s = row.cells[c];
        if (!s || s.n === 0) return '—';
        const d = digits(s.mean);
        const time = spread(s.mean.toFixed(d), s.std.toFixed(d), s.n);
        const ratio =
          c !== baseline && base && base.n > 0 && base.mean > 0
            ? ` · ${(s.mean / base.mean).toFixed(2)}×`
            : '';
        return `${time}${ratio}`;
      };
      return [...summary.rowLabels.map((l) => row.labels[l] ?? ''), ...present.map(cell)];
    }),
  };
}
