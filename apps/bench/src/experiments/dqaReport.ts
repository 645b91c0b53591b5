// What `bench dqa` adds to its report: its columns (exact training first, as the baseline, then
// the DQA columns by shots) and, after the datasets, the fidelity sweep saved beside the runs.
import { fidelitySpec } from '../report/plots/plots.js';
import type { ExperimentReport } from './types.js';

/** The report hooks of `bench dqa` (see {@link ExperimentReport}). */
export const DQA_REPORT: ExperimentReport = {
  columnOrder: (present) => {
    const dqa = present
      .filter((c) => c !== 'exact')
      .sort((a, b) =>
        a === 'dqa-dist' ? -1 : b === 'dqa-dist' ? 1 : a.localeCompare(b, 'en', { numeric: true }),
      );
    return { columns: ['exact', ...dqa], baseline: 'exact' };
  },
  closingPart: (extras) =>
    extras.fidelity && extras.fidelity.length > 0
      ? {
          heading: 'DQA fidelity sweep',
          sections: [
            {
              kind: 'plot',
              name: 'dqa-fidelity',
              title: 'DQA output against exact Boltzmann: KL and magnetization error',
              spec: fidelitySpec(extras.fidelity),
            },
          ],
        }
      : null,
};
