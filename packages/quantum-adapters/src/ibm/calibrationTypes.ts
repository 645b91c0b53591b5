// A device's recorded calibration in the compact form the snapshots keep (calibrationSnapshots.generated.ts),
// and what fidelity estimates read from a calibration. A leaf: types only.

/** Readout per qubit and each calibrated gate, as `gate:q0[-q1]:error:lengthNs` tokens in lines. */
export interface CompactCalibration {
  readonly backend: string;
  /** The calibration's `last_update_date`. */
  readonly date: string;
  readonly readoutError: readonly number[];
  readonly readoutLengthNs: readonly number[];
  readonly gates: readonly string[];
}

/**
 * The expected fidelity of one routed circuit: the chance that no gate and no readout errs.
 *
 * @category IBM Quantum
 */
export interface CircuitFidelity {
  /** Π (1 − ε) over its gates and measurements (rz is virtual and exact). */
  readonly fidelity: number;
  readonly twoQubitGates: number;
  readonly oneQubitGates: number;
  readonly measurements: number;
  /** The product over the two-qubit gates alone, and over the readouts alone. */
  readonly twoQubitFidelity: number;
  readonly readoutFidelity: number;
}
