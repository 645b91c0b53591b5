// The grid's shapes, a leaf the presets, the planner and both executors read: a grid's axes and
// settings (GridSpec), and the executor interface (what a grid run is told, plans and returns).
import type { ProgressDisplay } from './progress.js';
import type {
  BracketMode,
  GptSettings,
  RunRecord,
  RunSettings,
  TrainingSettings,
  Variant,
} from '../types.js';

/**
 * The grid axes and training settings of one experiment. Flags override single fields.
 * DQA grids use `samplerColumns` instead of `variants` (the variant is always `boltzmann`).
 */
export interface GridSpec extends TrainingSettings {
  readonly variants: readonly Variant[];
  readonly lengths: readonly number[];
  readonly seeds: readonly number[];
  readonly steps: number;
  readonly dModels: readonly number[];
  readonly ffns: readonly boolean[];
  readonly ffnHidden: number | null;
  readonly modes: readonly BracketMode[];
  readonly types: number;
  readonly checkpointEvery: number;
  readonly logEvery: number;
  /** Datasets of a DQA grid. */
  readonly datasets: readonly ('shakespeare' | 'brackets')[];
  /** Shots of the DQA columns (0 = exact output distribution); exact training is always added. */
  readonly shots: readonly number[];
  /** Defaults of `--layers`, `--heads` and `--sampler` (1, 1 and `exact` when absent). */
  readonly layers?: number;
  readonly heads?: number;
  readonly sampler?: string;
  /** gpt: the positional table's size (nanoGPT's block_size); `--lengths` may not exceed it. */
  readonly positions?: number;
  /** gpt: the nanoGPT-protocol settings every run of the grid carries. */
  readonly gpt?: GptSettings;
  /**
   * Tokens per training batch: each run's batch size is `tokensPerBatch / T` (so every length
   * trains on the same number of tokens per step); overrides `batchSize`.
   */
  readonly tokensPerBatch?: number;
}

/** A run that ended in an error. */
export interface RunFailure {
  readonly id: string;
  readonly label: string;
  readonly code: string;
  readonly message: string;
}

/** What happened to a grid. */
export interface GridOutcome {
  readonly total: number;
  /** Finished records of this grid (earlier sessions included), in grid order. */
  readonly records: readonly RunRecord[];
  readonly failures: readonly RunFailure[];
  readonly interrupted: boolean;
}

/** Options of {@link runGrid}. */
export interface GridRunOptions {
  /** Worker processes; 0 runs the grid sequentially in this process (debugging, tests). */
  readonly workers: number;
  readonly settings: RunSettings;
  readonly progress: ProgressDisplay;
  /** Aborting it stops the workers; each checkpoints its current run. */
  readonly signal?: AbortSignal;
  /** Print the plan and estimate, run nothing. */
  readonly dryRun?: boolean;
  readonly out?: (line: string) => void;
  /** Told the plan once it is known (before any run starts): how `bench long-context` adds its slices up. */
  readonly onPlan?: (plan: GridPlan) => void;
}

/** What a grid is about to do. */
export interface GridPlan {
  readonly runs: number;
  /** Runs still to train (new or resuming). */
  readonly pending: number;
  /** The ETA model's wall time for them on the grid's workers. */
  readonly etaSeconds: number;
}
