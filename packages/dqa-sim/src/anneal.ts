import { createPlan, DEFAULTS } from './internal/plan.js';

export { DQA_MAX_STEPS } from './internal/plan.js';
import type { Gains, PlanOptions } from './internal/plan.js';
import { prepareProblem } from './internal/problem.js';
import { ensureWorkspace, probabilities, runAnneal } from './internal/runAnneal.js';
import type { IsingProblem, Statevector } from './types.js';

/**
 * The default qubit limit: 2^26 amplitudes need about 2.5 GiB (see {@link estimateMemoryBytes}).
 *
 * @category Annealing
 */
export const DEFAULT_MAX_QUBITS = DEFAULTS.maxQubits;

export { estimateMemoryBytes } from './internal/runAnneal.js';

/**
 * Options of one anneal. Energies and times are dimensionless: a phase is `dt × energy`.
 *
 * - `tau` total time τ (default 16); `steps` Trotter steps K (default 64, at most {@link DQA_MAX_STEPS}
 *   = 2^20); `order` 1 or 2 (default 2).
 * - `schedule` `'linear'` (default), `'dwave'`, or `{ A, B }` (mathjs strings or functions of u).
 * - `beta` multiplies `h` and `J` (default 1).
 * - `calibrate`: `true` / `'effective-temperature'` programs `β h / (4X)` and `β J / (8X)` (METHOD.md §4);
 *   `'linear-response'` divides by the exact first-order gains of the Trotter circuit
 *   ({@link calibrationGains}); either way the output matches the Boltzmann distribution at β to
 *   first order in the fields. Default `false` here (a raw anneal).
 * - `maxQubits` refuse larger problems (default {@link DEFAULT_MAX_QUBITS}).
 * @category Annealing
 */
export type AnnealOptions = PlanOptions;

/**
 * Simulates the Trotterized diabatic anneal `H(u) = A(u) H_D + B(u) H_P` from `|+⟩^n`
 * (METHOD.md §4) and returns the final statevector.
 *
 * Order 1: `U_k = exp(−i dt A(u_k) H_D) · exp(−i dt B(u_k) H_P)` with `u_k = (k + ½)/K`.
 * Order 2: `U_k = P_k^{1/2} · exp(−i dt A(u_k) H_D) · P_k^{1/2}` with `P_k = exp(−i dt B(u_k) H_P)`
 * (half problem phase, full mixer, half problem phase; adjacent half phases are merged).
 *
 * @param problem fields and optional couplings (physics signs).
 * @param options see {@link AnnealOptions}.
 * @returns `ψ(τ)`, normalized to rounding.
 * @throws {DqaError} DQA_TOO_MANY_QUBITS, DQA_SHAPE_MISMATCH, DQA_NOT_FINITE, DQA_INVALID_ARGUMENT, DQA_BAD_SCHEDULE
 * @example
 * import { annealStatevector } from '@boltzmann/dqa-sim';
 *
 * const psi = annealStatevector({ fields: [0.3, -0.2], couplings: [0, 0.5, 0, 0] }, { tau: 4, steps: 64 });
 * console.log(psi);
 * @category Annealing
 */
export function annealStatevector(problem: IsingProblem, options: AnnealOptions = {}): Statevector {
  const plan = createPlan(options, false);
  const { n, h, J } = prepareProblem(problem, plan);
  const ws = ensureWorkspace(n);
  runAnneal(h, J, n, plan, ws);
  return { n, re: ws.re, im: ws.im };
}

/**
 * The exact output distribution `|ψ(τ)|²` of the anneal: `2^n` probabilities, index bit j
 * set ⇔ `s_j = +1` (the layout of ising-core dense distributions).
 *
 * @param problem fields and optional couplings (physics signs).
 * @param options see {@link AnnealOptions}.
 * @returns the probabilities (sum 1 to rounding).
 * @throws {DqaError} as {@link annealStatevector}.
 * @example
 * import { annealDistribution } from '@boltzmann/dqa-sim';
 *
 * const p = annealDistribution({ fields: [0.5] }, { tau: 2, calibrate: true });
 * console.log(p[1], 1 / (1 + Math.exp(-2 * 0.5))); // p[1] ≈ σ(2·0.5)
 * @category Annealing
 */
export function annealDistribution(
  problem: IsingProblem,
  options: AnnealOptions = {},
): Float64Array {
  const plan = createPlan(options, false);
  const { n, h, J } = prepareProblem(problem, plan);
  const ws = ensureWorkspace(n);
  runAnneal(h, J, n, plan, ws);
  return probabilities(ws, n);
}

/**
 * First-order gains and the effective-temperature integral of one anneal configuration.
 *
 * @category Annealing
 */
export interface CalibrationGains {
  /** `X = ∫∫ A B` at this τ (continuous time). */
  readonly x: number;
  /** `{ field: 4X, coupling: 8X }`: the short-anneal gains of METHOD.md §4. */
  readonly effectiveTemperature: Gains;
  /**
   * The exact first-order gains of the Trotter circuit (`2 Σ_k θ_k sin(2Φ_k)` and `2 Σ_k θ_k sin(4Φ_k)`,
   * with θ_k the problem-layer angles and Φ_k the mixer angle applied after layer k); they tend to
   * 4X and 8X for short anneals and stay exact to first order in the fields for any τ.
   */
  readonly linearResponse: Gains;
}

/**
 * The gains `g` with `P(s) ≈ 2^-n [1 + g_field Σ h s + g_coupling Σ J s s]` for an anneal
 * configuration (fields and couplings as programmed, i.e. before calibration).
 *
 * @param options tau, steps, order, schedule (other options are ignored).
 * @returns X, the effective-temperature gains and the exact linear-response gains.
 * @throws {DqaError} DQA_INVALID_ARGUMENT, DQA_BAD_SCHEDULE
 * @example
 * import { calibrationGains } from '@boltzmann/dqa-sim';
 *
 * console.log(calibrationGains({ tau: 1, steps: 64 }).effectiveTemperature.field); // 4 · 1/24
 * @category Annealing
 */
export function calibrationGains(options: AnnealOptions = {}): CalibrationGains {
  const plan = createPlan({ ...options, calibrate: false }, false);
  return {
    x: plan.x,
    effectiveTemperature: { field: 4 * plan.x, coupling: 8 * plan.x },
    linearResponse: plan.gains,
  };
}
