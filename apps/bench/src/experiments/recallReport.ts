// What `bench recall` adds to its report: test accuracy at the queries against the number of
// key–value pairs, one panel per sequence length, as Zoology's figures plot it.
import { ACCURACY_RANGE, lengthPoints, lengthSpec } from '../report/plots/lengthPlot.js';
import type { LengthPoint } from '../report/plots/lengthPlot.js';
import type { ReportSection } from '../report/sections.js';
import type { RunRecord } from '../recordTypes.js';
import type { ExperimentReport } from './types.js';

/**
 * The points of the recall plot: per (length, column, pairs), the final accuracy of every seed.
 * `lengthSpec` draws its `T` field on the x axis, so the pairs go there and the length names the panel.
 */
export function recallPoints(records: readonly RunRecord[]): LengthPoint[] {
  return lengthPoints(records, (r) => {
    const pairs = r.config.recall?.kvPairs;
    return pairs === undefined ? undefined : { group: `T=${r.config.length}`, T: pairs };
  });
}

/** The report hooks of `bench recall` (see {@link ExperimentReport}). */
export const RECALL_REPORT: ExperimentReport = {
  leadSections: (dataset, records): ReportSection[] => {
    const points = recallPoints(records);
    return [
      {
        kind: 'plot',
        name: `${dataset}-accuracy-vs-pairs`,
        title: `${dataset}: test accuracy at the queries against key–value pairs, one panel per sequence length`,
        spec:
          points.length === 0
            ? null
            : lengthSpec(points, 'query accuracy', 'key–value pairs', ACCURACY_RANGE),
      },
    ];
  },
};
