// Qubit selection for the IBM path: a simple path of n coupled physical qubits (the swap network
// needs a line), the one with the lowest error when the backend's calibration is known.
import { invalidArgument } from '../shared/errors.js';
import type { IbmBackendConfiguration, IbmBackendProperties, IbmTarget } from './ibmTypes.js';

/**
 * A line of coupled physical qubits chosen for problems of one size on one device.
 *
 * @category IBM Quantum
 */
export interface DeviceLayout {
  /** The backend it was chosen on (`configuration.backend_name`). */
  readonly backend: string;
  /** Physical qubit of each position 0 … n − 1; consecutive entries are coupled. */
  readonly physicalQubits: readonly number[];
  /**
   * Error score of the path: the two-qubit gate errors of its n − 1 couplers plus the readout
   * errors of its n qubits (0 without `properties`). Lower is better.
   */
  readonly score: number;
}

/** Expansions of the path search from one start qubit before it moves on. */
const BUDGET_PER_START = 4_000;
/** Expansions of the whole search (about a second): no start is tried past it. */
const TOTAL_BUDGET = 2_000_000;

/** Undirected adjacency and the costs the search minimizes. */
interface Graph {
  readonly adjacency: readonly (readonly number[])[];
  readonly qubitCost: Float64Array;
  readonly edgeCost: (a: number, b: number) => number;
  readonly minQubitCost: number;
  readonly minEdgeCost: number;
}

const edgeKey = (a: number, b: number): number => Math.min(a, b) * 65_536 + Math.max(a, b);

/** The median of known values: the neutral default for a qubit or coupler the properties omit. */
function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

const isError = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** Readout error per qubit (`properties.qubits[q]`'s `readout_error`). */
function readoutErrors(properties: IbmBackendProperties, nQubits: number): Float64Array {
  const known: (number | undefined)[] = [];
  for (let q = 0; q < nQubits; q++) {
    const v = properties.qubits?.[q]?.find((p) => p.name === 'readout_error')?.value;
    known.push(isError(v) ? v : undefined);
  }
  const fallback = median(known.filter(isError));
  return Float64Array.from(known, (v) => v ?? fallback);
}

/**
 * Two-qubit gate error per coupler (the worse direction), for the basis's two-qubit gate, and with
 * fractional gates for `rzz` too (the circuit uses both on its couplers: 1 − Π (1 − ε)).
 */
function couplerErrors(
  properties: IbmBackendProperties,
  configuration: IbmBackendConfiguration,
  fractional: boolean,
): { get: (a: number, b: number) => number } {
  const basis = configuration.basis_gates;
  const native = basis.includes('cz') ? 'cz' : basis.includes('ecr') ? 'ecr' : undefined;
  const gates = fractional && basis.includes('rzz') ? [native, 'rzz'] : [native];
  const perGate = gates.map((gate) => {
    const errors = new Map<number, number>();
    for (const g of properties.gates ?? []) {
      if (g.qubits.length !== 2 || (gate !== undefined && g.gate !== gate)) continue;
      const v = g.parameters.find((p) => p.name === 'gate_error')?.value;
      if (!isError(v)) continue;
      const key = edgeKey(g.qubits[0]!, g.qubits[1]!);
      errors.set(key, Math.max(errors.get(key) ?? 0, v));
    }
    const fallback = median([...errors.values()]);
    return (key: number) => Math.min(errors.get(key) ?? fallback, 1);
  });
  return {
    get: (a, b) => 1 - perGate.reduce((keep, error) => keep * (1 - error(edgeKey(a, b))), 1),
  };
}

/** Validates the coupling map and builds the search graph. */
function buildGraph(target: IbmTarget): Graph {
  const { configuration, properties } = target;
  const nQubits = configuration.n_qubits;
  const neighbors = Array.from({ length: nQubits }, () => new Set<number>());
  for (const pair of configuration.coupling_map) {
    const [a, b] = pair;
    const ok = (q: unknown): q is number =>
      Number.isInteger(q) && (q as number) >= 0 && (q as number) < nQubits;
    if (pair.length !== 2 || !ok(a) || !ok(b) || a === b) {
      throw invalidArgument(
        `${configuration.backend_name}: coupling_map entry ${JSON.stringify(pair)} is not a pair of distinct qubits in [0, ${nQubits})`,
      );
    }
    neighbors[a]!.add(b);
    neighbors[b]!.add(a);
  }
  const qubitCost = properties ? readoutErrors(properties, nQubits) : new Float64Array(nQubits);
  const fractional = target.fractionalGates === true;
  const couplers = properties ? couplerErrors(properties, configuration, fractional) : undefined;
  const edgeCost = (a: number, b: number): number => couplers?.get(a, b) ?? 0;
  // Cheapest continuation first, so the first complete paths are already good ones.
  const adjacency = neighbors.map((set, a) =>
    [...set].sort(
      (x, y) => edgeCost(a, x) + qubitCost[x]! - edgeCost(a, y) - qubitCost[y]! || x - y,
    ),
  );
  let minEdgeCost = Number.POSITIVE_INFINITY;
  adjacency.forEach((list, a) => {
    for (const b of list) minEdgeCost = Math.min(minEdgeCost, edgeCost(a, b));
  });
  return {
    adjacency,
    qubitCost,
    edgeCost,
    minQubitCost: Math.min(...qubitCost),
    minEdgeCost: Number.isFinite(minEdgeCost) ? minEdgeCost : 0,
  };
}

/** Size of the largest connected group of qubits. */
function largestComponent(adjacency: readonly (readonly number[])[]): number {
  const seen = new Uint8Array(adjacency.length);
  let largest = 0;
  for (let s = 0; s < adjacency.length; s++) {
    if (seen[s]) continue;
    const stack = [s];
    seen[s] = 1;
    let size = 0;
    while (stack.length > 0) {
      const q = stack.pop()!;
      size++;
      for (const r of adjacency[q]!) {
        if (seen[r]) continue;
        seen[r] = 1;
        stack.push(r);
      }
    }
    largest = Math.max(largest, size);
  }
  return largest;
}

/** Best path found so far, shared by the searches from every start. */
interface Best {
  path: number[] | undefined;
  score: number;
}

/** Depth-first search from `start` with branch and bound, at most {@link BUDGET_PER_START} expansions. */
function searchFrom(graph: Graph, start: number, n: number, best: Best): void {
  const path = [start];
  const onPath = new Uint8Array(graph.adjacency.length);
  onPath[start] = 1;
  let budget = BUDGET_PER_START;
  const bound = (score: number): number =>
    score + (n - path.length) * (graph.minQubitCost + graph.minEdgeCost);
  const extend = (score: number): void => {
    if (path.length === n) {
      if (score < best.score) {
        best.path = [...path];
        best.score = score;
      }
      return;
    }
    const last = path[path.length - 1]!;
    for (const next of graph.adjacency[last]!) {
      if (onPath[next] || budget <= 0) continue;
      budget--;
      const s = score + graph.edgeCost(last, next) + graph.qubitCost[next]!;
      path.push(next);
      onPath[next] = 1;
      if (bound(s) < best.score) extend(s);
      path.pop();
      onPath[next] = 0;
    }
  };
  extend(graph.qubitCost[start]!);
}

/**
 * Picks a simple path of `n` coupled physical qubits for the swap network (the coupling map is
 * read as undirected).
 *
 * With `target.properties`, the path minimizes the sum of its couplers' two-qubit gate errors and
 * its qubits' readout errors (entries the properties omit count as the median of the known ones);
 * without, the first path found is taken. The search is a bounded depth-first search from each
 * qubit, best readout first and at most 500 of them (cheapest continuations first, branch and
 * bound), so the result is deterministic, and the best path within the budget rather than a proven
 * optimum. Choose one layout per problem size and pass it to every `transpileAnneal` of that size.
 *
 * @param target the device (its `coupling_map`, and `properties` when known).
 * @param n qubits on the path (the problem's spins).
 * @returns the path and its error score.
 * @throws {AdapterError} ADAPTER_INVALID_ARGUMENT when n is not an integer in [1, n_qubits], the
 *   coupling map is malformed, or no path of n qubits is found.
 * @example
 * import { IBM_FEZ_SNAPSHOT, selectLayout } from '@boltzmann/quantum-adapters';
 *
 * const layout = selectLayout(IBM_FEZ_SNAPSHOT, 8);
 * console.log(layout.physicalQubits); // 8 coupled qubits
 * @category IBM Quantum
 */
export function selectLayout(target: IbmTarget, n: number): DeviceLayout {
  const { configuration } = target;
  const name = configuration.backend_name;
  if (!Number.isInteger(n) || n < 1 || n > configuration.n_qubits) {
    throw invalidArgument(
      `${name} has ${configuration.n_qubits} qubits; a problem of ${n} spins needs an integer in [1, ${configuration.n_qubits}]`,
    );
  }
  const graph = buildGraph(target);
  const largest = largestComponent(graph.adjacency);
  if (largest < n)
    throw invalidArgument(
      `${name}: no path of ${n} coupled qubits; its largest connected group has ${largest}`,
    );
  const starts = graph.adjacency.map((_, q) => q);
  starts.sort((a, b) => graph.qubitCost[a]! - graph.qubitCost[b]! || a - b);
  const best: Best = { path: undefined, score: Number.POSITIVE_INFINITY };
  const free = target.properties === undefined;
  for (let i = 0; i < starts.length && i * BUDGET_PER_START < TOTAL_BUDGET; i++) {
    const start = starts[i]!;
    searchFrom(graph, start, n, best);
    if (free && best.path !== undefined) break; // every path scores 0: the first is as good as any
  }
  if (best.path === undefined) {
    throw invalidArgument(
      `${name}: no simple path of ${n} coupled qubits found within the search budget (${BUDGET_PER_START} steps from each of at most ${TOTAL_BUDGET / BUDGET_PER_START} starting qubits)`,
    );
  }
  return { backend: name, physicalQubits: best.path, score: best.score };
}
