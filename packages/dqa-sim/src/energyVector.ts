import { prepareProblem } from './internal/problem.js';
import type { IsingProblem } from './types.js';
import { createPlan, ABSOLUTE_MAX_QUBITS } from './internal/plan.js';
import { fillEnergy } from './internal/kernels.js';

/**
 * All `2^n` energies `E(s) = −Σ h_j s_j − Σ_{j<k} J_jk s_j s_k` (index bit j set ⇔ `s_j = +1`),
 * by the O(2^n) prefix DP of METHOD.md §2 — the diagonal of the problem Hamiltonian.
 *
 * @param problem fields and optional `n × n` couplings.
 * @param maxQubits refuse larger problems (default 26).
 * @returns the energy of every state.
 * @throws {DqaError} DQA_TOO_MANY_QUBITS, DQA_SHAPE_MISMATCH, DQA_NOT_FINITE
 * @example
 * import { energyVector } from '@boltzmann/dqa-sim';
 *
 * console.log(energyVector({ fields: [1] })); // Float64Array [1, -1]: s = −1 costs +1, s = +1 costs −1
 * @category Annealing
 */
export function energyVector(problem: IsingProblem, maxQubits = 26): Float64Array {
  const plan = createPlan(
    { maxQubits: Math.min(maxQubits, ABSOLUTE_MAX_QUBITS), tau: 0, steps: 1 },
    false,
  );
  const { n, h, J } = prepareProblem(problem, plan);
  const out = new Float64Array(1 << n);
  fillEnergy(out, h, J, n);
  return out;
}
