// The two shapes every embedding works on: a QPU's working graph, and a physical Ising problem on it.

/**
 * The working graph of a QPU solver: its `qubits` and `couplers` properties, in their listed order.
 *
 * @category Embedding
 */
export interface SolverGraph {
  readonly qubits: readonly number[];
  readonly couplers: readonly (readonly [number, number])[];
}

/**
 * A physical Ising problem in D-Wave signs (`E = Σ h s + Σ J s s`, minimized): linear biases per
 * qubit and quadratic biases keyed `"a,b"` (both orientations of a pair are summed, as the official
 * client's "directed" mode does).
 * @summary A physical Ising problem in D-Wave signs (`E = Σ h s + Σ J s s`, minimized).
 * @category Embedding
 */
export interface QpTerms {
  readonly linear: ReadonlyMap<number, number>;
  readonly quadratic: ReadonlyMap<string, number>;
}
