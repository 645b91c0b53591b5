// The simulator's data shapes, a leaf every module reads: the problem in, the statevector out.

/**
 * One Ising problem in physics signs, `E(s) = −Σ_j h_j s_j − Σ_{j<k} J_jk s_j s_k`.
 *
 * `n = fields.length`; `couplings` is `n × n` row-major with the strict upper triangle read (omit
 * it for independent spins).
 * @category Annealing
 */
export interface IsingProblem {
  readonly fields: ArrayLike<number>;
  readonly couplings?: ArrayLike<number>;
}

/**
 * The final state `ψ(τ)` on n qubits; index bit j set ⇔ `s_j = +1` (measured qubit j reads 0).
 *
 * @category Annealing
 */
export interface Statevector {
  readonly n: number;
  readonly re: Float64Array;
  readonly im: Float64Array;
}

/**
 * One problem layer `exp(−iθ E(Z))` of the Trotter circuit, as gates. Every gate is diagonal, so
 * the order within the layer does not matter.
 * @category Annealing
 */
export interface PhaseLayer {
  readonly kind: 'phase';
  /** `Rz(−2θ h_j)` angle of each qubit j (length n); 0 means no gate (`h_j = 0`). */
  readonly rz: Float64Array;
  /**
   * `[j, k, a]` with `j < k`, in row-major order, one per nonzero coupling: `Rzz(a)` with
   * `a = −2θ J_jk` and `Rzz(a) = exp(−ia Z⊗Z/2)`.
   */
  readonly zz: readonly (readonly [number, number, number])[];
}

/**
 * One mixer layer `Π_j exp(+iφ X_j)`: `Rx(rx)` on every qubit, `rx = −2φ` and `Rx(a) = exp(−iaX/2)`.
 *
 * @category Annealing
 */
export interface MixerLayer {
  readonly kind: 'mixer';
  readonly rx: number;
}

/**
 * A layer of the Trotter circuit.
 *
 * @category Annealing
 */
export type AnnealLayer = PhaseLayer | MixerLayer;

/**
 * The Trotter circuit as data (see `annealCircuit`): `h` on every qubit (implied, not listed),
 * then `layers` in time order. Qubit j carries spin j; a measured bit 0 means `s_j = +1`.
 * @category Annealing
 */
export interface AnnealCircuit {
  /** Qubits (spins). */
  readonly n: number;
  /** The layers after the initial `h` layer, in time order; identity layers are left out. */
  readonly layers: readonly AnnealLayer[];
}
