// The pieces a report is composed of (writeReport.ts renders them; experiments add their own).
import type { TopLevelSpec } from 'vega-lite';
import type { FidelityPoint } from './plots/plots.js';

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
