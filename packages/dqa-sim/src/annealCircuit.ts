import type { AnnealOptions } from './anneal.js';
import { createPlan } from './internal/plan.js';
import type { AnnealPlan } from './internal/plan.js';
import { prepareProblem } from './internal/problem.js';
import type { AnnealCircuit, AnnealLayer, IsingProblem } from './types.js';

/** The problem layer of angle θ, or `undefined` when it has no gate. */
function phaseLayer(
  theta: number,
  n: number,
  h: Float64Array,
  J: Float64Array,
): AnnealLayer | undefined {
  const rz = new Float64Array(n);
  let gates = 0;
  for (let j = 0; j < n; j++) {
    if (h[j] === 0) continue;
    rz[j] = -2 * theta * h[j]!;
    gates++;
  }
  const zz: [number, number, number][] = [];
  for (let j = 0; j < n; j++) {
    for (let k = j + 1; k < n; k++) {
      const c = J[j * n + k]!;
      if (c !== 0) zz.push([j, k, -2 * theta * c]);
    }
  }
  return gates + zz.length === 0 ? undefined : { kind: 'phase', rz, zz };
}

/**
 * The circuit and the plan it came from (toQasm3 prints the plan in its header).
 * @internal
 */
export function planCircuit(
  problem: IsingProblem,
  options: AnnealOptions,
): { plan: AnnealPlan; circuit: AnnealCircuit } {
  const plan = createPlan(options, false);
  const { n, h, J } = prepareProblem(problem, plan);
  const layers: AnnealLayer[] = [];
  const phases = plan.phaseAngles;
  const mixers = plan.mixerAngles;
  for (let k = 0; k < phases.length; k++) {
    const theta = phases[k]!;
    const layer = theta === 0 ? undefined : phaseLayer(theta, n, h, J);
    if (layer !== undefined) layers.push(layer);
    if (k < mixers.length && mixers[k] !== 0) layers.push({ kind: 'mixer', rx: -2 * mixers[k]! });
  }
  return { plan, circuit: { n, layers } };
}

/**
 * The Trotter circuit the simulator runs, as data: the one home of the circuit that
 * `toQasm3` prints and the gate-model adapters route onto devices.
 *
 * Conventions (as `toQasm3`; all angles exact):
 * - `h` on every qubit prepares |+⟩^n first; it is implied and not listed in `layers`.
 * - A `'phase'` layer `exp(−iθ E(Z))`, `E = −Σ h s − Σ J s s`, is `Rz(−2θ h_j)` per qubit (`rz[j]`,
 *   0 = no gate) and `Rzz(−2θ J_jk)` per nonzero coupling (`zz`), with `Rz(a) = exp(−iaZ/2)` and
 *   `Rzz(a) = exp(−ia Z⊗Z/2)`.
 * - A `'mixer'` layer `Π_j exp(+iφ X_j)` is `Rx(−2φ)` on every qubit (`rx`).
 * - Order 1: per step the phase layer, then the mixer. Order 2: half phase, mixer, half phase,
 *   adjacent halves merged (K + 1 phase layers). Layers whose angle is 0 are left out.
 * - Qubit j carries spin j; measuring bit 0 means `s_j = +1`.
 *
 * @param problem fields and optional `n × n` couplings (physics signs).
 * @param options anneal options (`calibrate` defaults to false, as in `annealStatevector`).
 * @returns `{ n, layers }`.
 * @throws {DqaError} as `annealStatevector`: DQA_TOO_MANY_QUBITS, DQA_SHAPE_MISMATCH, DQA_NOT_FINITE,
 *   DQA_INVALID_ARGUMENT, DQA_BAD_SCHEDULE.
 * @example
 * import { annealCircuit } from '@boltzmann/dqa-sim';
 *
 * const { n, layers } = annealCircuit({ fields: [0.5, -0.2], couplings: [0, 0.3, 0, 0] }, { tau: 2, steps: 8 });
 * for (const layer of layers) if (layer.kind === 'mixer') console.log(n, layer.rx);
 * @category Annealing
 */
export function annealCircuit(problem: IsingProblem, options: AnnealOptions = {}): AnnealCircuit {
  return planCircuit(problem, options).circuit;
}
