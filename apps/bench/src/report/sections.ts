// The pieces a report is composed of (writeReport.ts renders them; experiments add their own).
import type { TopLevelSpec } from 'vega-lite';
import type { FidelityPoint } from './plots/plots.js';
import type { RunRecord } from '../recordTypes.js';

/** A table as header cells and body rows of text. */
export interface Table {
  readonly head: string[];
  readonly body: string[][];
}

/** A titled table, with an optional note; left out when `table` is null. */
export interface TableSection {
  readonly kind: 'table';
  readonly title: string;
  readonly table: Table | null;
  readonly note?: string;
}

/** A titled plot saved as `plots/<name>.svg`; left out when `spec` is null. */
export interface PlotSection {
  readonly kind: 'plot';
  readonly name: string;
  readonly title: string;
  readonly spec: TopLevelSpec | null;
}

/** One section of a report. */
export type ReportSection = TableSection | PlotSection;

/** A headed part of a report after the datasets (an extrapolation, the DQA fidelity sweep). */
export interface ReportPart {
  readonly heading: string;
  readonly sections: readonly ReportSection[];
}

/** What an experiment saved beside its runs that goes into the report with them. */
export interface ReportExtras {
  /** `bench dqa`: the fidelity sweep (fidelity.json). */
  readonly fidelity?: readonly FidelityPoint[];
}

/** The summary columns in table order and the one the others are paired with. */
export interface ColumnOrder {
  readonly columns: string[];
  readonly baseline: string;
}

/**
 * What an experiment adds to its report (experiments/ declare it; the caller of writeReport passes
 * it in, so the report never imports the experiments).
 */
export interface ExperimentReport {
  /** The columns and baseline of a dataset's tables (default: the variants, paired with softmax). */
  readonly columnOrder?: (present: readonly string[]) => ColumnOrder;
  /** Sections of a dataset before its summary table. */
  readonly leadSections?: (dataset: string, records: readonly RunRecord[]) => ReportSection[];
  /** Whether a dataset gets the time-per-step table (default: yes). */
  readonly timeTable?: (records: readonly RunRecord[]) => boolean;
  /** A part after the datasets, from what the experiment saved beside its runs. */
  readonly closingPart?: (extras: ReportExtras) => ReportPart | null;
  /** The summary rows name d_model and FFN (the experiment's presets vary them); default: no. */
  readonly modelAxesInRows?: boolean;
}
