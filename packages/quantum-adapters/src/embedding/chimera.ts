import { echo } from '@boltzmann/ising-core/internal';
import { AdapterError, invalidArgument } from '../shared/errors.js';
import type { Embedding } from './embedding.js';
import { cliqueLayout } from './cliqueLayout.js';
import type { SolverGraph } from './solverGraph.js';

/**
 * Shape of a Chimera lattice: `rows × columns` unit cells of `K_{shore,shore}`.
 *
 * @category Embedding
 */
export interface ChimeraShape {
  readonly rows: number;
  readonly columns: number;
  readonly shore: number;
}

/**
 * Linear index of Chimera qubit `(row, column, u, k)` in the dwave-networkx numbering, which is
 * also the qubit numbering D-Wave Chimera solvers use: `((row·columns + column)·2 + u)·shore + k`.
 * `u = 0` qubits couple vertically, `u = 1` qubits horizontally.
 * @summary Linear index of Chimera qubit `(row, column, u, k)`, as D-Wave Chimera solvers number them.
 * @category Embedding
 */
export function chimeraIndex(
  shape: ChimeraShape,
  row: number,
  column: number,
  u: 0 | 1,
  k: number,
): number {
  return ((row * shape.columns + column) * 2 + u) * shape.shore + k;
}

function assertShape(shape: ChimeraShape): void {
  for (const key of ['rows', 'columns', 'shore'] as const) {
    const v = shape[key];
    if (!Number.isInteger(v) || v < 1)
      throw invalidArgument(`chimera ${key} must be a positive integer, got ${echo(v)}`);
  }
}

/**
 * The complete Chimera graph `C(rows, columns, shore)`: inside each cell every `u=0` qubit couples to
 * every `u=1` qubit; `u=0` qubits couple to the same `k` one row down, `u=1` qubits to the same `k`
 * one column right. Qubits ascend; couplers are `[a, b]` with `a < b`, sorted.
 *
 * @summary The complete Chimera graph `C(rows, columns, shore)`.
 * @throws {AdapterError} ADAPTER_INVALID_ARGUMENT for a non-positive or fractional dimension.
 * @example
 * import { chimeraGraph } from '@boltzmann/quantum-adapters';
 *
 * const c16 = chimeraGraph({ rows: 16, columns: 16, shore: 4 });
 * console.log(c16.qubits.length); // 2048 qubits, as D-Wave 2000Q
 * @category Embedding
 */
export function chimeraGraph(shape: ChimeraShape): SolverGraph {
  assertShape(shape);
  const { rows, columns, shore } = shape;
  const couplers: [number, number][] = [];
  const add = (a: number, b: number): void => {
    couplers.push(a < b ? [a, b] : [b, a]);
  };
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < columns; j++) {
      for (let k = 0; k < shore; k++) {
        for (let l = 0; l < shore; l++)
          add(chimeraIndex(shape, i, j, 0, k), chimeraIndex(shape, i, j, 1, l));
        if (i + 1 < rows) add(chimeraIndex(shape, i, j, 0, k), chimeraIndex(shape, i + 1, j, 0, k));
        if (j + 1 < columns)
          add(chimeraIndex(shape, i, j, 1, k), chimeraIndex(shape, i, j + 1, 1, k));
      }
    }
  }
  couplers.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const qubits = Array.from({ length: rows * columns * 2 * shore }, (_, q) => q);
  return { qubits, couplers };
}

/**
 * Clique size the native Chimera clique embedding reaches on a lattice: `min(rows, columns) · shore`.
 *
 * @category Embedding
 */
export function chimeraCliqueCapacity(shape: ChimeraShape): number {
  return Math.min(shape.rows, shape.columns) * shape.shore;
}

/**
 * Embeds the complete graph `K_n` into a Chimera lattice with the native "triangle" clique layout:
 * with `L = ceil(n/shore)` blocks, variable `v = b·shore + k` owns the vertical qubits `(i, b, 0, k)`
 * for `i ≤ b` and the horizontal qubits `(b, j, 1, k)` for `j ≥ b` (chains of `L + 1` qubits).
 * Chains `b < b'` meet in cell `(b, b')`; chains of one block meet in cell `(b, b)`.
 * When the solver lacks some qubits or couplers, every placement of the `L × L` block (all offsets
 * and the four row/column reflections) is tried and the first one valid on `graph` is returned.
 *
 * @summary Embeds the complete graph `K_n` into a Chimera lattice with the native "triangle" clique layout.
 * @param n number of logical variables.
 * @param shape the lattice (`topology.shape` of a Chimera solver is `[rows, columns, shore]`).
 * @param graph the solver's working graph (defaults to the complete lattice).
 * @returns chains indexed by logical variable.
 * @throws {AdapterError} ADAPTER_EMBEDDING when `n` exceeds the capacity or no placement avoids the missing qubits.
 * @example
 * import { chimeraCliqueEmbedding } from '@boltzmann/quantum-adapters';
 *
 * const chains = chimeraCliqueEmbedding(12, { rows: 16, columns: 16, shore: 4 }); // 12 chains of 4 qubits
 * console.log(chains.map((c) => c.length));
 * @category Embedding
 */
export function chimeraCliqueEmbedding(
  n: number,
  shape: ChimeraShape,
  graph: SolverGraph = chimeraGraph(shape),
): Embedding {
  assertShape(shape);
  if (!Number.isInteger(n) || n < 1)
    throw invalidArgument(`clique size must be a positive integer, got ${echo(n)}`);
  const capacity = chimeraCliqueCapacity(shape);
  if (n > capacity) {
    throw new AdapterError(
      'ADAPTER_EMBEDDING',
      `K_${n} does not fit the Chimera clique layout of ${shape.rows}×${shape.columns}×${shape.shore} (capacity ${capacity}); pass an explicit embedding`,
      {
        reason: 'rejected',
        retryable: false,
      },
    );
  }
  const found = cliqueLayout(
    n,
    shape,
    (row, column, u, k) => chimeraIndex(shape, row, column, u, k),
    graph,
  );
  if (found) return found;
  throw new AdapterError(
    'ADAPTER_EMBEDDING',
    `no placement of the K_${n} clique layout avoids the solver's missing qubits and couplers; pass an explicit embedding`,
    {
      reason: 'rejected',
      retryable: false,
    },
  );
}
