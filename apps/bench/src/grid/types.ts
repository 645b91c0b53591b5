// The grid's shapes, a leaf the planner and the executors read: the executor interface (what a
// grid run is told, plans and returns). A grid's axes and settings (GridSpec) are a root leaf,
// benchCommand.ts.
import type { RunConfig, RunProgress, RunSettings } from '../types.js';
import type { RunRecord } from '../recordTypes.js';
import type { EtaEngine } from './eta.js';

/** Where the grid reports what its runs are doing. */
export interface ProgressDisplay {
  /**
   * A run started (or resumed at `startStep`); `detail` (its sampler and engine, grid/whatRuns.ts)
   * is shown on the start line only.
   */
  start(id: string, label: string, steps: number, startStep: number, detail?: string): void;
  update(progress: RunProgress): void;
  /** A run ended; `status` is shown once. */
  end(id: string, status: string): void;
  /** A message that must not be overdrawn by bars. */
  log(line: string): void;
  stop(): void;
  /**
   * The grid's pending runs and the processes they train on, told once before any run starts:
   * a display that has it shows the grid's learning ETA (learnedEta.ts).
   */
  plan?(pending: readonly PendingRun[], slots: number, engine?: EtaEngine): void;
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
  /**
   * Runs neither finished nor failed that go on elsewhere: queued runs still on the workers when
   * the command returned (detached, collected early, interrupted). 0 for the local executors,
   * whose runs stop with the command (an interrupted local grid says so by `interrupted`).
   */
  readonly unfinished: number;
}

/** What every executor of a grid is told. */
export interface GridOptions {
  readonly settings: RunSettings;
  readonly progress: ProgressDisplay;
  /** Aborting it stops the grid: local runs checkpoint, a queued grid stops following its runs. */
  readonly signal?: AbortSignal;
  /** Print the plan and estimate, run nothing. */
  readonly dryRun?: boolean;
  readonly out?: (line: string) => void;
  /** Told the plan once it is known (before any run starts): how `bench long-context` adds its slices up. */
  readonly onPlan?: (plan: GridPlan) => void;
}

/** Options of a local grid (the process pool, or in this process). */
export interface GridRunOptions extends GridOptions {
  /** Worker processes; 0 runs the grid sequentially in this process (debugging, tests). */
  readonly workers: number;
}

/** What a grid is about to do. */
export interface GridPlan {
  readonly runs: number;
  /** Runs still to train (new or resuming). */
  readonly pending: number;
  /** The ETA model's wall time for them on the grid's workers. */
  readonly etaSeconds: number;
}

/** A run of the grid that has no record yet. */
export interface PendingRun {
  readonly config: RunConfig;
  readonly id: string;
  /** Its checkpoint's step, 0 for a new run. */
  readonly startStep: number;
  /** `startStep / steps`: the part of the run the ETA no longer counts. */
  readonly doneFraction: number;
}

/** A grid as its plan found the results folder: finished records and the runs left to train. */
export interface PlannedGrid {
  readonly configs: readonly RunConfig[];
  /** Finished records by run id; the executor adds the runs it finishes. */
  readonly done: Map<string, RunRecord>;
  /** Runs without a record, in grid order. */
  readonly pending: readonly PendingRun[];
}

/**
 * One way of training a grid's runs: the local process pool, this process (`--workers 0`), or the
 * BullMQ queue. The grid loop (`runGrid` in grid/executor.ts) plans the grid, then hands it over:
 * `open`, lock the results folder, plan, `announce`, `run`, `close`.
 */
export interface GridExecutor {
  /** Checks made before the results folder is locked (the queue: its Redis answers). */
  open?(): Promise<void>;
  /**
   * Whether the plan reads the results folder's checkpoints (setting aside those that do not fit):
   * local runs resume from them; queued runs resume from the checkpoints their workers keep.
   */
  readonly resumesLocalCheckpoints: boolean;
  /** Runs trained at once for `pending` runs (0: in this process); the ETA counts at least 1. */
  slots(pending: number): number;
  /** The plan's first line. The queue enqueues the runs here: its line counts what it enqueued. */
  announce(grid: PlannedGrid, etaSeconds: number): Promise<string>;
  /** Trains (or follows) the pending runs; never called for a dry run. */
  run(grid: PlannedGrid): Promise<GridOutcome>;
  /** Frees what `announce` and `run` took (the queue's connection); called once after `open`. */
  close?(): Promise<void>;
}
