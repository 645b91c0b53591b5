// What an experiment is (a leaf of types): the module each of shakespeare, brackets, dqa and gpt
// declares in experiments/, and the typed table of them (registry.ts) the bench reads instead of
// branching on the experiment's name.
import type { TrainerOptions, TransformerConfig } from '@boltzmann/attention';
import type { Command } from 'commander';
import type { BenchCommand, ExperimentSettings, GridSpec, PresetName } from '../benchCommand.js';
import type { ExperimentReport, ReportExtras } from '../report/sections.js';

export type { ColumnOrder, ExperimentReport } from '../report/sections.js';
import type { DatasetName, Experiment, RunConfig, Variant } from '../types.js';
import type { RunRecord } from '../recordTypes.js';

/** A grid spec while flags override its fields. */
export type MutableGrid = { -readonly [K in keyof GridSpec]: GridSpec[K] };

/** Reads one parsed flag by its camelCased name: its string value, or undefined when not given. */
export type ReadFlag = (key: string) => string | undefined;

/** A run's evaluation: mean loss, and the right predictions of the positions counted. */
export interface Evaluation {
  readonly loss: number;
  readonly correct: number;
  readonly count: number;
}

/** What a run reports from each evaluation: the metric's name (in its record) and value. */
export interface RunMetric {
  readonly name: RunRecord['metricName'];
  readonly of: (e: Evaluation) => number;
  /** Which way is better (early stopping's improvement): lower perplexity, higher accuracy. */
  readonly better: 'lower' | 'higher';
}

/** One column of the summary tables as a run of the grid fills it. */
export interface RunColumn {
  readonly column: string;
  readonly variant: Variant;
  readonly sampler: string;
  readonly samplerOptions: Record<string, unknown>;
}

/**
 * One experiment (a `bench <name>` grid command): its presets, its own flags, and the hooks where
 * it differs from the others. A hook left out means the common behaviour.
 */
export interface ExperimentModule {
  readonly name: Experiment;
  /** Its presets; `small` is the default. */
  readonly presets: Readonly<Partial<Record<PresetName, GridSpec>>>;
  /** Declares its own flags (beyond every grid's, commands/gridFlags.ts) on its command. */
  readonly addFlags: (cmd: Command) => Command;
  /** Applies its own flags: overrides of its grid, and what they set besides (ExperimentSettings). */
  readonly applyFlags: (read: ReadFlag, grid: MutableGrid) => ExperimentSettings;
  /** Checks the grid once every flag is applied. @throws BENCH_INVALID_OPTION */
  readonly checkGrid?: (grid: GridSpec) => void;
  /** Its summary rows name d_model and FFN (its presets vary them); default: no. */
  readonly modelAxesInRows?: boolean;
  /** The datasets its runs train on. */
  readonly datasets: (grid: GridSpec) => DatasetName[];
  /** The metric a run reports (experiments/datasetRules.ts: perplexity or accuracy, by dataset). */
  readonly metric: (config: RunConfig) => RunMetric;
  /**
   * Checks the data of the grid's runs before any run (also in `--dry-run`): the corpus is there
   * and intact, the bracket tasks are possible. @throws DatasetError codes
   */
  readonly checkData: (command: BenchCommand, configs: readonly RunConfig[]) => Promise<void>;
  /** The columns of one seed (default: one per variant, sampled ones with `--sampler`). */
  readonly columns?: (command: BenchCommand, seed: number) => RunColumn[];
  /** What a run's id and label call its task (default: the dataset, and a bracket run's mode). */
  readonly runName?: (config: RunConfig) => { readonly id: string; readonly label: string };
  /**
   * Its own grid axes at one length: the config fields of each of its cells (recall: one per number
   * of pairs that fits in T); each cell is a run of every column and seed. Default: one, no fields.
   */
  readonly cells?: (grid: GridSpec, length: number) => Partial<RunConfig>[];
  /** Fields of each run's config besides the axes' (e.g. gpt's protocol and evaluation rows). */
  readonly runFields?: (grid: GridSpec, batchSize: number) => Partial<RunConfig>;
  /** The sampler options its sampled runs hash and use (default: `--sampler-options`). */
  readonly samplerOptions?: (
    sampler: string,
    options: Record<string, unknown>,
  ) => Record<string, unknown>;
  /** Trainer settings of a run beyond the common ones (lr schedule, clip, weight decay). */
  readonly trainerOptions?: (config: RunConfig) => Partial<TrainerOptions>;
  /** Model settings of a run beyond the common ones. */
  readonly modelOptions?: (config: RunConfig) => Partial<TransformerConfig>;
  /** Runs after a finished (not interrupted) grid, before the report; what it gives is reported. */
  readonly afterGrid?: (
    command: BenchCommand,
    out: (line: string) => void,
  ) => Promise<ReportExtras>;
  /** What it adds to its report (a lazy import: plotting is heavy for a training worker). */
  readonly report?: () => Promise<ExperimentReport>;
}
