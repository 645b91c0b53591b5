// The OpenQASM 3 gate library of the IBM path's circuits: what `include "stdgates.inc";` brings in,
// and a `gate` definition for each native gate it lacks, so that every gate a circuit calls is
// defined in the program as the OpenQASM 3 specification requires.

/**
 * The gates `stdgates.inc` defines: openqasm/openqasm@45977e12c6ed examples/stdgates.inc (the same
 * 32 names Qiskit's exporter maps to that file, Qiskit/qiskit@301a22ce0360 qiskit/qasm3/exporter.py
 * `_KNOWN_INCLUDES`). `U` and `gphase` are built into the language, not part of the file.
 */
export const STDGATES_INC: ReadonlySet<string> = new Set([
  'p',
  'x',
  'y',
  'z',
  'h',
  's',
  'sdg',
  't',
  'tdg',
  'sx',
  'rx',
  'ry',
  'rz',
  'cx',
  'cy',
  'cz',
  'cp',
  'crx',
  'cry',
  'crz',
  'ch',
  'swap',
  'ccx',
  'cswap',
  'cu',
  'CX',
  'phase',
  'cphase',
  'id',
  'u1',
  'u2',
  'u3',
]);

/** The statement every IBM circuit carries after its version line, as IBM's REST examples do. */
export const STDGATES_INCLUDE = 'include "stdgates.inc";';

/**
 * Definitions of the native gates `stdgates.inc` lacks, in terms of gates it has, as Qiskit's
 * OpenQASM 3 exporter writes them (its qubit and parameter names):
 * - `ecr`: Qiskit/qiskit@301a22ce0360 crates/circuit/src/standard_gate/mod.rs, `ECR`'s definition
 *   `s q0; sx q1; cx q0, q1; x q0` with global phase −π/4, which a gate body leaves out (the
 *   exporter writes none); Qiskit's ECRGate matrix, (1/√2)[[0,1,0,i],[1,0,−i,0],[0,i,0,1],[−i,0,1,0]]
 *   (qiskit/circuit/library/standard_gates/ecr.py), up to that phase.
 * - `rzz(θ)`: `cx; rz(θ) q1; cx`, exactly the body test/python/qasm3/test_export.py expects of the
 *   exporter, exp(−iθ Z⊗Z/2) up to a global phase.
 *
 * The numbers were checked against those matrices in qasmGates.test.ts.
 */
export const GATE_DEFINITIONS: Readonly<Record<string, string>> = {
  ecr: [
    'gate ecr _gate_q_0, _gate_q_1 {',
    '  s _gate_q_0;',
    '  sx _gate_q_1;',
    '  cx _gate_q_0, _gate_q_1;',
    '  x _gate_q_0;',
    '}',
  ].join('\n'),
  rzz: [
    'gate rzz(p0) _gate_q_0, _gate_q_1 {',
    '  cx _gate_q_0, _gate_q_1;',
    '  rz(p0) _gate_q_1;',
    '  cx _gate_q_0, _gate_q_1;',
    '}',
  ].join('\n'),
};

/**
 * The lines that open a circuit calling the gates `used`: the version, the include, then the
 * definition of each used gate `stdgates.inc` lacks (in the order of {@link GATE_DEFINITIONS}).
 *
 * @throws {Error} for a used gate that is neither in `stdgates.inc` nor defined here (a bug of the
 *   decomposition, never of the input).
 */
export function qasmPrelude(used: Iterable<string>): string[] {
  const names = new Set(used);
  for (const name of names) {
    if (!STDGATES_INC.has(name) && GATE_DEFINITIONS[name] === undefined)
      throw new Error(`no OpenQASM 3 definition for gate ${name}`);
  }
  const definitions = Object.entries(GATE_DEFINITIONS)
    .filter(([name]) => names.has(name) && !STDGATES_INC.has(name))
    .map(([, text]) => text);
  return ['OPENQASM 3.0;', STDGATES_INCLUDE, ...definitions];
}
