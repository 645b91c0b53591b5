// The simulator's data shapes, a leaf every module reads: the problem in, the statevector out.

/**
 * One Ising problem in physics signs, `E(s) = −Σ_j h_j s_j − Σ_{j<k} J_jk s_j s_k`.
 * `n = fields.length`; `couplings` is `n × n` row-major with the strict upper triangle read
 * (omit it for independent spins).
 */
export interface IsingProblem {
  readonly fields: ArrayLike<number>;
  readonly couplings?: ArrayLike<number>;
}

/** The final state `ψ(τ)` on n qubits; index bit j set ⇔ `s_j = +1` (measured qubit j reads 0). */
export interface Statevector {
  readonly n: number;
  readonly re: Float64Array;
  readonly im: Float64Array;
}
