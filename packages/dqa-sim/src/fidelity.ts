import { prepareProblem } from './internal/problem.js';
import type { AnnealOptions } from './anneal.js';
import type { IsingProblem } from './types.js';
import { DqaError } from './errors.js';
import { fillEnergy } from './internal/kernels.js';
import { createPlan, DEFAULTS } from './internal/plan.js';
import { ensureWorkspace, probabilities, runAnneal } from './internal/runAnneal.js';

/**
 * How far a DQA output distribution is from the Boltzmann distribution it should approximate.
 *
 * @category Calibration
 */
export interface FidelityReport {
  /** `KL(target ‖ dqa) = Σ_s q(s) log(q(s)/p(s))`, target q = exact Boltzmann (nats; ∞ when p misses support). */
  readonly klTargetDqa: number;
  /** `KL(dqa ‖ target) = Σ_s p(s) log(p(s)/q(s))` (nats). */
  readonly klDqaTarget: number;
  /** `max_j |m_j^dqa − m_j^exact|`. */
  readonly maxMagnetizationError: number;
  /** `mean_j |m_j^dqa − m_j^exact|`. */
  readonly meanMagnetizationError: number;
  /** DQA magnetizations `⟨s_j⟩`. */
  readonly magnetization: Float64Array;
  /** Exact Boltzmann magnetizations at β. */
  readonly exactMagnetization: Float64Array;
  /** The effective-temperature integral X of this anneal. */
  readonly x: number;
}

/**
 * One row of {@link fidelitySweep}.
 *
 * @category Calibration
 */
export interface FidelityRow {
  readonly tau: number;
  readonly steps: number;
  readonly x: number;
  readonly klTargetDqa: number;
  readonly klDqaTarget: number;
  readonly maxMagnetizationError: number;
  readonly meanMagnetizationError: number;
}

/**
 * Input of {@link fidelitySweep}: one problem, the anneal options, and the grid of τ and K.
 *
 * @category Calibration
 */
export interface FidelitySweepInput extends Omit<AnnealOptions, 'tau' | 'steps'> {
  readonly fields: ArrayLike<number>;
  readonly couplings?: ArrayLike<number>;
  /** Anneal times to try (each finite, > 0 when calibrated). */
  readonly taus: readonly number[];
  /** Trotter step counts: one for all τ, or a list (rows are the product τ × K). */
  readonly steps: number | readonly number[];
}

function magnetizations(p: Float64Array, n: number): Float64Array {
  const m = new Float64Array(n);
  // Fold: the top bit's marginal is the upper half's mass; add the upper half onto the lower and recurse.
  const work = Float64Array.from(p);
  for (let b = n - 1; b >= 0; b--) {
    const half = 1 << b;
    let up = 0;
    let total = 0;
    for (let s = 0; s < half; s++) {
      up += work[half + s]!;
      total += work[s]! + work[half + s]!;
      work[s] = work[s]! + work[half + s]!;
    }
    m[b] = (2 * up - total) / (total > 0 ? total : 1);
  }
  return m;
}

/** Exact Boltzmann distribution `∝ exp(−βE)` over the unscaled problem, log-sum-exp normalized. */
function boltzmann(
  problem: IsingProblem,
  beta: number,
  maxQubits: number,
): { n: number; q: Float64Array } {
  const plan = createPlan({ tau: 0, steps: 1, beta, maxQubits }, false);
  const { n, h, J } = prepareProblem(problem, plan);
  const q = new Float64Array(1 << n);
  fillEnergy(q, h, J, n); // already multiplied by β
  let min = Infinity;
  for (let s = 0; s < q.length; s++) if (q[s]! < min) min = q[s]!;
  let z = 0;
  for (let s = 0; s < q.length; s++) {
    q[s] = Math.exp(-(q[s]! - min));
    z += q[s]!;
  }
  for (let s = 0; s < q.length; s++) q[s] = q[s]! / z;
  return { n, q };
}

function kl(a: Float64Array, b: Float64Array): number {
  let sum = 0;
  for (let s = 0; s < a.length; s++) {
    const x = a[s]!;
    if (x > 0) sum += x * Math.log(x / b[s]!);
  }
  return Math.max(0, sum);
}

function compare(
  p: Float64Array,
  q: Float64Array,
  n: number,
  exactM: Float64Array,
  x: number,
): FidelityReport {
  const m = magnetizations(p, n);
  let maxErr = 0;
  let sumErr = 0;
  for (let j = 0; j < n; j++) {
    const e = Math.abs(m[j]! - exactM[j]!);
    maxErr = Math.max(maxErr, e);
    sumErr += e;
  }
  return {
    klTargetDqa: kl(q, p),
    klDqaTarget: kl(p, q),
    maxMagnetizationError: maxErr,
    meanMagnetizationError: sumErr / n,
    magnetization: m,
    exactMagnetization: exactM,
    x,
  };
}

function runDistribution(
  problem: IsingProblem,
  options: AnnealOptions,
): { p: Float64Array; x: number } {
  const plan = createPlan({ ...options, calibrate: options.calibrate ?? 'linear-response' }, true);
  const { n, h, J } = prepareProblem(problem, plan);
  const ws = ensureWorkspace(n);
  runAnneal(h, J, n, plan, ws);
  return { p: probabilities(ws, n), x: plan.x };
}

/**
 * Anneals one problem and measures its distance to the exact Boltzmann distribution at β
 * (both KL directions and magnetization errors). `calibrate` defaults to `'linear-response'`.
 *
 * @param problem fields and optional `n × n` couplings.
 * @param options anneal options; `beta` (default 1) sets the target temperature.
 * @returns the fidelity report.
 * @throws {DqaError} as `annealDistribution`.
 * @example
 * import { fidelity } from '@boltzmann/dqa-sim';
 *
 * const r = fidelity({ fields: [0.3, -0.2], couplings: [0, 0.4, 0, 0] }, { tau: 16, steps: 64 });
 * console.log(r.klTargetDqa, r.maxMagnetizationError);
 * @category Calibration
 */
export function fidelity(problem: IsingProblem, options: AnnealOptions = {}): FidelityReport {
  const { n, q } = boltzmann(problem, options.beta ?? 1, options.maxQubits ?? DEFAULTS.maxQubits);
  const exactM = magnetizations(q, n);
  const { p, x } = runDistribution(problem, options);
  return compare(p, q, n, exactM, x);
}

/**
 * The fidelity of one problem over a grid of anneal times and Trotter step counts, for the
 * bench to plot (rows in the order τ-major, then K).
 *
 * @param input the problem, `taus`, `steps` and any other anneal option.
 * @returns one row per (τ, K).
 * @throws {DqaError} DQA_INVALID_ARGUMENT on an empty grid; otherwise as {@link fidelity}.
 * @example
 * import { fidelitySweep } from '@boltzmann/dqa-sim';
 *
 * const rows = fidelitySweep({ fields: [0.4, -0.3, 0.1], taus: [1, 2, 4, 8], steps: [16, 32] });
 * for (const r of rows) console.log(r.tau, r.steps, r.klTargetDqa);
 * @category Calibration
 */
export function fidelitySweep(input: FidelitySweepInput): FidelityRow[] {
  const { fields, couplings, taus, steps, ...options } = input;
  const stepList = typeof steps === 'number' ? [steps] : [...(steps ?? [])];
  if (!Array.isArray(taus) || taus.length === 0 || stepList.length === 0) {
    throw new DqaError(
      'DQA_INVALID_ARGUMENT',
      'fidelitySweep needs a non-empty taus array and at least one steps value',
    );
  }
  const problem: IsingProblem = couplings === undefined ? { fields } : { fields, couplings };
  const { n, q } = boltzmann(problem, options.beta ?? 1, options.maxQubits ?? DEFAULTS.maxQubits);
  const exactM = magnetizations(q, n);
  const rows: FidelityRow[] = [];
  for (const tau of taus) {
    for (const k of stepList) {
      const { p, x } = runDistribution(problem, { ...options, tau, steps: k });
      const r = compare(p, q, n, exactM, x);
      rows.push({
        tau,
        steps: k,
        x,
        klTargetDqa: r.klTargetDqa,
        klDqaTarget: r.klDqaTarget,
        maxMagnetizationError: r.maxMagnetizationError,
        meanMagnetizationError: r.meanMagnetizationError,
      });
    }
  }
  return rows;
}
