// The shapes of run tracking: one row of a run's metrics (what `metrics/<id>.jsonl` holds, one
// JSON object a line) and the trackers training hands each row to (the metrics file, and with
// `--tensorboard` the TensorBoard event files).
import type { ConvergenceSummary } from '@boltzmann/ising-core';
import type { RunConfig, RunSettings } from '../types.js';
import type { RunRecord } from '../recordTypes.js';

/** Which event of the training loop wrote a {@link MetricsRow}. */
export type MetricsEvent = 'train' | 'eval';

/**
 * One event of a run in training, one line of `metrics/<id>.jsonl`. A `train` row closes a
 * train-loss interval (every `logEvery` steps and at the last step); an `eval` row is an
 * evaluation. Both may share a step: they are two rows, the `train` one first. Fields absent from
 * a row do not apply to its event (or to its run: `convergence` only for samplers that report it).
 */
export interface MetricsRow {
  readonly event: MetricsEvent;
  /** Optimizer steps done (the interval's last step, or the step evaluated at; 0 before the first). */
  readonly step: number;
  /** Wall-clock time the row was written, in unix seconds (fractional). */
  readonly time: number;
  /** `train`: mean batch loss (cross-entropy, nats) over the interval's steps. */
  readonly trainLoss?: number;
  /** `train`: the learning rate the interval's last step used (schedule and any decay included). */
  readonly lr?: number;
  /**
   * `train`: the global L2 norm of the interval's last step's gradients, before clipping to
   * `config.clipNorm` (what both trainers report as `gradNorm`).
   */
  readonly gradNorm?: number;
  /**
   * `train`: optimizer steps per second over the interval in this session (wall time less its
   * evaluations and checkpoint writes).
   */
  readonly stepsPerSecond?: number;
  /** `train`: the sampler's convergence figures over the interval (iterative samplers only). */
  readonly convergence?: ConvergenceSummary;
  /** `eval`: the validation metric's name and value (perplexity or accuracy, as the run's record). */
  readonly metricName?: 'perplexity' | 'accuracy';
  readonly metric?: number;
  /** `eval`: the validation loss (mean cross-entropy, nats). */
  readonly evalLoss?: number;
  /** `eval`, `bench gpt` only: the loss over its random train batches. */
  readonly trainEvalLoss?: number;
}

/** What a tracker knows of its run when the run starts (or resumes). */
export interface TrackerContext {
  readonly id: string;
  readonly config: RunConfig;
  readonly settings: RunSettings;
  /**
   * The step the run starts from: its checkpoint's (rows after it were not kept by the checkpoint
   * and are written again), or 0 for a fresh start (every earlier row is dropped).
   */
  readonly startStep: number;
  /** Warnings (a torn last line dropped, …). */
  readonly warn: (message: string) => void;
}

/**
 * A sink of a run's metrics. Training calls `row` for each event in step order, `finish` once
 * with the record when the run finished (not when it stopped to resume later), then `close`
 * (always, also when the run stopped or failed).
 */
export interface RunTracker {
  row(r: MetricsRow): void;
  finish?(record: RunRecord): void | Promise<void>;
  close(): void | Promise<void>;
}

/** Makes a run's tracker, or undefined when it does not apply to the run (a flag not given). */
export type TrackerFactory = (context: TrackerContext) => RunTracker | undefined;
