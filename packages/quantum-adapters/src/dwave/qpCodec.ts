import { echo } from '@boltzmann/ising-core/internal';
import { invalidArgument, malformed } from '../shared/errors.js';
import { decodeBase64, decodeFloat64LE, decodeInt32LE, encodeFloat64LE } from './base64.js';
import type { QpTerms, SolverGraph } from '../embedding/solverGraph.js';

/**
 * The `data` member of a SAPI `qp` submission.
 *
 * @category D-Wave
 */
export interface QpProblemData {
  readonly format: 'qp';
  readonly lin: string;
  readonly quad: string;
  readonly offset: number;
}

const lookupCache = new WeakMap<SolverGraph, { qubitSet: Set<number>; couplerSet: Set<string> }>();

/** Membership sets of a graph, built once per graph object (a batch encodes hundreds of problems). */
function lookups(graph: SolverGraph): { qubitSet: Set<number>; couplerSet: Set<string> } {
  let cached = lookupCache.get(graph);
  if (!cached) {
    const couplerSet = new Set<string>();
    for (const [a, b] of graph.couplers) couplerSet.add(`${a},${b}`).add(`${b},${a}`);
    cached = { qubitSet: new Set(graph.qubits), couplerSet };
    lookupCache.set(graph, cached);
  }
  return cached;
}

/**
 * Encodes a physical problem in SAPI's `qp` format (QUANTUM_APIS.md §1.4.1): `lin` has one
 * little-endian float64 per working qubit (NaN when inactive), `quad` one per coupler whose two
 * qubits are both active (0 when it carries no bias).
 *
 * @summary Encodes a physical problem in SAPI's `qp` format (QUANTUM_APIS.md §1.4.1).
 * @param graph the solver's `qubits` and `couplers`.
 * @param terms biases in D-Wave signs.
 * @param offset energy offset sent as `data.offset`.
 * @returns the `data` object of a submission.
 * @throws {AdapterError} ADAPTER_INVALID_ARGUMENT for a bias on a missing qubit or coupler, or a non-finite bias.
 * @example
 * import { encodeQpProblem } from '@boltzmann/quantum-adapters';
 *
 * const problem = encodeQpProblem(
 *   { qubits: [0, 1], couplers: [[0, 1]] },
 *   { linear: new Map([[0, 1]]), quadratic: new Map([['0,1', -1]]) },
 * );
 * console.log(problem); // { format: 'qp', lin: '…', quad: '…', offset: 0 }
 * @category D-Wave
 */
export function encodeQpProblem(graph: SolverGraph, terms: QpTerms, offset = 0): QpProblemData {
  const { qubitSet, couplerSet } = lookups(graph);
  const active = new Set<number>();
  for (const [q, bias] of terms.linear) {
    if (!qubitSet.has(q))
      throw invalidArgument(
        `linear bias on qubit ${q}, which is not a working qubit of the solver`,
      );
    if (!Number.isFinite(bias)) throw invalidArgument(`linear bias on qubit ${q} is ${bias}`);
    active.add(q);
  }
  for (const [key, bias] of terms.quadratic) {
    if (!couplerSet.has(key))
      throw invalidArgument(`quadratic bias on (${key}), which is not a coupler of the solver`);
    if (!Number.isFinite(bias)) throw invalidArgument(`quadratic bias on (${key}) is ${bias}`);
    const [a, b] = key.split(',').map(Number) as [number, number];
    active.add(a).add(b);
  }
  if (!Number.isFinite(offset)) throw invalidArgument(`offset is ${offset}`);
  const lin = graph.qubits.map((q) => (active.has(q) ? (terms.linear.get(q) ?? 0) : Number.NaN));
  const quad: number[] = [];
  for (const [a, b] of graph.couplers) {
    if (!active.has(a) || !active.has(b)) continue;
    quad.push((terms.quadratic.get(`${a},${b}`) ?? 0) + (terms.quadratic.get(`${b},${a}`) ?? 0));
  }
  return { format: 'qp', lin: encodeFloat64LE(lin), quad: encodeFloat64LE(quad), offset };
}

/**
 * A decoded `qp` answer. Solutions cover the active variables only.
 *
 * @category D-Wave
 */
export interface QpAnswer {
  /** Total qubit count of the solver (`num_variables`). */
  readonly numVariables: number;
  /** Active qubit indices, ascending; column `k` of a solution is qubit `activeVariables[k]`. */
  readonly activeVariables: Int32Array;
  /** Energy of each solution as SAPI reports it (offset added when the answer carries one). */
  readonly energies: Float64Array;
  /** Occurrences of each solution (all 1 when the answer has none, e.g. `answer_mode: "raw"`). */
  readonly numOccurrences: Float64Array;
  /** `energies.length × activeVariables.length` values: ±1 for `ising`, 0/1 for `qubo`. */
  readonly solutions: Int8Array;
}

function record(value: unknown, what: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw malformed(`${what} must be a JSON object`);
  return value as Record<string, unknown>;
}

/**
 * Decodes a SAPI `qp` answer (QUANTUM_APIS.md §1.6): int32 active variables, float64 energies,
 * optional int32 occurrences, and solutions bit-packed MSB-first per byte, one byte-aligned row
 * per solution over the active variables.
 *
 * @summary Decodes a SAPI `qp` answer (QUANTUM_APIS.md §1.6).
 * @param answer the `answer` member of a COMPLETED problem.
 * @param type the submitted problem type; decides whether a set bit means +1 (`ising`) or 1 (`qubo`).
 * @throws {AdapterError} ADAPTER_MALFORMED (not retryable) for missing fields, bad base64 or inconsistent lengths.
 * @example
 * import { decodeQpAnswer } from '@boltzmann/quantum-adapters';
 *
 * // A SAPI answer for 2 active qubits and 2 samples (base64 little-endian, as the service sends it).
 * const b64 = (bytes: number[]): string => Buffer.from(bytes).toString('base64');
 * const answer = {
 *   format: 'qp',
 *   active_variables: b64([0, 0, 0, 0, 1, 0, 0, 0]),
 *   num_variables: 2,
 *   solutions: b64([0b01000000, 0b11000000]),
 *   energies: b64([...new Uint8Array(Float64Array.of(-1, 1).buffer)]),
 *   num_occurrences: b64([3, 0, 0, 0, 1, 0, 0, 0]),
 *   timing: {},
 * };
 * const a = decodeQpAnswer(answer);
 * console.log(a.activeVariables, a.solutions); // rows of ±1 over the active variables
 * @category D-Wave
 */
export function decodeQpAnswer(answer: unknown, type: 'ising' | 'qubo' = 'ising'): QpAnswer {
  const a = record(answer, 'answer');
  if (a.format !== 'qp') throw malformed(`answer.format is ${echo(a.format)}, expected "qp"`);
  const numVariables = a.num_variables;
  if (typeof numVariables !== 'number' || !Number.isInteger(numVariables) || numVariables < 1) {
    throw malformed(`answer.num_variables is ${echo(numVariables)}, expected a positive integer`);
  }
  const activeVariables = decodeInt32LE(a.active_variables, 'answer.active_variables');
  const nActive = activeVariables.length;
  if (nActive === 0) throw malformed('answer.active_variables is empty');
  for (let k = 0; k < nActive; k++) {
    const q = activeVariables[k]!;
    if (q < 0 || q >= numVariables || (k > 0 && q <= activeVariables[k - 1]!)) {
      throw malformed(
        `answer.active_variables[${k}] = ${q} is out of range [0, ${numVariables}) or not ascending`,
      );
    }
  }
  const energies = decodeFloat64LE(a.energies, 'answer.energies');
  const nSol = energies.length;
  if (nSol === 0) throw malformed('answer.energies is empty');
  let numOccurrences: Float64Array;
  if (a.num_occurrences === undefined || a.num_occurrences === null)
    numOccurrences = new Float64Array(nSol).fill(1);
  else {
    const occ = decodeInt32LE(a.num_occurrences, 'answer.num_occurrences');
    if (occ.length !== nSol)
      throw malformed(`answer.num_occurrences has ${occ.length} entries for ${nSol} energies`);
    if (occ.some((c) => c < 0)) throw malformed('answer.num_occurrences has a negative count');
    numOccurrences = Float64Array.from(occ);
  }
  const bytes = decodeBase64(a.solutions, 'answer.solutions');
  const bytesPer = Math.ceil(nActive / 8);
  // The reference numpy decoder reshapes by the actual length, so a wider stride is tolerated.
  const stride = bytes.length / nSol;
  if (!Number.isInteger(stride) || stride < bytesPer) {
    throw malformed(
      `answer.solutions has ${bytes.length} bytes; ${nSol} solutions of ${nActive} bits need ${nSol * bytesPer}`,
    );
  }
  const off = type === 'ising' ? -1 : 0;
  const solutions = new Int8Array(nSol * nActive);
  for (let i = 0; i < nSol; i++) {
    for (let k = 0; k < nActive; k++) {
      const bit = (bytes[i * stride + (k >> 3)]! >> (7 - (k & 7))) & 1;
      solutions[i * nActive + k] = bit === 1 ? 1 : off;
    }
  }
  if (a.offset !== undefined && a.offset !== null) {
    if (typeof a.offset !== 'number' || !Number.isFinite(a.offset))
      throw malformed(`answer.offset is ${echo(a.offset)}`);
    for (let i = 0; i < nSol; i++) energies[i] = energies[i]! + a.offset;
  }
  return { numVariables, activeVariables, energies, numOccurrences, solutions };
}

/**
 * Scatters decoded solutions onto all `numVariables` qubits, writing `inactive` at qubits that were
 * not part of the problem (the numpy reference uses 0 for `ising`, 3 for `qubo`).
 *
 * @returns `energies.length × numVariables` values, row-major.
 * @category D-Wave
 */
export function qpFullRows(answer: QpAnswer, inactive: number): Int8Array {
  const n = answer.numVariables;
  const nActive = answer.activeVariables.length;
  const rows = answer.energies.length;
  const out = new Int8Array(rows * n).fill(inactive);
  for (let i = 0; i < rows; i++) {
    for (let k = 0; k < nActive; k++)
      out[i * n + answer.activeVariables[k]!] = answer.solutions[i * nActive + k]!;
  }
  return out;
}
