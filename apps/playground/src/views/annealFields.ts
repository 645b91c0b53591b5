/** The Anneal panel's inputs: the problem (spins, seed, β), the anneal (τ, schedule, calibration) and the time t. */
import { KL_TAUS, MAX_ANNEAL_SPINS } from '../anneal/annealModel.js';
import type { AnnealSettings } from '../anneal/annealModel.js';
import { h, numberRow, rangeRow, selectRow } from '../dom.js';
import { boundNumber } from '../inputBounds.js';
import type { NumberSpec } from '../inputBounds.js';

/** Trotter steps of every anneal: the time slider's positions are t = k τ / this. */
export const TROTTER_STEPS = 64;
/** The problem number: any integer in range, 1 to start with. */
export const SEED: NumberSpec = { label: 'Problem', min: 0, max: 1e6, integer: true, fallback: 1 };

type SelectRow = ReturnType<typeof selectRow>;
type RangeRow = ReturnType<typeof rangeRow>;

/** The panel's fields, each a label and its input. */
export interface AnnealFields {
  readonly spins: RangeRow;
  readonly seed: ReturnType<typeof numberRow>;
  readonly beta: RangeRow;
  readonly tau: SelectRow;
  readonly schedule: SelectRow;
  readonly calibrate: SelectRow;
  /** The time t of the frame shown, in Trotter steps k (t = k τ / K). */
  readonly time: RangeRow;
}

/**
 * The fields at their starting values: 5 spins, problem 1, β = 1, τ = 8, the linear schedule,
 * the linear-response calibration, and t = τ.
 *
 * @returns the fields
 */
export function annealFields(): AnnealFields {
  const spins = rangeRow(
    'anneal-spins',
    'Spins n',
    { min: 2, max: MAX_ANNEAL_SPINS, step: 1, value: 5 },
    (v) => String(v),
  );
  const seed = numberRow('anneal-seed', 'Problem', { ...SEED, step: 1, value: SEED.fallback });
  const beta = rangeRow('anneal-beta', 'β', { min: 0.25, max: 3, step: 0.25, value: 1 }, (v) =>
    v.toFixed(2),
  );
  const tau = selectRow(
    'anneal-tau',
    'Anneal time τ',
    KL_TAUS.map((t) => ({ value: String(t), label: String(t) })),
    '8',
  );
  const schedule = selectRow(
    'anneal-schedule',
    'Schedule',
    [
      { value: 'linear', label: 'linear: A = 1 − u, B = u' },
      { value: 'dwave', label: 'D-Wave-like: A = (1 − u)³, B = u²' },
    ],
    'linear',
  );
  const calibrate = selectRow(
    'anneal-calibrate',
    'Calibration',
    [
      { value: 'linear-response', label: 'linear response' },
      { value: 'effective-temperature', label: 'effective temperature' },
      { value: 'none', label: 'none (raw βh, βJ)' },
    ],
    'linear-response',
  );
  const time = rangeRow(
    'anneal-time',
    'Time t',
    { min: 0, max: TROTTER_STEPS, step: 1, value: TROTTER_STEPS },
    (k) => `${(k / TROTTER_STEPS).toFixed(2)} τ`,
  );
  return { spins, seed, beta, tau, schedule, calibrate, time };
}

/**
 * The fields' grid: each label beside its input.
 *
 * @param f - the fields
 * @returns the `.controls` grid
 */
export function annealFieldGrid(f: AnnealFields): HTMLElement {
  return h(
    'div',
    { class: 'controls' },
    f.spins.label,
    f.spins.wrap,
    f.seed.label,
    f.seed.input,
    f.beta.label,
    f.beta.wrap,
    f.tau.label,
    f.tau.select,
    f.schedule.label,
    f.schedule.select,
    f.calibrate.label,
    f.calibrate.select,
    f.time.label,
    f.time.wrap,
  );
}

/**
 * The inputs whose change asks for a new anneal (all but the time t, which only picks a frame).
 *
 * @param f - the fields
 * @returns the inputs and selects
 */
export function problemInputs(f: AnnealFields): Array<HTMLInputElement | HTMLSelectElement> {
  return [
    f.spins.input,
    f.seed.input,
    f.beta.input,
    f.tau.select,
    f.schedule.select,
    f.calibrate.select,
  ];
}

/**
 * The anneal the fields ask for, the problem number held to its range.
 *
 * @param f - the fields
 * @returns the settings sent to the anneal worker
 */
export function readAnnealSettings(f: AnnealFields): AnnealSettings {
  return {
    spins: Number(f.spins.input.value),
    seed: boundNumber(f.seed.input.value, SEED).value,
    beta: Number(f.beta.input.value),
    tau: Number(f.tau.select.value),
    steps: TROTTER_STEPS,
    schedule: f.schedule.select.value as AnnealSettings['schedule'],
    calibrate: f.calibrate.select.value as AnnealSettings['calibrate'],
  };
}
