import { DqaError } from '../errors.js';
import { applyMixer, applyPhase } from './kernels.js';
import type { AnnealPlan } from './plan.js';

/** Scratch buffers, reused across problems of a batch (sized for the largest). */
export interface Workspace {
  re: Float64Array;
  im: Float64Array;
  pr: Float64Array;
  pi: Float64Array;
}

/**
 * Bytes the simulator needs for n qubits: ψ and the phase scratch vector (2 × 16 B) plus the
 * output distribution (8 B) per basis state.
 *
 * @param n qubit count.
 * @returns `40 · 2^n`.
 * @example
 * import { estimateMemoryBytes } from '@boltzmann/dqa-sim';
 *
 * console.log(estimateMemoryBytes(26) / 2 ** 30); // 2.5 (GiB)
 * @category Annealing
 */
export function estimateMemoryBytes(n: number): number {
  return 40 * 2 ** n;
}

/** Refuses n beyond the plan's qubit limit with a message that states the memory involved. */
export function assertQubits(n: number, maxQubits: number): void {
  if (n > maxQubits) {
    const gib = (estimateMemoryBytes(n) / 2 ** 30).toFixed(n > 30 ? 0 : 2);
    throw new DqaError(
      'DQA_TOO_MANY_QUBITS',
      `the statevector simulator refuses ${n} qubits (limit ${maxQubits}; 2^${n} amplitudes need about ${gib} GiB). ` +
        `Raise { maxQubits } if memory allows, or use an approximate classical sampler such as 'mean-field' or 'gibbs'.`,
    );
  }
}

/** A workspace large enough for n qubits (reusing `ws` when it already is). */
export function ensureWorkspace(n: number, ws?: Workspace): Workspace {
  const len = 1 << n;
  if (ws !== undefined && ws.re.length >= len) return ws;
  return {
    re: new Float64Array(len),
    im: new Float64Array(len),
    pr: new Float64Array(len),
    pi: new Float64Array(len),
  };
}

/**
 * Refuses a problem whose phases `θ · E` (and the `2θ J` steps of the phase DP) would overflow
 * float64, where `cos` and `sin` would turn the statevector into NaN.
 *
 * @throws {DqaError} DQA_NOT_FINITE
 */
function assertPhaseRange(h: Float64Array, J: Float64Array, n: number, plan: AnnealPlan): void {
  let sum = 0;
  for (let j = 0; j < n; j++) {
    sum += Math.abs(h[j]!);
    for (let k = j + 1; k < n; k++) sum += Math.abs(J[j * n + k]!);
  }
  let theta = 0;
  for (const t of plan.phaseAngles) theta = Math.max(theta, Math.abs(t));
  if (!Number.isFinite(2 * theta * sum)) {
    throw new DqaError(
      'DQA_NOT_FINITE',
      `the largest phase angle ${theta} times Σ|h| + Σ|J| = ${sum} (as programmed, after β and calibration) ` +
        'would overflow float64; lower tau, the schedule or the fields',
    );
  }
}

/**
 * Runs the Trotterized anneal on already-scaled `h` (length n) and `J` (n × n): leaves
 * `ψ(τ)` in `ws.re/ws.im[0 .. 2^n)`. Layers: for each step k, the diagonal phase
 * `exp(−iθ_k E)` then the mixer `Π_j exp(+iφ_k X_j)`; order 2 ends with one more phase.
 *
 * @throws {DqaError} DQA_NOT_FINITE when a phase would overflow float64.
 */
export function runAnneal(
  h: Float64Array,
  J: Float64Array,
  n: number,
  plan: AnnealPlan,
  ws: Workspace,
): void {
  assertPhaseRange(h, J, n, plan);
  const len = 1 << n;
  const { re, im, pr, pi } = ws;
  const amp = 1 / Math.sqrt(len);
  re.fill(amp, 0, len);
  im.fill(0, 0, len);
  const phases = plan.phaseAngles;
  const mixers = plan.mixerAngles;
  for (let k = 0; k < phases.length; k++) {
    const theta = phases[k]!;
    if (theta !== 0) applyPhase(re, im, pr, pi, h, J, n, theta);
    if (k < mixers.length) {
      const phi = mixers[k]!;
      if (phi !== 0) applyMixer(re, im, n, phi);
    }
  }
}

/** `|ψ|²` of the workspace into a new array of 2^n probabilities. */
export function probabilities(ws: Workspace, n: number): Float64Array {
  const len = 1 << n;
  const out = new Float64Array(len);
  const { re, im } = ws;
  for (let s = 0; s < len; s++) out[s] = re[s]! * re[s]! + im[s]! * im[s]!;
  return out;
}
