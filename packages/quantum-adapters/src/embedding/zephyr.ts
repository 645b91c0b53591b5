import { echo } from '@boltzmann/ising-core/internal';
import type { Embedding } from './embedding.js';
import { AdapterError, invalidArgument } from '../shared/errors.js';
import { cliqueLayout } from './cliqueLayout.js';
import type { SolverGraph } from './solverGraph.js';

function assertShape(m: number, t: number): void {
  if (!Number.isInteger(m) || m < 1)
    throw invalidArgument(`the Zephyr grid size m must be a positive integer, got ${echo(m)}`);
  if (!Number.isInteger(t) || t < 1)
    throw invalidArgument(`the Zephyr tile size t must be a positive integer, got ${echo(t)}`);
}

/**
 * Linear index of Zephyr qubit `(u, w, k, j, z)` of `Z(m, t)`: `(((u·(2m+1) + w)·t + k)·2 + j)·m + z` (dwave-networkx numbering).
 *
 * @category Embedding
 */
export function zephyrIndex(
  m: number,
  t: number,
  u: number,
  w: number,
  k: number,
  j: number,
  z: number,
): number {
  return (((u * (2 * m + 1) + w) * t + k) * 2 + j) * m + z;
}

/**
 * The full-yield Zephyr graph `Z(m, t)` as D-Wave Advantage2 solvers number it (dwave-networkx
 * `zephyr_graph(m, t)`): external couplers along `z`, odd couplers between `j = 0` and `j = 1`, and
 * the internal couplers. It has `4tm(2m+1)` qubits, `2t((8t+8)m² − 2m − 3)` couplers (m > 1) and
 * degree ≤ `4t + 4`.
 *
 * @summary The full-yield Zephyr graph `Z(m, t)` as D-Wave Advantage2 solvers number it (dwave-networkx `zephyr_graph(m, t)`).
 * @throws {AdapterError} ADAPTER_INVALID_ARGUMENT for non-positive sizes.
 * @example
 * import { zephyrGraph } from '@boltzmann/quantum-adapters';
 *
 * const z = zephyrGraph(6, 4);
 * console.log(z.qubits.length); // 1,248 qubits
 * @category Embedding
 */
export function zephyrGraph(m: number, t = 4): SolverGraph {
  assertShape(m, t);
  const M = 2 * m + 1;
  const q = (u: number, w: number, k: number, j: number, z: number): number =>
    zephyrIndex(m, t, u, w, k, j, z);
  const couplers: [number, number][] = [];
  const add = (a: number, b: number): void => {
    couplers.push(a < b ? [a, b] : [b, a]);
  };
  for (let u = 0; u < 2; u++) {
    for (let w = 0; w < M; w++) {
      for (let k = 0; k < t; k++) {
        for (let j = 0; j < 2; j++)
          for (let z = 0; z < m - 1; z++) add(q(u, w, k, j, z), q(u, w, k, j, z + 1));
        for (let a = 0; a < 2; a++)
          for (let z = a; z < m; z++) add(q(u, w, k, 0, z), q(u, w, k, 1, z - a));
      }
    }
  }
  for (let w = 0; w < m; w++) {
    for (let z = 0; z < m; z++) {
      for (let h = 0; h < t; h++) {
        for (let k = 0; k < t; k++) {
          for (let i = 0; i < 2; i++) {
            for (let j = 0; j < 2; j++) {
              for (let a = 0; a < 2; a++) {
                for (let b = 0; b < 2; b++)
                  add(
                    q(0, 2 * w + 1 + a * (2 * i - 1), k, j, z),
                    q(1, 2 * z + 1 + b * (2 * j - 1), h, i, w),
                  );
              }
            }
          }
        }
      }
    }
  }
  couplers.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const unique = couplers.filter(
    (c, i) => i === 0 || c[0] !== couplers[i - 1]![0] || c[1] !== couplers[i - 1]![1],
  );
  const qubits = [...new Set(unique.flat())].sort((x, y) => x - y);
  return { qubits, couplers: unique };
}

/**
 * Qubit of Chimera coordinate `(y, x, u, k)` of the `C(m, m, 2t)` lattice inside `Z(m, t)`
 * (dwave-networkx's "double" Chimera sublattice mapping with minor offsets `j0`, `j1`).
 * @category Embedding
 */
export function zephyrChimeraIndex(
  m: number,
  t: number,
  j0: 0 | 1,
  j1: 0 | 1,
  y: number,
  x: number,
  u: 0 | 1,
  k: number,
): number {
  const wz = Math.floor(k / t);
  const kz = k % t;
  return u
    ? zephyrIndex(m, t, 1, 2 * y + j0 + wz, kz, j1, x)
    : zephyrIndex(m, t, 0, 2 * x + j1 + wz, kz, j0, y);
}

/**
 * Clique size {@link zephyrCliqueEmbedding} reaches on `Z(m, t)`: `2t·m`.
 *
 * @category Embedding
 */
export function zephyrCliqueCapacity(m: number, t = 4): number {
  assertShape(m, t);
  return 2 * t * m;
}

/**
 * Embeds `K_n` into a Zephyr solver through the Chimera lattice `C(m, m, 2t)` it contains: the
 * native "triangle" clique layout (chains of `ceil(n/2t) + 1` qubits — 2 for `n ≤ 8` at `t = 4`) is
 * tried for each of the four minor offsets `(j0, j1)`, at every offset and reflection, and the first
 * placement valid on the solver's working graph is returned.
 *
 * @summary Embeds `K_n` into a Zephyr solver through the Chimera lattice `C(m, m, 2t)` it contains.
 * @param n number of logical variables.
 * @param m the Zephyr grid size (`topology.shape[0]` of an Advantage2 solver).
 * @param t the Zephyr tile size (`topology.shape[1]`, 4 on Advantage2).
 * @param graph the solver's working graph (defaults to the full-yield lattice).
 * @throws {AdapterError} ADAPTER_EMBEDDING when `n > 2tm` or no placement avoids the missing qubits.
 * @example
 * import { zephyrCliqueEmbedding, zephyrGraph } from '@boltzmann/quantum-adapters';
 *
 * const solverGraph = zephyrGraph(6, 4);
 * const chains = zephyrCliqueEmbedding(12, 6, 4, solverGraph);
 * console.log(chains.map((c) => c.length)); // 12 chains of 3 qubits
 * @category Embedding
 */
export function zephyrCliqueEmbedding(
  n: number,
  m: number,
  t = 4,
  graph: SolverGraph = zephyrGraph(m, t),
): Embedding {
  assertShape(m, t);
  if (!Number.isInteger(n) || n < 1)
    throw invalidArgument(`clique size must be a positive integer, got ${echo(n)}`);
  const capacity = zephyrCliqueCapacity(m, t);
  if (n > capacity) {
    throw new AdapterError(
      'ADAPTER_EMBEDDING',
      `K_${n} does not fit the Zephyr Z(${m}, ${t}) Chimera-lattice clique layout (capacity ${capacity}); pass an explicit embedding`,
      { reason: 'rejected', retryable: false },
    );
  }
  for (const j0 of [0, 1] as const) {
    for (const j1 of [0, 1] as const) {
      const found = cliqueLayout(
        n,
        { rows: m, columns: m, shore: 2 * t },
        (y, x, u, k) => zephyrChimeraIndex(m, t, j0, j1, y, x, u, k),
        graph,
      );
      if (found) return found;
    }
  }
  throw new AdapterError(
    'ADAPTER_EMBEDDING',
    `no placement of the K_${n} clique layout on Z(${m}, ${t}) avoids the solver's missing qubits and couplers; pass an explicit embedding`,
    { reason: 'rejected', retryable: false },
  );
}
