// biome-ignore-all lint/suspicious/noAssignInExpressions: a regex dispatch, `else if ((m = re.exec(line)))`, keeps each statement's match beside its handler.
/// <reference path="../../../types/quantumCircuit.d.ts" />
import type QuantumCircuit from 'quantum-circuit';

/**
 * Dev-only helper shared by the cross-simulator test and the anneal benchmark: replays one line of
 * a Braket-dialect export (`h`, `rx`, `rz`, `zz`) on the npm `quantum-circuit` simulator with its
 * own gate matrices (wire j = bit j). Other lines (header, declarations, measurements) are skipped.
 *
 * @param circuit the circuit to append to.
 * @param line one line of `toQasm3(…, { dialect: 'braket' })`.
 * @returns whether the line was a gate and was appended.
 */
export function appendBraketGate(circuit: QuantumCircuit, line: string): boolean {
  let m: RegExpMatchArray | null;
  if ((m = line.match(/^h q\[(\d+)\];$/))) circuit.appendGate('h', Number(m[1]));
  else if ((m = line.match(/^rx\(([^)]+)\) q\[(\d+)\];$/)))
    circuit.appendGate('rx', Number(m[2]), { params: { theta: Number(m[1]) } });
  else if ((m = line.match(/^rz\(([^)]+)\) q\[(\d+)\];$/)))
    circuit.appendGate('rz', Number(m[2]), { params: { phi: Number(m[1]) } });
  else if ((m = line.match(/^zz\(([^)]+)\) q\[(\d+)\], q\[(\d+)\];$/))) {
    circuit.appendGate('zz', [Number(m[2]), Number(m[3])], { params: { theta: Number(m[1]) } });
  } else return false;
  return true;
}
