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
 * Definitions of the native gates `stdgates.inc` lacks, in terms of gates it has: the
 * decompositions Qiskit's standard gates define, which its OpenQASM 3 exporter writes as `gate`
 * blocks (Qiskit/qiskit@301a22ce0360 qiskit/qasm3/exporter.py):
 * - `ecr a, b` = `s a; sx b; cx a, b; x a` up to the global phase −π/4, which a gate body leaves
 *   out (crates/circuit/src/standard_gate/mod.rs, `ECR`'s definition); that is Qiskit's ECRGate
 *   matrix (1/√2)[[0,1,0,i],[1,0,−i,0],[0,i,0,1],[−i,0,1,0]] (qiskit/circuit/library/
 *   standard_gates/ecr.py, first operand the least significant bit).
 * - `rzz(θ) a, b` = `cx a, b; rz(θ) b; cx a, b`, exp(−iθ Z⊗Z/2) (standard_gates/rzz.py, and the
 *   body test/python/qasm3/test_export.py expects of the exporter).
 *
 * qasmGates.test.ts multiplies the bodies out and compares them with those matrices.
 */
export const GATE_DEFINITIONS: Readonly<Record<string, string>> = {
  ecr: ['gate ecr a, b {', '  s a;', '  sx b;', '  cx a, b;', '  x a;', '}'].join('\n'),
  rzz: ['gate rzz(theta) a, b {', '  cx a, b;', '  rz(theta) b;', '  cx a, b;', '}'].join('\n'),
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
