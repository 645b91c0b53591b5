import { echo } from '@boltzmann/ising-core/internal';
import type { Embedding } from './embedding.js';
import { AdapterError, invalidArgument } from '../shared/errors.js';
import { cliqueLayout } from './cliqueLayout.js';
import type { SolverGraph } from './solverGraph.js';

// Offsets of D-Wave's production Pegasus lattices (dwave-networkx `pegasus_graph`, offsets_index 0).
const S0 = [2, 2, 2, 2, 10, 10, 10, 10, 6, 6, 6, 6] as const;
const S1 = [6, 6, 6, 6, 2, 2, 2, 2, 10, 10, 10, 10] as const;
const FABRIC_START = [2, 2] as const;
const FABRIC_END = [2, 2] as const;

function assertM(m: number): void {
  if (!Number.isInteger(m) || m < 2)
    throw invalidArgument(`the Pegasus size m must be an integer ≥ 2, got ${echo(m)}`);
}

/**
 * Linear index of Pegasus qubit `(u, w, k, z)` of `P(m)`: `((u·m + w)·12 + k)·(m−1) + z` (dwave-networkx numbering).
 *
 * @category Embedding
 */
export function pegasusIndex(m: number, u: number, w: number, k: number, z: number): number {
  return ((u * m + w) * 12 + k) * (m - 1) + z;
}

/**
 * Linear index of the qubit with "nice" coordinates `(t, y, x, u, k)` (dwave-networkx
 * `nice_to_pegasus`): for each `t ∈ {0, 1, 2}` the nice qubits form a Chimera lattice
 * `C(m−1, m−1, 4)` (rows `y`, columns `x`) inside `P(m)`.
 * @summary Linear index of the qubit with "nice" coordinates `(t, y, x, u, k)` (dwave-networkx `nice_to_pegasus`).
 * @category Embedding
 */
export function pegasusNiceIndex(
  m: number,
  t: number,
  y: number,
  x: number,
  u: 0 | 1,
  k: number,
): number {
  if (t === 0) return u ? pegasusIndex(m, 1, y + 1, 4 + k, x) : pegasusIndex(m, 0, x, 4 + k, y);
  if (t === 1) return u ? pegasusIndex(m, 1, y + 1, k, x) : pegasusIndex(m, 0, x, 8 + k, y);
  if (t === 2) return u ? pegasusIndex(m, 1, y, 8 + k, x) : pegasusIndex(m, 0, x + 1, k, y);
  throw invalidArgument(`nice coordinate t must be 0, 1 or 2, got ${echo(t)}`);
}

/**
 * The full-yield Pegasus graph `P(m)` as D-Wave Advantage solvers number it (dwave-networkx
 * `pegasus_graph(m)`, `fabric_only=True`, production offsets): external couplers along `z`, odd
 * couplers between `k = 2i` and `2i + 1`, and the internal couplers given by the offsets. It has
 * `24m(m−1) − 8(m−1)` qubits (5,640 for Advantage's `m = 16`) and degree ≤ 15.
 *
 * @summary The full-yield Pegasus graph `P(m)` as D-Wave Advantage solvers number it.
 * @throws {AdapterError} ADAPTER_INVALID_ARGUMENT for `m < 2`.
 * @example
 * import { pegasusGraph } from '@boltzmann/quantum-adapters';
 *
 * const p16 = pegasusGraph(16);
 * console.log(p16.qubits.length); // 5640
 * @category Embedding
 */
export function pegasusGraph(m: number): SolverGraph {
  assertM(m);
  const m1 = m - 1;
  const couplers: [number, number][] = [];
  const add = (a: number, b: number): void => {
    couplers.push(a < b ? [a, b] : [b, a]);
  };
  const kRange = (u: 0 | 1, w: number): [number, number] => [
    w === 0 ? FABRIC_START[u] : 0,
    12 - (w === m1 ? FABRIC_END[u] : 0),
  ];
  for (const u of [0, 1] as const) {
    for (let w = 0; w < m; w++) {
      const [k0, k1] = kRange(u, w);
      for (let k = k0; k < k1; k++)
        for (let z = 0; z < m1 - 1; z++)
          add(pegasusIndex(m, u, w, k, z), pegasusIndex(m, u, w, k, z + 1));
      for (let k = k0; k < k1; k += 2)
        for (let z = 0; z < m1; z++)
          add(pegasusIndex(m, u, w, k, z), pegasusIndex(m, u, w, k + 1, z));
    }
  }
  const inFabric = (u: 0 | 1, w: number, k: number): boolean =>
    w === 0 ? k >= FABRIC_START[u] : w === m1 ? k < 12 - FABRIC_END[u] : true;
  for (let w = 0; w < m; w++) {
    for (let kk = 0; kk < 12; kk++) {
      for (let k = w ? 0 : S1[kk]!; k < (w < m1 ? 12 : S1[kk]!); k++) {
        for (let z = 0; z < m1; z++) {
          const w1 = z + (kk < S0[k]! ? 1 : 0);
          const z1 = w - (k < S1[kk]! ? 1 : 0);
          if (inFabric(0, w, k) && inFabric(1, w1, kk))
            add(pegasusIndex(m, 0, w, k, z), pegasusIndex(m, 1, w1, kk, z1));
        }
      }
    }
  }
  couplers.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const qubits = [...new Set(couplers.flat())].sort((a, b) => a - b);
  return { qubits, couplers };
}

/**
 * Clique size {@link pegasusCliqueEmbedding} reaches on `P(m)`: `4(m−1)` (60 on Advantage).
 *
 * @category Embedding
 */
export function pegasusCliqueCapacity(m: number): number {
  assertM(m);
  return 4 * (m - 1);
}

/**
 * Embeds `K_n` into a Pegasus solver through the Chimera lattices `C(m−1, m−1, 4)` that its nice
 * coordinates contain: the native Chimera "triangle" clique layout (chains of `ceil(n/4) + 1`
 * qubits) is tried on each of the three lattices `t = 0, 1, 2`, at every offset and reflection,
 * and the first placement valid on the solver's working graph is returned. Dedicated Pegasus
 * layouts (busclique) reach larger cliques; this one reaches `4(m−1)`.
 *
 * @summary Embeds `K_n` into a Pegasus solver through the Chimera lattices `C(m−1, m−1, 4)` that its nice coordinates contain.
 * @param n number of logical variables.
 * @param m the Pegasus size (`topology.shape[0]`, 16 on Advantage).
 * @param graph the solver's working graph (defaults to the full-yield lattice).
 * @throws {AdapterError} ADAPTER_EMBEDDING when `n > 4(m−1)` or no placement avoids the missing qubits.
 * @example
 * import { pegasusCliqueEmbedding, pegasusGraph } from '@boltzmann/quantum-adapters';
 *
 * const solverGraph = pegasusGraph(16);
 * const chains = pegasusCliqueEmbedding(12, 16, solverGraph);
 * console.log(chains.map((c) => c.length));
 * @category Embedding
 */
export function pegasusCliqueEmbedding(
  n: number,
  m: number,
  graph: SolverGraph = pegasusGraph(m),
): Embedding {
  assertM(m);
  if (!Number.isInteger(n) || n < 1)
    throw invalidArgument(`clique size must be a positive integer, got ${echo(n)}`);
  const capacity = pegasusCliqueCapacity(m);
  if (n > capacity) {
    throw new AdapterError(
      'ADAPTER_EMBEDDING',
      `K_${n} does not fit the Pegasus P(${m}) nice-lattice clique layout (capacity ${capacity}); pass an explicit embedding`,
      { reason: 'rejected', retryable: false },
    );
  }
  for (const t of [0, 1, 2]) {
    const found = cliqueLayout(
      n,
      { rows: m - 1, columns: m - 1, shore: 4 },
      (y, x, u, k) => pegasusNiceIndex(m, t, y, x, u, k),
      graph,
    );
    if (found) return found;
  }
  throw new AdapterError(
    'ADAPTER_EMBEDDING',
    `no placement of the K_${n} clique layout on the nice lattices of P(${m}) avoids the solver's missing qubits and couplers; pass an explicit embedding`,
    { reason: 'rejected', retryable: false },
  );
}
