import { echo } from '@boltzmann/ising-core/internal';
import type { IsingProblem } from '../types.js';
import { DqaError } from '../errors.js';
import type { AnnealPlan } from './plan.js';
import { assertQubits } from './runAnneal.js';

/** Validates a problem and applies the plan's scales (β, calibration). */
export function prepareProblem(
  problem: IsingProblem,
  plan: AnnealPlan,
): { n: number; h: Float64Array; J: Float64Array } {
  if (
    problem === null ||
    typeof problem !== 'object' ||
    problem.fields === undefined ||
    typeof problem.fields.length !== 'number'
  ) {
    throw new DqaError(
      'DQA_INVALID_ARGUMENT',
      'problem must be an object { fields, couplings? } with array-like fields',
    );
  }
  const n = problem.fields.length;
  if (n < 1)
    throw new DqaError(
      'DQA_SHAPE_MISMATCH',
      'problem.fields is empty; a problem needs at least one spin',
    );
  assertQubits(n, plan.maxQubits);
  const h = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    const v = problem.fields[j]!;
    if (typeof v !== 'number' || !Number.isFinite(v))
      throw new DqaError(
        'DQA_NOT_FINITE',
        `fields[${j}] is ${echo(v)}; every field must be finite`,
      );
    h[j] = v * plan.fieldScale;
  }
  const J = new Float64Array(n * n);
  const c = problem.couplings;
  if (c !== undefined) {
    if (c.length !== n * n) {
      throw new DqaError(
        'DQA_SHAPE_MISMATCH',
        `couplings has ${echo(c.length)} entries; ${n} spins need an ${n} × ${n} matrix (${n * n} entries)`,
      );
    }
    for (let j = 0; j < n; j++) {
      for (let k = j + 1; k < n; k++) {
        const v = c[j * n + k]!;
        if (typeof v !== 'number' || !Number.isFinite(v)) {
          throw new DqaError(
            'DQA_NOT_FINITE',
            `couplings[${j * n + k}] (J_${j},${k}) is ${echo(v)}; every coupling must be finite`,
          );
        }
        J[j * n + k] = v * plan.couplingScale;
      }
    }
  }
  return { n, h, J };
}
