import { summarize } from './summary.js';
import { spread } from './summaryTable.js';
import type { Table } from './summaryTable.js';
import { trainedSteps } from '../results/earlyStopChecks.js';
import type { RunRecord } from '../recordTypes.js';

/** A run's wall time per training step in milliseconds (its evaluations included; the steps it trained, early stopping's too). */
export const msPerStep = (r: RunRecord): number => (1000 * r.wallSeconds) / trainedSteps(r);

/**
 * Time per training step per grid row and column, in ms: mean ± std over seeds of each run's
 * wall time divided by its steps (evaluation passes included), then `· r×`, the column's mean
 * over the baseline's. Runs of a grid share the machine with its other workers, so compare within a row.
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
  const summary = summarize(timed, columns, baseline, { value: msPerStep, modelAxes });
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
