import { echo } from '@boltzmann/ising-core/internal';
import { DqaError } from '../errors.js';
import { effectiveTemperature } from '../effectiveTemperature.js';
import { compileSchedule } from '../schedule.js';
import type { CompiledSchedule, ScheduleSpec } from '../schedule.js';

/** Defaults shared by the simulator, the plugin and the fidelity tools. */
export const DEFAULTS = { tau: 16, steps: 64, order: 2 as 1 | 2, maxQubits: 26 };

/**
 * Most Trotter steps one anneal may take: 2^20 = 1,048,576 (the angle tables take 24 MiB, and
 * every step is a pass over the 2^n amplitudes). Checked before anything is allocated.
 * @category Annealing
 */
export const DQA_MAX_STEPS = 2 ** 20;

/** Hard ceiling: state indices are 31-bit integers. */
export const ABSOLUTE_MAX_QUBITS = 30;

/** Everything an anneal needs that does not depend on the problem. */
export interface AnnealPlan {
  readonly order: 1 | 2;
  readonly steps: number;
  readonly tau: number;
  /** X of the schedule at this τ. */
  readonly x: number;
  /** Multiplies the fields before the anneal (β, and 1/(4X) when calibrated). */
  readonly fieldScale: number;
  /** Multiplies the couplings before the anneal (β, and 1/(8X) when calibrated). */
  readonly couplingScale: number;
  /** Angle θ of each diagonal layer exp(−iθ E): `steps` (order 1) or `steps + 1` (order 2) entries. */
  readonly phaseAngles: Float64Array;
  /** Angle φ of each mixer layer Π exp(+iφ X_j) = Π Rx(−2φ): `steps` entries. */
  readonly mixerAngles: Float64Array;
  readonly maxQubits: number;
  readonly schedule: CompiledSchedule;
  /** Calibration in force (`false` when none). */
  readonly calibration: false | 'effective-temperature' | 'linear-response';
  /** First-order gains of this circuit ({@link linearResponseGains}). */
  readonly gains: Gains;
}

/**
 * How a calibrated anneal rescales the problem: `'effective-temperature'` (alias `true`)
 * programs `h/(4X)` and `J/(8X)` (METHOD.md §4); `'linear-response'` divides by the exact
 * first-order gains of the Trotter circuit instead (see `calibrationGains`); `false` does not rescale.
 * @summary How a calibrated anneal rescales the problem.
 * @category Annealing
 */
export type Calibration = boolean | 'effective-temperature' | 'linear-response';

/**
 * First-order gains of an anneal: `P(s) ≈ 2^-n [1 + gField Σ h s + gCoupling Σ J s s]`.
 *
 * @category Annealing
 */
export interface Gains {
  readonly field: number;
  readonly coupling: number;
}

/**
 * Exact first-order response of the Trotter circuit to the problem layer. The phase layer k
 * (angle θ_k) maps |+⟩^n to states with one (two) qubits in |−⟩, which the later mixers
 * (total angle Φ_k) rotate against |+⟩ by 2Φ_k (4Φ_k); to first order in θ this gives
 * `gField = 2 Σ_k θ_k sin(2Φ_k)` and `gCoupling = 2 Σ_k θ_k sin(4Φ_k)`, which tend to 4X and 8X
 * when every Φ_k is small.
 */
export function linearResponseGains(phaseAngles: Float64Array, mixerAngles: Float64Array): Gains {
  let field = 0;
  let coupling = 0;
  let after = 0; // Φ_k: total mixer angle applied after phase layer k
  for (let k = phaseAngles.length - 1; k >= 0; k--) {
    if (k < mixerAngles.length) after += mixerAngles[k]!;
    field += 2 * phaseAngles[k]! * Math.sin(2 * after);
    coupling += 2 * phaseAngles[k]! * Math.sin(4 * after);
  }
  return { field, coupling };
}

/** Options every anneal accepts. */
export interface PlanOptions {
  /** Total anneal time τ ≥ 0 (default 16). */
  readonly tau?: number;
  /** Trotter steps K, an integer in [1, 2^20] (default 64; see {@link DQA_MAX_STEPS}). */
  readonly steps?: number;
  /** Trotter order (default 2). */
  readonly order?: 1 | 2;
  /** `'linear'` (default), `'dwave'` or `{ A, B }`. */
  readonly schedule?: ScheduleSpec | CompiledSchedule;
  /** Rescaling of the programmed problem (see {@link Calibration}); the default depends on the caller. */
  readonly calibrate?: Calibration;
  /** Inverse temperature multiplying `h` and `J` (default 1). */
  readonly beta?: number;
  /** Refuse problems with more qubits (default 26, at most 30). */
  readonly maxQubits?: number;
}

function invalid(message: string): DqaError {
  return new DqaError('DQA_INVALID_ARGUMENT', message);
}

/**
 * The schedule at the Trotter midpoint of step `k`, the exact time the anneal evaluates it,
 * times `dt`: refused with DQA_BAD_SCHEDULE when the value or the angle is not finite, so a
 * schedule singular between the points of the grid check cannot make the anneal NaN.
 */
function midpointAngle(
  f: (u: number) => number,
  which: 'A' | 'B',
  k: number,
  steps: number,
  tau: number,
  label: string,
): number {
  const u = (k + 0.5) / steps;
  const v = f(u);
  const angle = (tau / steps) * v;
  if (typeof v !== 'number' || !Number.isFinite(angle)) {
    const what =
      typeof v === 'number' && Number.isFinite(v)
        ? `${v} (its angle dt·${which} overflows)`
        : echo(v);
    throw new DqaError(
      'DQA_BAD_SCHEDULE',
      `schedule ${which} is ${what} at u = ${u} (t = ${u * tau} of tau = ${tau}), the midpoint of Trotter step ${k + 1} of ${steps}, ` +
        `where the anneal evaluates it; it must be finite there (${echo(label)})`,
    );
  }
  return angle;
}

/** Per-layer angles of the circuit (midpoint rule `u_k = (k + ½)/K`, Strang split for order 2). */
function layerAngles(
  schedule: CompiledSchedule,
  tau: number,
  steps: number,
  order: 1 | 2,
): { phaseAngles: Float64Array; mixerAngles: Float64Array } {
  const a = new Float64Array(steps);
  const b = new Float64Array(steps);
  for (let k = 0; k < steps; k++) {
    a[k] = midpointAngle(schedule.A, 'A', k, steps, tau, schedule.label);
    b[k] = midpointAngle(schedule.B, 'B', k, steps, tau, schedule.label);
  }
  if (order === 1) return { phaseAngles: b, mixerAngles: a };
  // Strang split per step, half phase · mixer · half phase; adjacent half phases merge.
  const phaseAngles = new Float64Array(steps + 1);
  for (let k = 0; k < steps; k++) {
    phaseAngles[k] = phaseAngles[k]! + b[k]! / 2;
    phaseAngles[k + 1] = b[k]! / 2;
  }
  return { phaseAngles, mixerAngles: a };
}

/** Validates options and precomputes the per-layer angles (midpoint rule `u_k = (k + ½)/K`). */
export function createPlan(options: PlanOptions, calibrateDefault: boolean): AnnealPlan {
  const tau = options.tau ?? DEFAULTS.tau;
  const steps = options.steps ?? DEFAULTS.steps;
  const order = options.order ?? DEFAULTS.order;
  const beta = options.beta ?? 1;
  const maxQubits = options.maxQubits ?? DEFAULTS.maxQubits;
  const calibrate = options.calibrate ?? calibrateDefault;
  if (typeof tau !== 'number' || !Number.isFinite(tau) || tau < 0)
    throw invalid(`tau must be a finite number ≥ 0, got ${echo(tau)}`);
  if (!Number.isInteger(steps) || steps < 1 || steps > DQA_MAX_STEPS) {
    throw invalid(
      `steps must be an integer in [1, ${DQA_MAX_STEPS.toLocaleString('en-US')}], got ${echo(steps)}`,
    );
  }
  if (order !== 1 && order !== 2) throw invalid(`order must be 1 or 2, got ${echo(order)}`);
  if (typeof beta !== 'number' || !Number.isFinite(beta) || beta <= 0)
    throw invalid(`beta must be a finite positive number, got ${echo(beta)}`);
  if (!Number.isInteger(maxQubits) || maxQubits < 1 || maxQubits > ABSOLUTE_MAX_QUBITS) {
    throw invalid(
      `maxQubits must be an integer in [1, ${ABSOLUTE_MAX_QUBITS}], got ${echo(maxQubits)}`,
    );
  }
  if (
    typeof calibrate !== 'boolean' &&
    calibrate !== 'effective-temperature' &&
    calibrate !== 'linear-response'
  ) {
    throw invalid(
      `calibrate must be true, false, 'effective-temperature' or 'linear-response', got ${echo(calibrate)}`,
    );
  }
  const calibration = calibrate === true ? 'effective-temperature' : calibrate;
  const schedule = compileSchedule(options.schedule ?? 'linear');
  const { phaseAngles, mixerAngles: a } = layerAngles(schedule, tau, steps, order);
  const x = effectiveTemperature(tau, schedule);
  const gains = linearResponseGains(phaseAngles, a);
  let fieldGain = 1;
  let couplingGain = 1;
  if (calibration === 'effective-temperature') {
    fieldGain = 4 * x;
    couplingGain = 8 * x;
  } else if (calibration === 'linear-response') {
    fieldGain = gains.field;
    couplingGain = gains.coupling;
  }
  if (!(fieldGain > 0 && couplingGain > 0)) {
    throw invalid(
      `calibrate ${echo(calibration)} needs positive gains, got field ${fieldGain}, coupling ${couplingGain} ` +
        `(tau = ${tau}, steps = ${steps}, ${echo(schedule.label, 200)}); ` +
        (calibration === 'linear-response'
          ? 'the anneal is too long for a first-order calibration: lower tau'
          : 'tau must be > 0'),
    );
  }
  return {
    order,
    steps,
    tau,
    x,
    fieldScale: beta / fieldGain,
    couplingScale: beta / couplingGain,
    phaseAngles,
    mixerAngles: a,
    maxQubits,
    schedule,
    calibration,
    gains,
  };
}
