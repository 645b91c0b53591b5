import { echo } from '@boltzmann/ising-core/internal';
import type { AnnealOptions } from './anneal.js';
import { planCircuit } from './annealCircuit.js';
import { DqaError } from './errors.js';
import type { AnnealLayer, IsingProblem } from './types.js';

/**
 * Options of {@link toQasm3}: the anneal's options plus the output dialect.
 *
 * @category Circuits
 */
export interface QasmOptions extends AnnealOptions {
  /**
   * `'stdgates'` (default): `include "stdgates.inc";`, couplings as `cx; rz; cx` (stdgates.inc
   * has no `rzz`). `'braket'`: no include, Braket's native `zz` for couplings (QUANTUM_APIS.md §2.6).
   */
  readonly dialect?: 'stdgates' | 'braket';
  /** Append `c[j] = measure q[j];` for every qubit (default true). */
  readonly measure?: boolean;
}

/** Shortest round-trip decimal (and no `-0`): the circuit carries every angle to the last bit. */
const fmt = (x: number): string => String(x === 0 ? 0 : x);

/** Appends one layer's statements (stdgates couplings as `cx; rz; cx`, braket as `zz`). */
function renderLayer(
  layer: AnnealLayer,
  n: number,
  dialect: 'stdgates' | 'braket',
  lines: string[],
): void {
  if (layer.kind === 'mixer') {
    const a = fmt(layer.rx);
    for (let j = 0; j < n; j++) lines.push(`rx(${a}) q[${j}];`);
    return;
  }
  for (let j = 0; j < n; j++) {
    if (layer.rz[j] !== 0) lines.push(`rz(${fmt(layer.rz[j]!)}) q[${j}];`);
  }
  for (const [j, k, angle] of layer.zz) {
    const a = fmt(angle);
    if (dialect === 'braket') lines.push(`zz(${a}) q[${j}], q[${k}];`);
    else lines.push(`cx q[${j}], q[${k}];`, `rz(${a}) q[${k}];`, `cx q[${j}], q[${k}];`);
  }
}

/**
 * Exports the Trotter circuit the simulator runs as an OpenQASM 3 program.
 *
 * Conventions (all angles exact, no global phase dropped):
 * - qubit j carries spin j; a measured bit `c[j] = 0` means `s_j = +1` (|0⟩ is the +1
 *   eigenstate of Z), bit 1 means `s_j = −1`, i.e. `s = 1 − 2b`. The simulator's own index
 *   sets bit j ⇔ `s_j = +1`, so simulator index = computational index XOR (2^n − 1).
 * - `h` on every qubit prepares |+⟩^n.
 * - The problem layer `exp(−iθ E(Z))` with `E = −Σ h s − Σ J s s` is `rz(−2θ h_j)` per qubit and
 *   `exp(+iθ J Z_j Z_k) = Rzz(−2θ J_jk)` per coupling, with `Rz(a) = exp(−iaZ/2)` and
 *   `Rzz(a) = exp(−ia Z⊗Z/2)`, emitted as `cx q[j], q[k]; rz(a) q[k]; cx q[j], q[k];`
 *   (stdgates) or `zz(a) q[j], q[k];` (braket).
 * - The mixer `exp(−i dt A H_D) = Π_j exp(+iφ X_j)` is `rx(−2φ)` per qubit, `φ = dt A(u_k)`.
 * - Order 1: per step the problem layer, then the mixer. Order 2: half phase, mixer, half
 *   phase, with adjacent half phases merged into one layer (K + 1 problem layers in all).
 * - Calibration and β are applied to the angles, exactly as in the simulator.
 * - The gates are `annealCircuit`'s, printed in order.
 *
 * @param problem fields and optional `n × n` couplings (physics signs).
 * @param options anneal options (`calibrate` defaults to false, as in `annealStatevector`) and `dialect`.
 * @returns the program text, one statement per line.
 * @throws {DqaError} as `annealStatevector`; DQA_INVALID_ARGUMENT on an unknown dialect.
 * @example
 * import { toQasm3 } from '@boltzmann/dqa-sim';
 *
 * const qasm = toQasm3({ fields: [0.5, -0.2], couplings: [0, 0.3, 0, 0] }, { tau: 2, steps: 8 });
 * console.log(qasm); // OPENQASM 3.0; …
 * @category Circuits
 */
export function toQasm3(problem: IsingProblem, options: QasmOptions = {}): string {
  const dialect = options.dialect ?? 'stdgates';
  if (dialect !== 'stdgates' && dialect !== 'braket') {
    throw new DqaError(
      'DQA_INVALID_ARGUMENT',
      `dialect must be 'stdgates' or 'braket', got ${echo(dialect)}`,
    );
  }
  const { dialect: _d, measure: _m, ...annealOptions } = options;
  const { plan, circuit } = planCircuit(problem, annealOptions);
  const { n } = circuit;
  const lines: string[] = ['OPENQASM 3.0;'];
  if (dialect === 'stdgates') lines.push('include "stdgates.inc";');
  lines.push(
    `// Trotterized diabatic anneal: n = ${n}, tau = ${plan.tau}, K = ${plan.steps}, order ${plan.order}, ${plan.schedule.label}` +
      (plan.calibration === false ? '' : `, calibrated (${plan.calibration})`),
    '// qubit j = spin j; measured bit 0 means s = +1, bit 1 means s = -1',
    `qubit[${n}] q;`,
    `bit[${n}] c;`,
  );
  for (let j = 0; j < n; j++) lines.push(`h q[${j}];`);
  for (const layer of circuit.layers) renderLayer(layer, n, dialect, lines);
  if (options.measure ?? true) {
    for (let j = 0; j < n; j++) lines.push(`c[${j}] = measure q[${j}];`);
  }
  return `${lines.join('\n')}\n`;
}
