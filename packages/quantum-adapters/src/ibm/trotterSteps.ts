// The Trotter step count of a hardware run, chosen from the device's calibration: the most steps
// whose routed circuit keeps its expected fidelity (circuitFidelity.ts) at or above a threshold,
// at dqa-sim's default step size (τ = K · 16/64, so each step stays the same Trotter step and the
// first-order calibration stays valid; a 4-step anneal is then τ = 1).
import type { AnnealOptions } from '@boltzmann/dqa-sim';
import { invalidArgument } from '../shared/errors.js';
import type { IsaCircuit } from './ibmTypes.js';

/**
 * The threshold a hardware run's circuits should meet by default: a quarter of shots error-free.
 *
 * @category IBM Quantum
 */
export const DEFAULT_MIN_FIDELITY = 0.25;
/** The most steps a choice tries: dqa-sim's default step count. */
export const MAX_CHOSEN_STEPS = 64;
/** dqa-sim's default step size, τ / K = 16 / 64. */
export const DEFAULT_STEP_TIME = 0.25;

/**
 * The steps and anneal time of the circuits of one spin count, and their expected fidelity.
 *
 * @category IBM Quantum
 */
export interface StepChoice {
  readonly spins: number;
  readonly steps: number;
  /** The anneal time τ the steps imply (K · 0.25, or the `tau` the options fix). */
  readonly tau: number;
  /** Expected fidelity of the first circuit of this size (undefined without a calibration). */
  readonly fidelity: number | undefined;
  /** How the steps came: chosen by the threshold, or given by `anneal.steps`, or dqa-sim's default (no calibration). */
  readonly source: 'fidelity' | 'options' | 'default';
  /** True when even this choice falls below the threshold. */
  readonly belowThreshold: boolean;
}

/**
 * Chooses the steps for circuits of `spins` spins. With `anneal.steps` given, those steps (and
 * their fidelity); without a calibration, dqa-sim's defaults; else the largest K in 1 … 64 whose
 * circuit's fidelity is ≥ `minFidelity` (fidelity falls as K grows: a binary search), or 1 step
 * when none reaches it (`belowThreshold`).
 *
 * @param route the routed circuit of this size's first problem at given steps and τ.
 * @param fidelityOf its expected fidelity, or undefined without a calibration.
 */
export function chooseSteps(
  spins: number,
  anneal: Pick<AnnealOptions, 'steps' | 'tau'> | undefined,
  minFidelity: number,
  route: (steps: number, tau: number) => IsaCircuit,
  fidelityOf: (circuit: IsaCircuit) => number | undefined,
): StepChoice {
  const tauOf = (steps: number): number => anneal?.tau ?? steps * DEFAULT_STEP_TIME;
  const at = (steps: number) => fidelityOf(route(steps, tauOf(steps)));
  const choice = (steps: number, fidelity: number | undefined, source: StepChoice['source']) => ({
    spins,
    steps,
    tau: tauOf(steps),
    fidelity,
    source,
    belowThreshold: fidelity !== undefined && fidelity < minFidelity,
  });
  if (anneal?.steps !== undefined) return choice(anneal.steps, at(anneal.steps), 'options');
  const top = at(MAX_CHOSEN_STEPS);
  if (top === undefined) return choice(MAX_CHOSEN_STEPS, undefined, 'default');
  if (top >= minFidelity) return choice(MAX_CHOSEN_STEPS, top, 'fidelity');
  let lo = 1;
  let loFidelity = at(1)!;
  if (loFidelity < minFidelity) return choice(1, loFidelity, 'fidelity');
  let hi = MAX_CHOSEN_STEPS; // fails; lo passes
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    const f = at(mid)!;
    if (f >= minFidelity) [lo, loFidelity] = [mid, f];
    else hi = mid;
  }
  return choice(lo, loFidelity, 'fidelity');
}

/** The `minFidelity` option checked: a number in [0, 1] (default {@link DEFAULT_MIN_FIDELITY}). */
export function minFidelityOf(value: unknown): number {
  if (value === undefined) return DEFAULT_MIN_FIDELITY;
  if (typeof value === 'number' && value >= 0 && value <= 1) return value;
  throw invalidArgument(`minFidelity must be a number in [0, 1], got ${String(value)}`);
}
