import {
  annealDistribution,
  calibrationGains,
  compileSchedule,
  fidelity,
} from '@boltzmann/dqa-sim';
import type { CompiledSchedule } from '@boltzmann/dqa-sim';
import { boltzmannDistribution, createRng, energies } from '@boltzmann/ising-core';

/** What the Anneal panel sets. */
export interface AnnealSettings {
  /** Spins (qubits), 2 … 10. */
  readonly spins: number;
  /** Seed of the random problem: fields ~ N(0, 1), couplings ~ N(0, 0.5²). */
  readonly seed: number;
  readonly beta: number;
  /** Total anneal time τ. */
  readonly tau: number;
  /** Trotter steps K: the trajectory has K + 1 frames, t = k τ / K. */
  readonly steps: number;
  readonly schedule: 'linear' | 'dwave';
  readonly calibrate: 'linear-response' | 'effective-temperature' | 'none';
}

export const MAX_ANNEAL_SPINS = 10;

/** Anneal times of the KL-against-τ curve. */
export const KL_TAUS: readonly number[] = [0.25, 0.5, 1, 2, 4, 8, 16, 32, 64];

/** A small random Ising problem in physics signs (ising-core's conventions). */
export interface AnnealProblem {
  readonly fields: Float64Array;
  /** n × n row-major, strict upper triangle. */
  readonly couplings: Float64Array;
}

export interface AnnealResult {
  readonly problem: AnnealProblem;
  /** Configuration indices sorted by energy (lowest first); bit j set ⇔ s_j = +1. */
  readonly order: Int32Array;
  readonly energies: Float64Array;
  /** The Boltzmann distribution at β: the target. */
  readonly target: Float64Array;
  /** `frames[k]` = |ψ(t_k)|², t_k = k τ / K, k = 0 … K. */
  readonly frames: Float64Array[];
  /** KL(target ‖ |ψ(τ)|²) of a full anneal for each τ of {@link KL_TAUS}; NaN where the calibration is undefined. */
  readonly klByTau: ReadonlyArray<{ readonly tau: number; readonly kl: number }>;
}

export function randomProblem(spins: number, seed: number): AnnealProblem {
  const rng = createRng(seed);
  const fields = Float64Array.from({ length: spins }, () => rng.normal());
  const couplings = new Float64Array(spins * spins);
  for (let j = 0; j < spins; j++)
    for (let k = j + 1; k < spins; k++) couplings[j * spins + k] = 0.5 * rng.normal();
  return { fields, couplings };
}

/** KL(p ‖ q) in nats; infinite when q misses mass that p has. */
export function klDivergence(p: ArrayLike<number>, q: ArrayLike<number>): number {
  let kl = 0;
  for (let i = 0; i < p.length; i++) {
    const a = p[i]!;
    if (a > 0) kl += a * Math.log(a / Math.max(q[i]!, 1e-300));
  }
  return Math.max(0, kl);
}

/** The field and coupling divisors of a calibrated anneal, taken from the whole anneal (as dqa-sim does). */
function gainsOf(settings: AnnealSettings): { field: number; coupling: number } {
  if (settings.calibrate === 'none') return { field: 1, coupling: 1 };
  const g = calibrationGains({
    tau: settings.tau,
    steps: settings.steps,
    order: 2,
    schedule: settings.schedule,
  });
  const gains =
    settings.calibrate === 'linear-response' ? g.linearResponse : g.effectiveTemperature;
  if (!(gains.field > 0 && gains.coupling > 0)) {
    throw new Error(
      `the ${settings.calibrate} calibration is undefined at τ = ${settings.tau} (a first-order gain is ≤ 0): choose a shorter anneal`,
    );
  }
  return gains;
}

/**
 * The state after the first k of K Trotter steps: an anneal of time k τ / K in k steps whose
 * schedule is the first k/K of the full one, so its midpoints u are exactly those of the full
 * anneal's first k steps. (Order 2 ends with the half problem phase of step k, a diagonal phase
 * that leaves |ψ|² unchanged.)
 */
function truncatedSchedule(schedule: CompiledSchedule, fraction: number): CompiledSchedule {
  return {
    label: `${schedule.label} (first ${fraction})`,
    A: (u) => schedule.A(u * fraction),
    B: (u) => schedule.B(u * fraction),
  };
}

/**
 * Everything the Anneal panel shows for one setting: the target, |ψ(t)|² at every Trotter step,
 * and KL(target ‖ DQA) against the anneal time.
 *
 * @throws DqaError when the calibration is undefined at this τ (gains ≤ 0: the anneal is too long).
 */
export function computeAnneal(settings: AnnealSettings): AnnealResult {
  const n = settings.spins;
  const problem = randomProblem(n, settings.seed);
  const target = boltzmannDistribution(problem.fields, problem.couplings, { beta: settings.beta });
  const energy = energies(problem.fields, problem.couplings, n);
  const order = Int32Array.from({ length: 1 << n }, (_, i) => i).sort(
    (a, b) => energy[a]! - energy[b]!,
  );
  const gains = gainsOf(settings);
  const fields = problem.fields.map((h) => (settings.beta * h) / gains.field);
  const couplings = problem.couplings.map((J) => (settings.beta * J) / gains.coupling);
  const schedule = compileSchedule(settings.schedule);
  const K = settings.steps;
  const frames: Float64Array[] = [new Float64Array(1 << n).fill(2 ** -n)];
  for (let k = 1; k <= K; k++) {
    frames.push(
      annealDistribution(
        { fields, couplings },
        {
          tau: (settings.tau * k) / K,
          steps: k,
          order: 2,
          schedule: truncatedSchedule(schedule, k / K),
          calibrate: false,
          maxQubits: MAX_ANNEAL_SPINS,
        },
      ),
    );
  }
  const calibrate = settings.calibrate === 'none' ? false : settings.calibrate;
  const klByTau = KL_TAUS.map((tau) => {
    try {
      const report = fidelity(problem, {
        tau,
        steps: K,
        order: 2,
        schedule: settings.schedule,
        beta: settings.beta,
        calibrate,
      });
      return { tau, kl: report.klTargetDqa };
    } catch {
      return { tau, kl: Number.NaN }; // calibration undefined at this τ (non-positive first-order gain)
    }
  });
  return { problem, order, energies: energy, target, frames, klByTau };
}

/** Spins of configuration `index` as arrows, spin 0 first. */
export function spinLabel(index: number, n: number): string {
  let s = '';
  for (let j = 0; j < n; j++) s += (index >> j) & 1 ? '↑' : '↓';
  return s;
}
