// The expected fidelity of a routed circuit from the device's calibration: the chance that none of
// its gates and none of its readouts errs, Π (1 − ε), each ε the calibrated error of that gate on
// those qubits (rz is a virtual frame change, exact). A first-order model: it ignores decoherence
// while qubits idle and crosstalk, so real circuits do no better than it says.
import type { CircuitFidelity } from './calibrationTypes.js';
import { errorLookup } from './calibration.js';
import type { ErrorLookup } from './calibration.js';
import type { IbmBackendProperties, IsaCircuit } from './ibmTypes.js';
import { isaStatements } from './isaStatements.js';

export type { CircuitFidelity } from './calibrationTypes.js';

/**
 * The expected fidelity of `circuit` under `properties` (see the file comment). Gates or qubits the
 * calibration omits take the median error of their kind, named in `lookup.missing`.
 *
 * @param lookup reuse one across circuits of a call (built from `properties` when omitted).
 * @example
 * import { IBM_FEZ_SNAPSHOT, circuitFidelity, transpileAnneal } from '@boltzmann/quantum-adapters';
 *
 * const circuit = transpileAnneal({ fields: [0.3, -0.1], couplings: [0, 0.5, 0, 0] }, { steps: 4 }, IBM_FEZ_SNAPSHOT);
 * console.log(circuitFidelity(circuit, IBM_FEZ_SNAPSHOT.properties!).fidelity);
 * @category IBM Quantum
 */
export function circuitFidelity(
  circuit: IsaCircuit,
  properties: IbmBackendProperties,
  lookup: ErrorLookup = errorLookup(properties),
): CircuitFidelity {
  let logTwo = 0;
  let logOne = 0;
  let logReadout = 0;
  let twoQubitGates = 0;
  let oneQubitGates = 0;
  let measurements = 0;
  const survive = (error: number | undefined): number => Math.log1p(-Math.min(error ?? 0, 1));
  for (const { gate, qubits } of isaStatements(circuit.qasm)) {
    if (gate === 'rz') continue;
    if (gate === 'measure') {
      measurements++;
      logReadout += survive(lookup.readout(qubits[0]!));
    } else if (qubits.length === 2) {
      twoQubitGates++;
      logTwo += survive(lookup.gate(gate, qubits));
    } else {
      oneQubitGates++;
      logOne += survive(lookup.gate(gate, qubits));
    }
  }
  return {
    fidelity: Math.exp(logTwo + logOne + logReadout),
    twoQubitGates,
    oneQubitGates,
    measurements,
    twoQubitFidelity: Math.exp(logTwo),
    readoutFidelity: Math.exp(logReadout),
  };
}
