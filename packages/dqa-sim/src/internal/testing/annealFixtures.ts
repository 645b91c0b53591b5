import type { IsingProblem } from '../../index.js';

// Test helpers of the anneal tests (anneal.test.ts, annealDistribution.test.ts): spins of a basis
// state, its field and coupling sums, and the 3-spin problem they anneal. Not part of the public
// API (nothing outside the package's own tests imports it).

/** s_j = ±1 of basis state `s` (bit j set ⇔ s_j = +1). */
export const spin = (s: number, j: number) => ((s >>> j) & 1 ? 1 : -1);
/** Σ_j h_j s_j and Σ_{j<k} J_jk s_j s_k of state `s` (bit j set ⇔ s_j = +1). */
export const termSums = (h: ArrayLike<number>, J: ArrayLike<number>, n: number, s: number) => {
  let hs = 0;
  let js = 0;
  for (let j = 0; j < n; j++) {
    hs += h[j]! * spin(s, j);
    for (let k = j + 1; k < n; k++) js += J[j * n + k]! * spin(s, j) * spin(s, k);
  }
  return { hs, js };
};

export const problem3: IsingProblem = {
  fields: [0.7, -0.4, 0.3],
  couplings: [0, 0.5, -0.6, 0, 0, 0.8, 0, 0, 0],
};
