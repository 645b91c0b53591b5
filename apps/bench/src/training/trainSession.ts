// One session of a run's training: what it accumulates between checkpoints (curves, the open
// loss interval, convergence figures), its checkpoint and its final record.
import { mergeConvergence } from '@boltzmann/ising-core';
import type { ConvergenceSummary } from '@boltzmann/ising-core';
import { runId } from '../grid/expandGrid.js';
import { experimentOf } from '../experiments/registry.js';
import type { TaskData } from '../experiments/taskData.js';
import type { Evaluation } from '../experiments/types.js';
import { observeEvaluation, restoredState } from './earlyStop.js';
import type { EarlyStopState } from './earlyStop.js';
import { mergeHardwareRuns } from './hardwareTallies.js';
import type { HardwareRuns } from './hardwareTallies.js';
import type { Checkpoint } from '../results/runFiles.js';
import type { RunConfig, RunProgress, RunSettings } from '../types.js';
import type { ConvergencePoint, CurvePoint, GptEval } from '../recordTypes.js';
import type { RunModel, RunStepResult } from './runModelTypes.js';
import { runTrackers } from '../tracking/trackers.js';
import type { RunTracker } from '../tracking/types.js';

/** Callbacks of `trainRun`. */
export interface TrainHooks {
  /** Called after every step (the caller throttles its display). */
  onProgress?(progress: RunProgress): void;
  /** Polled after every step; when true the run checkpoints and returns `'stopped'`. */
  shouldStop?(): boolean;
  /** Warnings (an unreadable checkpoint, …). */
  warn?(message: string): void;
  /**
   * Called once, before the first step, with the step the run really starts from: its
   * checkpoint's once that checkpoint was validated and its model built, else 0 (a checkpoint set
   * aside is warned about first). Displays print their start line here, never from the plan.
   */
  onStart?(startStep: number, engine?: string): void;
  /**
   * Called with each checkpoint once its file is written (`bench worker` also stores it in
   * Redis); training waits for it, so a stored checkpoint is never older than the file.
   */
  onCheckpoint?(checkpoint: Checkpoint): void | Promise<void>;
}

/** The metric a run reports from an evaluation, as its experiment declares it (perplexity or accuracy). */
export function finalMetricOf(config: RunConfig, e: Evaluation): number {
  return experimentOf(config.experiment).metric(config).of(e);
}

/** The name of that metric, and which way is better. */
export function metricOf(config: RunConfig) {
  const { name, better } = experimentOf(config.experiment).metric(config);
  return { name, better };
}

/** What a run has accumulated up to `step` (this and earlier sessions): all a checkpoint keeps. */
interface RunCurves {
  step: number;
  readonly startedAt: string;
  /** Training seconds of earlier sessions. */
  readonly previousSeconds: number;
  readonly trainLoss: CurvePoint[];
  readonly evalMetric: CurvePoint[];
  /** The train-loss interval still open (sum and count of its batch losses). */
  lossSum: number;
  lossCount: number;
  readonly convergencePoints: ConvergencePoint[];
  openConvergence: ConvergenceSummary | undefined;
  totalConvergence: ConvergenceSummary | undefined;
  /** gpt: the train and val losses of each evaluation. */
  readonly gptTrain: CurvePoint[];
  readonly gptVal: CurvePoint[];
  /** Seconds of the evaluations and of the checkpoint writes, earlier sessions included. */
  evalSeconds: number;
  checkpointSeconds: number;
  /** Early stopping's best evaluation and count (`config.earlyStop`; undefined before the first). */
  earlyStop: EarlyStopState | undefined;
  /** Hardware samplers (dwave, ibm): the calls of earlier sessions (from the checkpoint). */
  readonly hardwareBefore: HardwareRuns;
  /** The last step's learning rate and gradient norm (this session's; not checkpointed). */
  last?: Pick<RunStepResult, 'lr' | 'gradNorm'>;
}

/** A run in training: its model, data, curves and this session's clock. */
export interface TrainSession {
  readonly id: string;
  readonly config: RunConfig;
  readonly settings: RunSettings;
  readonly model: RunModel;
  readonly data: TaskData;
  readonly hooks: TrainHooks;
  readonly curves: RunCurves;
  /** `performance.now()` and the step when this session started. */
  readonly sessionStart: number;
  readonly sessionStartStep: number;
  /**
   * The run's loop iterations so far, earlier sessions' too (from the checkpoint, to 0.01 ms):
   * the ms of each, less its evaluation and checkpoint.
   */
  readonly loopMs: number[];
  /** Where the iteration under way started, and the evaluation and checkpoint seconds then. */
  readonly loopMark: { at: number; evalSeconds: number; checkpointSeconds: number };
  /** The run's trackers (tracking/trackers.ts): `metrics/<id>.jsonl`, and those flags add. */
  readonly tracker: Required<RunTracker>;
  /** The step and training seconds of the last train row (this session's start at first). */
  readonly rowMark: { step: number; seconds: number };
  /** The cap family's run this one continued (grid/capFamily.ts), when it did. */
  readonly continuedFrom?: { readonly id: string; readonly step: number };
}

/** A session that continues from `ckpt` (or starts the run when there is none). */
export function startSession(
  config: RunConfig,
  settings: RunSettings,
  model: RunModel,
  data: TaskData,
  ckpt: Checkpoint | null,
  hooks: TrainHooks,
): TrainSession {
  const step = ckpt?.step ?? 0;
  const curves: RunCurves = {
    step,
    startedAt: ckpt?.startedAt ?? new Date().toISOString(),
    previousSeconds: ckpt?.elapsedSeconds ?? 0,
    trainLoss: [...(ckpt?.trainLoss ?? [])],
    evalMetric: [...(ckpt?.evalMetric ?? [])],
    lossSum: ckpt?.openLoss?.sum ?? 0,
    lossCount: ckpt?.openLoss?.count ?? 0,
    convergencePoints: [...(ckpt?.convergence?.points ?? [])],
    openConvergence: ckpt?.convergence?.open,
    totalConvergence: ckpt?.convergence?.total,
    gptTrain: [...(ckpt?.gptEval?.train ?? [])],
    gptVal: [...(ckpt?.gptEval?.val ?? [])],
    evalSeconds: ckpt?.timing?.evalSeconds ?? 0,
    checkpointSeconds: ckpt?.timing?.checkpointSeconds ?? 0,
    earlyStop: restoredState(ckpt?.earlyStop),
    hardwareBefore: {
      ...(ckpt?.dwave === undefined ? {} : { dwave: ckpt.dwave }),
      ...(ckpt?.ibm === undefined ? {} : { ibm: ckpt.ibm }),
    },
  };
  const id = runId(config);
  const sessionStart = performance.now();
  const { evalSeconds, checkpointSeconds } = curves;
  const loopMark = { at: sessionStart, evalSeconds, checkpointSeconds };
  const session = { id, config, settings, model, data, hooks, curves, sessionStart };
  const warn = hooks.warn ?? (() => undefined);
  const tracker = runTrackers({ id, config, settings, startStep: step, warn });
  const rowMark = { step, seconds: curves.previousSeconds - evalSeconds - checkpointSeconds };
  // A checkpoint of another run is its cap family's, which this run continues.
  const continuedFrom =
    ckpt === null ? undefined : ckpt.id === id ? ckpt.continuedFrom : { id: ckpt.id, step };
  return {
    ...session,
    sessionStartStep: step,
    loopMs: [...(ckpt?.timing?.loopMs ?? [])],
    loopMark,
    tracker,
    rowMark,
    ...(continuedFrom === undefined ? {} : { continuedFrom }),
  };
}

/**
 * Ends one iteration of the training loop: its milliseconds from the end of the previous one (or
 * the session's start), less what it spent evaluating and checkpointing, join `loopMs`. Call it
 * once the iteration's step, records, progress, stop poll and checkpoint are done.
 */
export function markLoop(run: TrainSession): void {
  const now = performance.now();
  const { curves: c, loopMark: m } = run;
  const aside = c.evalSeconds - m.evalSeconds + c.checkpointSeconds - m.checkpointSeconds;
  run.loopMs.push(now - m.at - 1000 * aside);
  m.at = now;
  m.evalSeconds = c.evalSeconds;
  m.checkpointSeconds = c.checkpointSeconds;
}

/** Training seconds so far, earlier sessions included. */
export function elapsed(run: TrainSession): number {
  return run.curves.previousSeconds + (performance.now() - run.sessionStart) / 1000;
}

/** Training seconds so far, earlier sessions included: the wall time less evaluations and checkpoints. */
function trainSeconds(run: TrainSession): number {
  return elapsed(run) - run.curves.evalSeconds - run.curves.checkpointSeconds;
}

/** This session's steps per second. */
export function sessionRate(run: TrainSession): number {
  const seconds = (performance.now() - run.sessionStart) / 1000;
  return seconds > 0 ? (run.curves.step - run.sessionStartStep) / seconds : 0;
}

/**
 * Counts one finished step: its loss and convergence figures join the open interval, which is
 * closed into the curves every `logEvery` steps and at the last step (the mean of the interval:
 * a smoother curve than one noisy batch, same cost).
 *
 * @returns the step just done.
 */
export function recordStep(run: TrainSession, result: RunStepResult): number {
  const { loss, convergence, lr, gradNorm } = result;
  const c = run.curves;
  c.step += 1;
  c.last = { lr, gradNorm };
  c.lossSum += loss;
  c.lossCount += 1;
  c.openConvergence = mergeConvergence(c.openConvergence, convergence);
  if (c.step % run.settings.logEvery === 0 || c.step === run.config.steps) closeInterval(run);
  return c.step;
}

/** Closes the open train-loss interval (when it holds a step) into the curves, at the step done. */
export function closeInterval(run: TrainSession): void {
  const c = run.curves;
  if (c.lossCount === 0) return;
  const trainLoss = c.lossSum / c.lossCount;
  c.trainLoss.push({ step: c.step, value: trainLoss });
  trainRow(run, trainLoss, c.openConvergence);
  c.lossSum = 0;
  c.lossCount = 0;
  if (c.openConvergence) {
    c.convergencePoints.push({ step: c.step, ...c.openConvergence });
    c.totalConvergence = mergeConvergence(c.totalConvergence, c.openConvergence);
    c.openConvergence = undefined;
  }
}

/** The `train` row of the interval closed at the step done, to the run's trackers. */
function trainRow(run: TrainSession, trainLoss: number, convergence?: ConvergenceSummary): void {
  const { curves: c, rowMark } = run;
  const seconds = trainSeconds(run);
  const rate =
    seconds > rowMark.seconds ? (c.step - rowMark.step) / (seconds - rowMark.seconds) : undefined;
  rowMark.step = c.step;
  rowMark.seconds = seconds;
  run.tracker.row({
    event: 'train',
    step: c.step,
    time: Date.now() / 1000,
    trainLoss,
    ...c.last,
    ...(rate === undefined ? {} : { stepsPerSecond: rate }),
    ...(convergence ? { convergence } : {}),
  });
}

/** An evaluation at step `at`: the val set (every task), and for gpt the train set beside it. */
export async function evaluateAt(run: TrainSession, at: number): Promise<Evaluation> {
  const { model, data, curves } = run;
  const started = performance.now();
  const e = await model.evaluate(data.evalBatches);
  const value = finalMetricOf(run.config, e);
  curves.evalMetric.push({ step: at, value });
  const settings = run.config.earlyStop;
  if (settings !== undefined) {
    const { better } = metricOf(run.config);
    curves.earlyStop = observeEvaluation(curves.earlyStop, settings, better, {
      step: at,
      value,
      loss: e.loss,
    });
  }
  let trainEvalLoss: number | undefined;
  if (data.trainEvalBatches) {
    trainEvalLoss = (await model.evaluate(data.trainEvalBatches)).loss;
    curves.gptTrain.push({ step: at, value: trainEvalLoss });
    curves.gptVal.push({ step: at, value: e.loss });
  }
  curves.evalSeconds += (performance.now() - started) / 1000;
  run.tracker.row({
    event: 'eval',
    step: at,
    time: Date.now() / 1000,
    metricName: metricOf(run.config).name,
    metric: value,
    evalLoss: e.loss,
    ...(trainEvalLoss === undefined ? {} : { trainEvalLoss }),
  });
  return e;
}

/** gpt: the train and val curves a checkpoint and record keep. */
export function gptEvalOf(run: TrainSession): { gptEval?: GptEval } {
  return run.data.trainEvalBatches
    ? { gptEval: { train: run.curves.gptTrain, val: run.curves.gptVal } }
    : {};
}

/** Hardware samplers (dwave, ibm): the run's calls so far, earlier sessions included (nothing for others). */
export function hardwareSoFar(run: TrainSession): HardwareRuns {
  return mergeHardwareRuns(run.curves.hardwareBefore, run.model.hardwareRuns?.() ?? {});
}
