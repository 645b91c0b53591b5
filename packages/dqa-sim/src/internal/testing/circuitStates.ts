import type { IsingProblem } from '../../index.js';

// Test helpers of the circuit tests (annealCircuit.test.ts, toQasm3.test.ts): the 4-spin problem
// they route, and how a circuit's computational-basis state is compared with the simulator's.
// Not part of the public API (nothing outside the package's own tests imports it).

/** A 4-spin problem with a zero field and couplings of both signs. */
export const problem4: IsingProblem = {
  fields: [0.45, -0.8, 0, 0.3],
  couplings: [0, 0.6, -0.25, 0, 0, 0, 0.9, -0.4, 0, 0, 0, 0.35, 0, 0, 0, 0],
};

type State = { readonly re: ArrayLike<number>; readonly im: ArrayLike<number> };

/**
 * The largest amplitude difference between the simulator's state (bit j set ⇔ s_j = +1) and a
 * circuit's (qubit j reads 0 ⇔ s_j = +1): simulator index s is circuit index s XOR all ones.
 */
export function stateMismatch(sim: State & { readonly n: number }, circuit: State): number {
  const flip = 2 ** sim.n - 1;
  let worst = 0;
  for (let s = 0; s < sim.re.length; s++) {
    const dr = sim.re[s]! - circuit.re[s ^ flip]!;
    const di = sim.im[s]! - circuit.im[s ^ flip]!;
    worst = Math.max(worst, Math.hypot(dr, di));
  }
  return worst;
}
