// What makes a checkpoint trustworthy: its layout, and the checks that it belongs to its run and
// agrees with itself before a run continues from it (a file edited or damaged is never resumed).
import { echo } from '@boltzmann/ising-core/internal';
import type { ConvergenceSummary } from '@boltzmann/ising-core';
import { canonicalJson } from './canonicalJson.js';
import { earlyStopStateProblem } from './earlyStopChecks.js';
import type { EarlyStopState } from './earlyStopChecks.js';
import type { RunConfig } from '../types.js';
import type {
  ConvergencePoint,
  CurvePoint,
  DwaveRunSummary,
  GptEval,
  IbmRunSummary,
} from '../recordTypes.js';

/** Everything needed to continue a run exactly where it stopped. */
export interface Checkpoint {
  readonly version: 1;
  readonly id: string;
  readonly config: RunConfig;
  readonly step: number;
  readonly startedAt: string;
  readonly elapsedSeconds: number;
  readonly trainLoss: readonly CurvePoint[];
  readonly evalMetric: readonly CurvePoint[];
  /**
   * The train-loss interval still open at `step` (sum and count of its batch losses), so a
   * resumed run records the same curve as an uninterrupted one. Absent in older checkpoints,
   * which closed the interval instead.
   */
  readonly openLoss?: { readonly sum: number; readonly count: number };
  /** Convergence points so far and the open interval's figures (iterative samplers only). */
  readonly convergence?: {
    readonly points: readonly ConvergencePoint[];
    readonly open?: ConvergenceSummary;
    readonly total?: ConvergenceSummary;
  };
  /** `bench gpt`: the train/val loss curves so far. */
  readonly gptEval?: GptEval;
  /** Early stopping's best evaluation and patience count (runs with `config.earlyStop` only). */
  readonly earlyStop?: EarlyStopState;
  /** `--sampler dwave`: its calls so far (chain breaks, reads, QPU time). */
  readonly dwave?: DwaveRunSummary;
  /** `--sampler ibm`: its calls so far (jobs, chosen Trotter steps and their expected fidelity). */
  readonly ibm?: IbmRunSummary;
  /**
   * Seconds of the evaluations and checkpoint writes so far (absent in older checkpoints), and the
   * ms of every loop iteration so far, earlier sessions' too (absent before 7 Dec 2026).
   */
  readonly timing?: {
    readonly evalSeconds: number;
    readonly checkpointSeconds: number;
    readonly loopMs?: readonly number[];
  };
  readonly dataState: readonly number[];
  /** A run continued from its cap family's run (grid/capFamily.ts): that run's id and step. */
  readonly continuedFrom?: { readonly id: string; readonly step: number };
  /**
   * The run's model weights and optimizer state (`RunModelState` of training/runModel.ts). The
   * key keeps the name older checkpoints were written with, so they still resume.
   */
  readonly engine: unknown;
}

/** A `DwaveRunSummary`: finite counts and times ≥ 0, fractions in [0, 1]. */
function isDwaveSummary(v: unknown): boolean {
  if (v === null || typeof v !== 'object') return false;
  const d = v as Record<keyof DwaveRunSummary, unknown>;
  const count = (x: unknown) => typeof x === 'number' && Number.isFinite(x) && x >= 0;
  const fraction = (x: unknown) => count(x) && (x as number) <= 1;
  return (
    [d.calls, d.problems, d.reads, d.maxChainLength, d.qpuAccessTimeUs].every(count) &&
    fraction(d.chainBreakFraction) &&
    fraction(d.maxProblemChainBreakFraction)
  );
}

function isIbmSummary(v: unknown): boolean {
  if (v === null || typeof v !== 'object') return false;
  const d = v as Record<keyof IbmRunSummary, unknown>;
  const count = (x: unknown) => Number.isSafeInteger(x) && (x as number) >= 0;
  const step = (s: unknown): boolean => {
    const c = s as Record<string, unknown> | null;
    return (
      c !== null &&
      typeof c === 'object' &&
      [c.spins, c.steps].every(count) &&
      typeof c.tau === 'number' &&
      (c.fidelity === undefined ||
        (typeof c.fidelity === 'number' && c.fidelity >= 0 && c.fidelity <= 1)) &&
      typeof c.source === 'string' &&
      typeof c.belowThreshold === 'boolean'
    );
  };
  return (
    typeof d.backend === 'string' &&
    [d.calls, d.jobs, d.shots].every(count) &&
    Array.isArray(d.steps) &&
    d.steps.every(step)
  );
}

/** Points at steps `firstStep … lastStep`: evaluations may be at step 0 (bench gpt evaluates the untrained model), training losses not. */
const isCurve = (v: unknown, lastStep: number, firstStep = 1): boolean =>
  Array.isArray(v) &&
  v.every(
    (p: Partial<CurvePoint> | null) =>
      p !== null &&
      typeof p === 'object' &&
      Number.isInteger(p.step) &&
      p.step! >= firstStep &&
      p.step! <= lastStep &&
      typeof p.value === 'number',
  );

/** Whether `loopMs` is a list of at most `step` finite, non-negative milliseconds. */
function loopTimesFit(loopMs: unknown, step: unknown): boolean {
  return (
    Array.isArray(loopMs) &&
    typeof step === 'number' &&
    loopMs.length <= step &&
    loopMs.every((x) => typeof x === 'number' && Number.isFinite(x) && x >= 0)
  );
}

/**
 * Why a parsed checkpoint cannot continue `config`'s run, or undefined when it can: the id
 * and the whole config must match, the step must lie in `[0, steps]`, and the curves, data
 * state and open loss interval must be well-formed and end at or before the step.
 */
export function checkpointProblem(
  value: Partial<Checkpoint> | null,
  id: string,
  config?: RunConfig,
): string | undefined {
  if (value === null || typeof value !== 'object' || value.version !== 1)
    return 'not a version-1 checkpoint';
  if (value.id !== id) return `it belongs to run ${echo(value.id)}`;
  if (config !== undefined && canonicalJson(value.config) !== canonicalJson(config))
    return "its config differs from the run's";
  const steps = config?.steps ?? Number.POSITIVE_INFINITY;
  if (!Number.isInteger(value.step) || value.step! < 0 || value.step! > steps)
    return `its step ${echo(value.step)} is outside [0, ${steps}]`;
  if (!isCurve(value.trainLoss, value.step!) || !isCurve(value.evalMetric, value.step!, 0))
    return 'its curves are malformed or run past its step';
  const gptEval = value.gptEval;
  if (
    gptEval !== undefined &&
    !(
      gptEval !== null &&
      typeof gptEval === 'object' &&
      isCurve(gptEval.train, value.step!, 0) &&
      isCurve(gptEval.val, value.step!, 0)
    )
  ) {
    return 'its gpt train/val curves are malformed or run past its step';
  }
  // NaN entries (an RNG's "no spare normal") come back from JSON as null.
  if (
    !Array.isArray(value.dataState) ||
    !value.dataState.every((x) => typeof x === 'number' || x === null)
  )
    return 'its data state is malformed';
  if (
    !(typeof value.elapsedSeconds === 'number' && value.elapsedSeconds >= 0) ||
    typeof value.startedAt !== 'string'
  )
    return 'its timing is malformed';
  const t = value.timing;
  const seconds = (x: unknown) => typeof x === 'number' && x >= 0 && x <= value.elapsedSeconds!;
  if (
    t !== undefined &&
    !(t !== null && typeof t === 'object' && seconds(t.evalSeconds) && seconds(t.checkpointSeconds))
  )
    return 'its timing is malformed';
  if (t?.loopMs !== undefined && !loopTimesFit(t.loopMs, value.step))
    return 'its loop times are malformed or more than its steps';
  const open = value.openLoss;
  if (
    open !== undefined &&
    !(
      open !== null &&
      typeof open === 'object' &&
      Number.isInteger(open.count) &&
      open.count >= 0 &&
      Number.isFinite(open.sum)
    )
  ) {
    return 'its open loss interval is malformed';
  }
  const from = value.continuedFrom;
  if (
    from !== undefined &&
    !(
      from !== null &&
      typeof from === 'object' &&
      typeof from.id === 'string' &&
      Number.isInteger(from.step) &&
      from.step >= 0 &&
      from.step <= value.step!
    )
  )
    return 'the run it continued is malformed';
  if (value.dwave !== undefined && !isDwaveSummary(value.dwave))
    return 'its dwave figures are malformed';
  if (value.ibm !== undefined && !isIbmSummary(value.ibm)) return 'its ibm figures are malformed';
  const earlyStop =
    config &&
    earlyStopStateProblem(value.earlyStop, config, value.evalMetric!, value.step === config.steps);
  if (earlyStop !== undefined) return earlyStop;
  return stepProblem(value as Checkpoint);
}

/**
 * Why a well-formed checkpoint's step disagrees with what it holds, or undefined: the loss curve's
 * last point plus the open interval's count is the number of steps trained (older checkpoints
 * closed the interval, so their last point is the step), and the optimizer has taken exactly that
 * many steps (its step count drives the learning-rate schedule: a moved one trains another run).
 */
function stepProblem(value: Checkpoint): string | undefined {
  const recorded = (value.trainLoss.at(-1)?.step ?? 0) + (value.openLoss?.count ?? 0);
  if (recorded !== value.step)
    return `its step ${value.step} does not follow its loss curve (${recorded} steps recorded)`;
  const engine = value.engine as { trainer?: { step?: unknown } } | null | undefined;
  const trainer = engine !== null && typeof engine === 'object' ? engine.trainer : undefined;
  // A checkpoint without an optimizer state is refused when its model is built (runModel.ts).
  if (trainer !== null && typeof trainer === 'object' && trainer.step !== value.step)
    return `its optimizer's step ${echo(trainer.step)} differs from its step ${value.step}`;
  return undefined;
}
