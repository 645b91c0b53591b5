// What an early-stopping run keeps in its checkpoint and its record, and the checks that both agree
// with the run's config and curve before they are trusted (training/earlyStop.ts applies the rule).
import { echo } from '@boltzmann/ising-core/internal';
import type { EarlyStopSettings, RunConfig } from '../types.js';
import type { CurvePoint, RunRecord } from '../recordTypes.js';

/** Early stopping's state at a checkpoint: the best evaluation so far and the patience used. */
export interface EarlyStopState {
  /** Step, metric and loss of the best evaluation so far. */
  readonly bestStep: number;
  readonly bestValue: number;
  readonly bestLoss: number;
  /**
   * Evaluations that did not improve on the best since the best or the last decay, whichever is
   * later (< patience while training).
   */
  readonly sinceBest: number;
  /** With `lrDecays`: the evaluation steps at which the rate was decayed, in order. */
  readonly lrDecaySteps?: readonly number[];
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);
const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
/** A metric as JSON gives it back: a number, or null for NaN (an accuracy over no positions). */
const isMetric = (v: unknown): boolean => typeof v === 'number' || v === null;
const same = (a: unknown, b: unknown): boolean =>
  a === b || ((a === null || Number.isNaN(a)) && (b === null || Number.isNaN(b)));

/** Why `settings` are not early-stopping settings a run can have, or undefined. */
export function earlyStopSettingsProblem(settings: unknown): string | undefined {
  if (!isObject(settings)) return `it is ${echo(settings, 60)}, not an object`;
  for (const key of Object.keys(settings))
    if (!['patience', 'minDelta', 'lrDecays', 'lrDecayFactor'].includes(key))
      return `${echo(key, 40)} is not one of its fields`;
  const { patience, minDelta, lrDecays, lrDecayFactor } = settings as Partial<EarlyStopSettings>;
  if (!(Number.isSafeInteger(patience) && patience! >= 1 && patience! <= 1_000_000))
    return `its patience must be an integer in [1, 10^6], got ${echo(patience, 40)}`;
  if (!(typeof minDelta === 'number' && Number.isFinite(minDelta) && minDelta >= 0 && minDelta < 1))
    return `its minDelta must be a number in [0, 1), got ${echo(minDelta, 40)}`;
  if (lrDecays === undefined && lrDecayFactor === undefined) return undefined;
  if (!(Number.isSafeInteger(lrDecays) && lrDecays! >= 1 && lrDecays! <= 100))
    return `its lrDecays must be an integer in [1, 100], got ${echo(lrDecays, 40)}`;
  if (!(typeof lrDecayFactor === 'number' && lrDecayFactor > 0 && lrDecayFactor < 1))
    return `its lrDecayFactor must be a number in (0, 1), got ${echo(lrDecayFactor, 40)}`;
  return undefined;
}

/**
 * Why `steps` are not decay steps of a run with `settings` whose curve is `evalMetric`, stopped
 * (or checkpointed) at `last`, or undefined: at most `lrDecays`, increasing evaluation steps up to
 * `last`; present exactly when the settings ask for decays.
 */
function decayStepsProblem(
  steps: unknown,
  settings: EarlyStopSettings,
  evalMetric: readonly unknown[] | undefined,
  last: number,
): string | undefined {
  if (!settings.lrDecays)
    return steps === undefined ? undefined : 'it has lrDecaySteps its config does not ask for';
  if (!Array.isArray(steps) || steps.length > settings.lrDecays)
    return `its lrDecaySteps are not a list of at most ${settings.lrDecays} steps`;
  const evaluated = new Set(
    (evalMetric ?? []).map((p) => (isObject(p) ? (p as { step?: unknown }).step : undefined)),
  );
  const ok = steps.every(
    (s, i) => isCount(s) && s <= last && evaluated.has(s) && (i === 0 || s > steps[i - 1]),
  );
  return ok ? undefined : 'its lrDecaySteps are not increasing evaluation steps of its curve';
}

/**
 * Why a checkpoint's early-stopping state cannot continue `config`'s run at `step`, or undefined:
 * it must be there exactly when the config asks for early stopping, name an evaluation of the
 * curve with its value, count the evaluations after it, and not have run out of patience, unless
 * it is the one a run keeps `atCap` (written after its last evaluation; training/finishRun.ts).
 */
export function earlyStopStateProblem(
  state: unknown,
  config: RunConfig,
  evalMetric: readonly CurvePoint[],
  atCap = false,
): string | undefined {
  if (config.earlyStop === undefined)
    return state === undefined
      ? undefined
      : 'it has an early-stopping state its config does not ask for';
  if (state === undefined)
    return evalMetric.length === 0 ? undefined : 'its early-stopping state is missing';
  if (!isObject(state)) return 'its early-stopping state is malformed';
  const { bestStep, bestValue, bestLoss, sinceBest, lrDecaySteps } =
    state as Partial<EarlyStopState>;
  if (!isCount(bestStep) || !isMetric(bestValue) || !isMetric(bestLoss) || !isCount(sinceBest))
    return 'its early-stopping state is malformed';
  const at = evalMetric.findIndex((p) => p.step === bestStep);
  if (at < 0 || !same(evalMetric[at]!.value, bestValue))
    return `its early-stopping best (step ${bestStep}) is not an evaluation of its curve`;
  const last = evalMetric[evalMetric.length - 1]!.step;
  const decays = decayStepsProblem(lrDecaySteps, config.earlyStop, evalMetric, last);
  if (decays !== undefined) return decays;
  // The count starts afresh at the best or at the last decay, whichever came later.
  const lastDecay = lrDecaySteps?.at(-1) ?? -1;
  const from = lastDecay > bestStep ? evalMetric.findIndex((p) => p.step === lastDecay) : at;
  if (sinceBest !== evalMetric.length - 1 - from)
    return `its early-stopping count ${sinceBest} is not the ${evalMetric.length - 1 - from} evaluations after its best or last decay`;
  // At its cap a run evaluates last and never looks at its patience (a run continuing it does).
  if (sinceBest >= config.earlyStop.patience && !atCap)
    return `its early-stopping count ${sinceBest} has reached its patience ${config.earlyStop.patience}`;
  return undefined;
}

/**
 * Why a record's `earlyStop` does not fit it, or undefined: present exactly when its config asks
 * for early stopping, with the config's settings, a best that is an evaluation of its curve and
 * its `finalMetric`, and a stop at or after the best and within the cap.
 */
export function earlyStopRecordProblem(record: RunRecord): string | undefined {
  const e: unknown = record.earlyStop;
  const asked = record.config?.earlyStop;
  if (asked === undefined)
    return e === undefined ? undefined : 'it has earlyStop without config.earlyStop';
  if (!isObject(e)) return 'its earlyStop is missing or not an object';
  const { patience, minDelta, stoppedAtStep, bestStep, bestValue } = e;
  if (
    patience !== asked.patience ||
    minDelta !== asked.minDelta ||
    e.lrDecays !== asked.lrDecays ||
    e.lrDecayFactor !== asked.lrDecayFactor
  )
    return "its earlyStop's settings are not its config's";
  if (!isCount(bestStep) || !isMetric(bestValue)) return 'its earlyStop best is malformed';
  if (!(stoppedAtStep === null || (isCount(stoppedAtStep) && stoppedAtStep >= bestStep)))
    return `its earlyStop.stoppedAtStep ${echo(stoppedAtStep, 40)} is not null or a step at or after its best`;
  if ((stoppedAtStep ?? record.config.steps) > record.config.steps)
    return `its earlyStop.stoppedAtStep ${stoppedAtStep} is past its ${record.config.steps} steps`;
  const evals = Array.isArray(record.evalMetric) ? record.evalMetric : undefined;
  const decays = decayStepsProblem(
    e.lrDecaySteps,
    asked,
    evals,
    (stoppedAtStep as number | null) ?? record.config.steps,
  );
  if (decays !== undefined) return decays;
  const best = Array.isArray(record.evalMetric)
    ? record.evalMetric.find((p) => p?.step === bestStep)
    : undefined;
  if (best === undefined || !same(best.value, bestValue) || !same(record.finalMetric, bestValue))
    return `its earlyStop best (step ${bestStep}) is not an evaluation of its curve and its finalMetric`;
  return undefined;
}

/** The steps a finished run trained: its stop with early stopping, else its config's. */
export const trainedSteps = (record: RunRecord): number =>
  record.earlyStop?.stoppedAtStep ?? record.config.steps;
