// Early stopping's rule (`--early-stop-patience`, `--early-stop-min-delta`): each evaluation either
// improves on the best so far by more than `minDelta` of it, or counts against the patience; a run
// out of patience stops, or first decays its learning rate (`--early-stop-lr-decays`). What
// a checkpoint and a record keep of it, and their checks, are in results/earlyStopChecks.ts.
import type { EarlyStopState } from '../results/earlyStopChecks.js';
import type { EarlyStopRecord, EarlyStopSettings } from '../types.js';

export type { EarlyStopState } from '../results/earlyStopChecks.js';

/**
 * Whether `value` improves on `best` by more than `minDelta` of it (relative), in the metric's
 * direction. A NaN never improves, and anything but NaN improves on a NaN best.
 *
 * @example
 * improves(9.9, 10, 0.001, 'lower'); // true: 1 % better than 10
 * improves(9.995, 10, 0.001, 'lower'); // false: 0.05 % is within the tolerance
 */
export function improves(
  value: number,
  best: number,
  minDelta: number,
  better: 'lower' | 'higher',
): boolean {
  if (Number.isNaN(value)) return false;
  if (Number.isNaN(best)) return true;
  return better === 'lower' ? value < best * (1 - minDelta) : value > best * (1 + minDelta);
}

/**
 * The state after the evaluation at `step` (metric `value`, loss `loss`): a new best, or one more
 * evaluation since the best. The first evaluation is the first best.
 */
export function observeEvaluation(
  state: EarlyStopState | undefined,
  settings: EarlyStopSettings,
  better: 'lower' | 'higher',
  evaluation: { readonly step: number; readonly value: number; readonly loss: number },
): EarlyStopState {
  const { step, value, loss } = evaluation;
  if (state === undefined || improves(value, state.bestValue, settings.minDelta, better)) {
    const decays = settings.lrDecays ? { lrDecaySteps: state?.lrDecaySteps ?? [] } : {};
    return { bestStep: step, bestValue: value, bestLoss: loss, sinceBest: 0, ...decays };
  }
  return { ...state, sinceBest: state.sinceBest + 1 };
}

/**
 * What a run out of patience at evaluation step `step` does: stop, or (while it has
 * `settings.lrDecays` left) decay its rate by `settings.lrDecayFactor` and count its patience
 * afresh, keeping its best. Returns the state after it and the factor to apply (null to stop).
 */
export function onPlateau(
  state: EarlyStopState,
  settings: EarlyStopSettings,
  step: number,
): { state: EarlyStopState; lrFactor: number | null } {
  const done = state.lrDecaySteps ?? [];
  if (done.length >= (settings.lrDecays ?? 0)) return { state, lrFactor: null };
  return {
    state: { ...state, sinceBest: 0, lrDecaySteps: [...done, step] },
    lrFactor: settings.lrDecayFactor ?? 0.1,
  };
}

/** Whether the run has run out of patience: `patience` evaluations in a row without a new best. */
export const outOfPatience = (
  state: EarlyStopState | undefined,
  settings: EarlyStopSettings | undefined,
): boolean => state !== undefined && settings !== undefined && state.sinceBest >= settings.patience;

/** A state read back from JSON, where a NaN metric or loss was written as null. */
export function restoredState(state: EarlyStopState | undefined): EarlyStopState | undefined {
  if (state === undefined) return undefined;
  return {
    ...state,
    bestValue: state.bestValue ?? Number.NaN,
    bestLoss: state.bestLoss ?? Number.NaN,
  };
}

/**
 * What the run's record says of its early stopping.
 *
 * @param stoppedAtStep the step it stopped at, or null when it trained to its cap.
 */
export function earlyStopRecordOf(
  settings: EarlyStopSettings,
  state: EarlyStopState,
  stoppedAtStep: number | null,
): EarlyStopRecord {
  const { patience, minDelta, lrDecays, lrDecayFactor } = settings;
  const decays = lrDecays
    ? { lrDecays, lrDecayFactor, lrDecaySteps: state.lrDecaySteps ?? [] }
    : {};
  return {
    patience,
    minDelta,
    ...decays,
    stoppedAtStep,
    bestStep: state.bestStep,
    bestValue: state.bestValue,
  };
}
