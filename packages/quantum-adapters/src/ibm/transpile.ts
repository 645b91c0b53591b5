// The IBM path's transpiler: dqa-sim's Trotter circuit routed onto a line of the device's qubits
// (swapNetwork.ts), decomposed into its native gates (isaDecompose.ts) and printed as the OpenQASM 3
// a Sampler V2 pub carries (with `stdgates.inc` and the definitions of the gates it lacks,
// qasmGates.ts), with the final permutation the decoding undoes.
import { annealCircuit } from '@boltzmann/dqa-sim';
import type { AnnealOptions, IsingProblem } from '@boltzmann/dqa-sim';
import { invalidArgument } from '../shared/errors.js';
import { selectLayout } from './deviceLayout.js';
import type { DeviceLayout } from './deviceLayout.js';
import type { IbmTarget, IsaCircuit, IsaCircuitStats } from './ibmTypes.js';
import { IsaBuilder, isaBasis } from './isaDecompose.js';
import type { IsaGate } from './isaDecompose.js';
import { qasmPrelude } from './qasmGates.js';
import { routeOnLine } from './swapNetwork.js';

export { selectLayout };
export type { DeviceLayout };

/**
 * Options of {@link transpileAnneal}.
 *
 * @category IBM Quantum
 */
export interface TranspileOptions {
  /** The path of qubits to use (from {@link selectLayout}); chosen for this call when omitted. */
  readonly layout?: DeviceLayout;
}

/** Shortest round-trip decimal, never `-0`: every angle reaches the device to the last bit. */
const fmt = (x: number): string => String(x === 0 ? 0 : x);

/** One gate as an OpenQASM 3 statement on physical qubits. */
function statement(g: IsaGate): string {
  const operands = g.qubits.map((q) => `$${q}`).join(', ');
  return g.angle === undefined
    ? `${g.name} ${operands};`
    : `${g.name}(${fmt(g.angle)}) ${operands};`;
}

/** Depth (longest chain of gates on any qubit), two-qubit gates and per-name counts. */
function circuitStats(gates: readonly IsaGate[], swapLayersPerStep: number): IsaCircuitStats {
  const depthOf = new Map<number, number>();
  const gateCounts: Record<string, number> = {};
  let twoQubitGates = 0;
  let depth = 0;
  for (const g of gates) {
    gateCounts[g.name] = (gateCounts[g.name] ?? 0) + 1;
    if (g.qubits.length === 2) twoQubitGates++;
    const d = Math.max(...g.qubits.map((q) => depthOf.get(q) ?? 0)) + 1;
    for (const q of g.qubits) depthOf.set(q, d);
    depth = Math.max(depth, d);
  }
  return { depth, twoQubitGates, gateCounts, swapLayersPerStep };
}

/**
 * Transpiles the DQA anneal of one problem for an IBM device: dqa-sim's Trotter circuit
 * (`annealCircuit`) with every coupling applied by an odd–even swap network along a path of
 * physical qubits (n layers per Trotter step for dense J, fewer for banded), decomposed into `rz`,
 * `sx`, `x` and `cz` (Heron) or `ecr` (Eagle, in its calibrated direction), or fractional `rzz`
 * when `target.fractionalGates` is set and the basis has it. The qubits end permuted; bit k of the
 * result holds spin `logicalOfBit[k]` (measured bit 0 = spin +1, as in dqa-sim).
 *
 * @summary Transpiles the DQA anneal of one problem for an IBM device.
 * @param problem fields and optional `n × n` couplings (physics signs).
 * @param anneal dqa-sim's anneal options (schedule, τ, steps, order, β, calibration).
 * @param target the device: `configuration` (basis gates, coupling map), optional `properties`.
 * @param options a layout chosen once for problems of this size.
 * @returns the OpenQASM 3 program on `$k` qubits (`include "stdgates.inc";`, then a `gate`
 *   definition of `ecr` or `rzz` when used), the layout, the permutation and gate statistics.
 * @throws {AdapterError} ADAPTER_INVALID_ARGUMENT for a basis without `cz`/`ecr`, `rz`, `sx`, `x`,
 *   a layout of the wrong size or with an uncoupled neighbour, or no path of n qubits.
 * @throws {DqaError} for a malformed problem or anneal options (as dqa-sim's `annealCircuit`).
 * @example
 * import { IBM_FEZ_SNAPSHOT, transpileAnneal } from '@boltzmann/quantum-adapters';
 *
 * const circuit = transpileAnneal({ fields: [0.3, -0.1], couplings: [0, 0.5, 0, 0] }, { tau: 2, steps: 8 }, IBM_FEZ_SNAPSHOT);
 * console.log(circuit.stats.twoQubitGates, circuit.logicalOfBit);
 * @category IBM Quantum
 */
export function transpileAnneal(
  problem: IsingProblem,
  anneal: AnnealOptions,
  target: IbmTarget,
  options: TranspileOptions = {},
): IsaCircuit {
  const basis = isaBasis(target.configuration, target.fractionalGates ?? false);
  const circuit = annealCircuit(problem, anneal);
  const { n } = circuit;
  const layout = options.layout ?? selectLayout(target, n);
  const physical = layout.physicalQubits;
  if (physical.length !== n) {
    throw invalidArgument(
      `the layout has ${physical.length} qubits; this problem has ${n} spins (choose one layout per problem size)`,
    );
  }
  const builder = new IsaBuilder(basis, target.configuration.coupling_map);
  for (let p = 0; p + 1 < n; p++) {
    if (
      !builder.native(physical[p]!, physical[p + 1]!) &&
      !builder.native(physical[p + 1]!, physical[p]!)
    )
      throw invalidArgument(
        `layout qubits ${physical[p]} and ${physical[p + 1]} are not coupled on ${target.configuration.backend_name}`,
      );
  }
  const line = routeOnLine(circuit);
  for (const gate of line.gates) builder.apply(gate, physical);
  const gates = builder.finish();
  const used = new Set(gates.map((g) => g.name));
  const lines = [...qasmPrelude(used), `bit[${n}] c;`, ...gates.map(statement)];
  for (let k = 0; k < n; k++) lines.push(`c[${k}] = measure $${physical[k]};`);
  return {
    qasm: `${lines.join('\n')}\n`,
    register: 'c',
    physicalQubits: [...physical],
    logicalOfBit: [...line.logicalAt],
    stats: circuitStats(gates, line.layersPerStep),
  };
}
