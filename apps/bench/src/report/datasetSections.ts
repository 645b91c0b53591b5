// The sections every dataset of a report has after its summary table: the trend, approximation
// and time tables, then the plots of the metric, the losses, the learned couplings, the
// samplers' convergence and the attention maps. An experiment adds its own (experiments/).
import { approximationCostTable } from './approximationCost.js';
import { convergenceSpec, convergenceTable } from './convergenceReport.js';
import { couplingBandsTable } from './couplingBands.js';
import { attentionMapSpec } from './plots/attentionMapPlot.js';
import { couplingDistanceSpec } from './plots/couplingDistancePlot.js';
import { couplingHeatmapSpec } from './plots/couplingHeatmapPlot.js';
import { couplingProfileSpec } from './plots/couplingProfilePlot.js';
import { earlyStopTable } from './earlyStopTable.js';
import { environmentNote } from './environmentNote.js';
import { metricVsLengthSpec } from './plots/lengthPlot.js';
import { curvesSpec, trainLossSpec } from './plots/plots.js';
import type { PlotSection, ReportSection } from './sections.js';
import type { Summary } from './summary.js';
import { timeBasisNote, timeTable } from './timeTable.js';
import { trendTable } from './trendTable.js';
import type { RunRecord } from '../recordTypes.js';

/** One dataset's runs as its report section sees them. */
export interface DatasetRuns {
  readonly dataset: string;
  readonly records: readonly RunRecord[];
  readonly summary: Summary;
  readonly columns: readonly string[];
  readonly baseline: string;
  /** Rows name d_model and FFN too (the experiment's ExperimentReport.modelAxesInRows). */
  readonly modelAxes: boolean;
}

/** The tables after the summary: the trend with T, the approximations' cost, time per step. */
function datasetTables(d: DatasetRuns, withTime: boolean): ReportSection[] {
  const { records, columns, baseline, modelAxes } = d;
  return [
    {
      kind: 'table',
      title: `Does the difference to ${baseline} grow with T?`,
      table: trendTable(records, columns, baseline),
      note: `Per seed, the least-squares slope of the paired difference to ${baseline} (perplexity: relative, in %; accuracy: in points) against log₂ T, over the lengths where both ran; mean ± std over seeds, and a t-test of the slopes against 0.`,
    },
    {
      kind: 'table',
      title: 'The approximations against exact Boltzmann attention',
      table: approximationCostTable(records, columns),
      note: 'Per-seed paired differences to exact Boltzmann attention (the exact sampler), where it ran.',
    },
    {
      kind: 'table',
      title: 'Early stopping',
      table: earlyStopTable(records, columns, baseline, modelAxes),
      note: 'Where early stopping ended the runs: the step of the best evaluation (whose metric each run reports) → the steps trained, mean ± std over seeds, and how many runs stopped before their step cap (with learning-rate decays on a plateau, the mean step of each decay every run made).',
    },
    {
      kind: 'table',
      title: 'Time per training step',
      table: withTime ? timeTable(records, columns, baseline, modelAxes) : null,
      note: `${timeBasisNote(records)}, mean ± std over seeds, then · the ratio to the baseline. Runs of a grid share the machine with its other workers. ${environmentNote(records)}`,
    },
  ];
}

/** The plots of the metric and losses, and of the learned couplings. */
function datasetPlots(d: DatasetRuns): ReportSection[] {
  const { dataset, records, summary } = d;
  const plot = (name: string, title: string, spec: PlotSection['spec']): PlotSection => ({
    kind: 'plot',
    name: `${dataset}-${name}`,
    title: `${dataset}: ${title}`,
    spec,
  });
  return [
    plot(
      'metric-vs-length',
      `${summary.metricName} against context length`,
      metricVsLengthSpec(records),
    ),
    plot('curves', `${summary.metricName} during training`, curvesSpec(records)),
    plot('train-loss', 'training loss', trainLossSpec(records)),
    plot(
      'couplings',
      'learned couplings J (boltzmann, mean over seeds)',
      couplingHeatmapSpec(records),
    ),
    plot('coupling-distance', 'mean J against distance |j − l|', couplingDistanceSpec(records)),
    plot(
      'coupling-profile',
      'mean learned J by distance, every layer and head (mean over seeds)',
      couplingProfileSpec(records),
    ),
  ];
}

/**
 * The sections of one dataset after its summary table, in report order.
 *
 * @param withTime whether it has the time-per-step table (an experiment may leave it out).
 */
export function datasetSections(d: DatasetRuns, withTime: boolean): ReportSection[] {
  const { dataset, records } = d;
  const convergence = convergenceTable(records);
  return [
    ...datasetTables(d, withTime),
    ...datasetPlots(d),
    {
      kind: 'table',
      title: 'Learned J by distance band',
      table: couplingBandsTable(records),
      note: "Mean J over the distances of each band, mean ± std over heads and seeds; the last column counts the (seed, head) pairs with the paper's pattern.",
    },
    {
      kind: 'table',
      title: 'Convergence of the iterative samplers during training',
      table: convergence,
    },
    {
      kind: 'plot',
      name: `${dataset}-convergence`,
      title: `${dataset}: fixed-point convergence during training`,
      spec: convergence ? convergenceSpec(records) : null,
    },
    {
      kind: 'plot',
      name: `${dataset}-attention-maps`,
      title: `${dataset}: attention weights of one fixed sequence (layer 0, head 0; mean over seeds)`,
      spec: attentionMapSpec(records),
    },
  ];
}
