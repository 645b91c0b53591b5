// What `bench gpt` adds to its report: the nanoGPT-protocol loss table and curves lead each
// dataset, and no time-per-step table (its evaluations dominate a step's wall time).
import { gptCurvesSpec, gptTable } from '../report/gptSummary.js';
import type { ReportSection } from '../report/sections.js';
import type { RunRecord } from '../recordTypes.js';
import type { ExperimentReport } from './types.js';

const withLoss = (records: readonly RunRecord[]): RunRecord[] =>
  records.filter((r) => r.gptEval !== undefined);

/** The report hooks of `bench gpt` (see {@link ExperimentReport}). */
export const GPT_REPORT: ExperimentReport = {
  leadSections: (dataset, records): ReportSection[] => {
    const gpt = withLoss(records);
    if (gpt.length === 0) return [];
    return [
      {
        kind: 'table',
        title: 'Loss in nats per character (nanoGPT protocol)',
        table: gptTable(gpt),
      },
      {
        kind: 'plot',
        name: `${dataset}-gpt-loss`,
        title: `${dataset}: train and val loss (20 random batches of each split per evaluation)`,
        spec: gptCurvesSpec(gpt),
      },
    ];
  },
  timeTable: (records) => withLoss(records).length === 0,
};
