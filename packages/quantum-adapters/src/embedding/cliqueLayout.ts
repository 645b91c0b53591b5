import { validateEmbedding } from './embedding.js';
import type { Embedding } from './embedding.js';
import type { SolverGraph } from './solverGraph.js';

/**
 * The native "triangle" clique layout on a Chimera-structured lattice whose qubit `(row, column, u, k)`
 * is `index(row, column, u, k)`: every offset and row/column reflection of the `L × L` block is tried,
 * and the first placement valid on `graph` is returned (`undefined` when none is).
 */
export function cliqueLayout(
  n: number,
  lattice: { rows: number; columns: number; shore: number },
  index: (row: number, column: number, u: 0 | 1, k: number) => number,
  graph: SolverGraph,
): Embedding | undefined {
  const { rows, columns, shore } = lattice;
  const blocks = Math.ceil(n / shore);
  if (blocks > rows || blocks > columns) return undefined;
  const edges: [number, number][] = [];
  for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) edges.push([a, b]);
  for (const flipRows of [false, true]) {
    for (const flipColumns of [false, true]) {
      for (let oi = 0; oi + blocks <= rows; oi++) {
        for (let oj = 0; oj + blocks <= columns; oj++) {
          const at = (i: number, j: number, u: 0 | 1, k: number): number =>
            index(
              flipRows ? rows - 1 - (oi + i) : oi + i,
              flipColumns ? columns - 1 - (oj + j) : oj + j,
              u,
              k,
            );
          const chains: number[][] = [];
          for (let v = 0; v < n; v++) {
            const b = Math.floor(v / shore);
            const k = v % shore;
            const chain: number[] = [];
            for (let i = 0; i <= b; i++) chain.push(at(i, b, 0, k));
            for (let j = b; j < blocks; j++) chain.push(at(b, j, 1, k));
            chains.push(chain);
          }
          if (validateEmbedding(chains, edges, graph).valid) return chains;
        }
      }
    }
  }
  return undefined;
}
