// Where early stopping ended the runs of a report (`--early-stop-patience`): per grid row and
// column, the step of the best evaluation (the one each record reports), the step trained to, and
// how many runs stopped before their cap.
import { trainedSteps } from '../results/earlyStopChecks.js';
import type { RunRecord } from '../recordTypes.js';
import { summarize } from './summary.js';
import type { Stat } from './summary.js';
import type { Table } from './summaryTable.js';

const steps = (s: Stat): string =>
  s.n > 1 ? `${Math.round(s.mean)} ± ${Math.round(s.std)}` : `${Math.round(s.mean)}`;

/**
 * The early-stopping table: `best → end (k/n early)` per row and column, mean ± std over seeds
 * of the best evaluation's step and of the steps trained; k of the n runs stopped before their cap.
 * With learning-rate decays on a plateau, `; rate decayed at s₁, s₂` adds the mean step of each
 * decay that every run of the cell made.
 *
 * @returns the table, or null when no run had early stopping.
 */
export function earlyStopTable(
  records: readonly RunRecord[],
  columns: readonly string[],
  baseline: string,
  modelAxes = false,
): Table | null {
  const runs = records.filter((r) => r.earlyStop !== undefined);
  if (runs.length === 0) return null;
  const of = (value: (r: RunRecord) => number) =>
    summarize(runs, columns, baseline, { value, modelAxes });
  const best = of((r) => r.earlyStop!.bestStep);
  const end = of(trainedSteps);
  const early = of((r) => (r.earlyStop!.stoppedAtStep === null ? 0 : 1));
  // The learning-rate decays on a plateau (`--early-stop-lr-decays`): the mean step of each.
  const most = Math.max(...runs.map((r) => r.earlyStop!.lrDecays ?? 0));
  const decays = Array.from({ length: most }, (_, i) =>
    of((r) => r.earlyStop!.lrDecaySteps?.[i] ?? Number.NaN),
  );
  const present = columns.filter((c) => best.rows.some((r) => r.cells[c]));
  return {
    head: [...best.rowLabels, ...present],
    body: best.rows.map((row, k) => {
      const cell = (c: string): string => {
        const [b, e, n] = [row.cells[c], end.rows[k]!.cells[c], early.rows[k]!.cells[c]];
        if (!b || !e || !n || b.n === 0) return '—';
        const at = decays
          .map((d) => d.rows[k]!.cells[c])
          .filter((d): d is Stat => d != null && Number.isFinite(d.mean));
        const decayed = at.length === 0 ? '' : `; rate decayed at ${at.map(steps).join(', ')}`;
        return `${steps(b)} → ${steps(e)} (${Math.round(n.mean * n.n)}/${n.n} early${decayed})`;
      };
      return [...best.rowLabels.map((l) => row.labels[l] ?? ''), ...present.map(cell)];
    }),
  };
}
