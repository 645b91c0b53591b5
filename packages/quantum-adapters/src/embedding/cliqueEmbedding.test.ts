import { describe, expect, it } from 'vitest';
import {
  chimeraCliqueCapacity,
  chimeraCliqueEmbedding,
  chimeraGraph,
  chimeraIndex,
  greedyCliqueEmbedding,
  pegasusCliqueEmbedding,
  pegasusGraph,
  zephyrCliqueEmbedding,
  zephyrGraph,
} from '../index.js';
import type { Embedding, SolverGraph } from '../index.js';
import { kingGraph } from '../shared/testing/kingGraph.js';

/** Independent check, straight from the coupler list (no shared code with validateEmbedding). */
function bruteCheckClique(chains: Embedding, graph: SolverGraph): void {
  const couplers = new Set(graph.couplers.map(([a, b]) => `${Math.min(a, b)},${Math.max(a, b)}`));
  const linked = (a: number, b: number) => couplers.has(`${Math.min(a, b)},${Math.max(a, b)}`);
  const working = new Set(graph.qubits);
  const used = chains.flat();
  expect(new Set(used).size).toBe(used.length);
  for (const q of used) expect(working.has(q)).toBe(true);
  for (const chain of chains) {
    const reached = new Set([chain[0]!]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const q of chain)
        if (!reached.has(q) && [...reached].some((r) => linked(q, r))) {
          reached.add(q);
          grew = true;
        }
    }
    expect(reached.size).toBe(chain.length);
  }
  for (let u = 0; u < chains.length; u++) {
    for (let v = u + 1; v < chains.length; v++) {
      expect(chains[u]!.some((a) => chains[v]!.some((b) => linked(a, b)))).toBe(true);
    }
  }
}

describe('chimeraGraph', () => {
  it('should have 2·m·n·t qubits and m·n·t² + (m−1)·n·t + m·(n−1)·t couplers', () => {
    for (const [rows, columns, shore] of [
      [16, 16, 4],
      [3, 5, 2],
      [1, 1, 4],
    ] as const) {
      const g = chimeraGraph({ rows, columns, shore });
      expect(g.qubits.length).toBe(2 * rows * columns * shore);
      expect(g.couplers.length).toBe(
        rows * columns * shore * shore +
          (rows - 1) * columns * shore +
          rows * (columns - 1) * shore,
      );
      expect(new Set(g.couplers.map((c) => c.join())).size).toBe(g.couplers.length);
    }
    expect(chimeraGraph({ rows: 16, columns: 16, shore: 4 }).couplers.length).toBe(6016);
  });

  it('should number qubits as dwave-networkx does', () => {
    const shape = { rows: 2, columns: 3, shore: 4 };
    expect(chimeraIndex(shape, 0, 0, 1, 0)).toBe(4);
    expect(chimeraIndex(shape, 0, 1, 0, 0)).toBe(8);
    expect(chimeraIndex(shape, 1, 0, 0, 2)).toBe(26);
    const couplers = new Set(chimeraGraph(shape).couplers.map((c) => c.join()));
    expect(couplers.has('2,26')).toBe(true); // vertical: (0,0,0,2)–(1,0,0,2)
    expect(couplers.has('5,13')).toBe(true); // horizontal: (0,0,1,1)–(0,1,1,1)
    expect(couplers.has('0,7')).toBe(true); // internal K_{4,4}
    expect(couplers.has('0,1')).toBe(false);
  });
});

describe('chimeraCliqueEmbedding', () => {
  it('should embed every clique size up to capacity validly (C4 and C16)', () => {
    for (const shape of [
      { rows: 4, columns: 4, shore: 4 },
      { rows: 3, columns: 5, shore: 2 },
    ]) {
      const graph = chimeraGraph(shape);
      for (let n = 1; n <= chimeraCliqueCapacity(shape); n++)
        bruteCheckClique(chimeraCliqueEmbedding(n, shape, graph), graph);
    }
    const c16 = { rows: 16, columns: 16, shore: 4 };
    const graph = chimeraGraph(c16);
    for (const n of [5, 12, 33, 64]) {
      const chains = chimeraCliqueEmbedding(n, c16, graph);
      bruteCheckClique(chains, graph);
      expect(chains.every((c) => c.length === Math.ceil(n / 4) + 1)).toBe(true);
    }
  });

  it('should move around missing qubits and couplers, and refuse when it cannot', () => {
    const shape = { rows: 3, columns: 3, shore: 4 };
    const full = chimeraGraph(shape);
    const first = chimeraCliqueEmbedding(8, shape, full);
    const dead = first[3]![0]!;
    const graph = {
      qubits: full.qubits.filter((q) => q !== dead),
      couplers: full.couplers.filter(
        ([a, b]) => a !== dead && b !== dead && !(a === first[0]![0] && b === first[0]![1]),
      ),
    };
    const moved = chimeraCliqueEmbedding(8, shape, graph);
    expect(moved.flat()).not.toContain(dead);
    bruteCheckClique(moved, graph);
    expect(() => chimeraCliqueEmbedding(13, shape)).toThrow(
      expect.objectContaining({ code: 'ADAPTER_EMBEDDING' }),
    );
    const tiny = { rows: 1, columns: 1, shore: 2 };
    const broken = { qubits: [0, 1, 2, 3], couplers: [] };
    expect(() => chimeraCliqueEmbedding(2, tiny, broken)).toThrow(
      expect.objectContaining({ code: 'ADAPTER_EMBEDDING' }),
    );
  });
});

describe('greedyCliqueEmbedding', () => {
  it('should find valid clique embeddings on Chimera, king graphs and complete graphs', () => {
    const c4 = chimeraGraph({ rows: 4, columns: 4, shore: 4 });
    for (const n of [1, 2, 5, 7]) bruteCheckClique(greedyCliqueEmbedding(n, c4), c4);
    const k = kingGraph(8);
    for (const n of [3, 5, 6]) bruteCheckClique(greedyCliqueEmbedding(n, k, { seed: 2 }), k);
    const complete = { qubits: [0, 1, 2, 3, 4], couplers: [] as [number, number][] };
    for (let a = 0; a < 5; a++) for (let b = a + 1; b < 5; b++) complete.couplers.push([a, b]);
    const chains = greedyCliqueEmbedding(5, complete);
    expect(chains.every((c) => c.length === 1)).toBe(true);
    bruteCheckClique(chains, complete);
  });

  it('should fail with ADAPTER_EMBEDDING when the graph cannot hold the clique', () => {
    const path = {
      qubits: [0, 1, 2, 3],
      couplers: [
        [0, 1],
        [1, 2],
        [2, 3],
      ] as [number, number][],
    };
    expect(() => greedyCliqueEmbedding(3, path)).toThrow(
      expect.objectContaining({ code: 'ADAPTER_EMBEDDING' }),
    );
    expect(() => greedyCliqueEmbedding(0, path)).toThrow(
      expect.objectContaining({ code: 'ADAPTER_INVALID_ARGUMENT' }),
    );
  });
});

describe('pegasusCliqueEmbedding', () => {
  it('should embed cliques up to 4(m−1) validly on full-yield Pegasus (P6 and Advantage-size P16)', () => {
    const p6 = pegasusGraph(6);
    for (const n of [1, 4, 5, 13, 20]) bruteCheckClique(pegasusCliqueEmbedding(n, 6, p6), p6);
    const p16 = pegasusGraph(16);
    for (const n of [12, 60]) {
      const chains = pegasusCliqueEmbedding(n, 16, p16);
      bruteCheckClique(chains, p16);
      expect(chains.every((c) => c.length === Math.ceil(n / 4) + 1)).toBe(true);
    }
    expect(() => pegasusCliqueEmbedding(21, 6, p6)).toThrow(
      expect.objectContaining({ code: 'ADAPTER_EMBEDDING' }),
    );
  });

  it('should avoid missing qubits by moving within and across the nice lattices', () => {
    const full = pegasusGraph(4);
    const first = pegasusCliqueEmbedding(12, 4, full);
    const dead = new Set(first.flat().filter((_, i) => i % 5 === 0));
    const graph = {
      qubits: full.qubits.filter((q) => !dead.has(q)),
      couplers: full.couplers.filter(([a, b]) => !dead.has(a) && !dead.has(b)),
    };
    const moved = pegasusCliqueEmbedding(12, 4, graph);
    expect(moved.flat().some((q) => dead.has(q))).toBe(false);
    bruteCheckClique(moved, graph);
  });
});

describe('zephyrCliqueEmbedding', () => {
  it('should embed cliques up to 2tm validly on full-yield Zephyr, with chains of ceil(n/2t) + 1', () => {
    const z3 = zephyrGraph(3, 4);
    for (const n of [1, 8, 9, 24]) {
      const chains = zephyrCliqueEmbedding(n, 3, 4, z3);
      bruteCheckClique(chains, z3);
      expect(chains.every((c) => c.length === Math.ceil(n / 8) + 1)).toBe(true);
    }
    expect(() => zephyrCliqueEmbedding(25, 3, 4, z3)).toThrow(
      expect.objectContaining({ code: 'ADAPTER_EMBEDDING' }),
    );
  });

  it('should avoid missing qubits', () => {
    const full = zephyrGraph(3, 4);
    const first = zephyrCliqueEmbedding(12, 3, 4, full);
    const dead = new Set([first[0]![0]!, first[7]![1]!]);
    const graph = {
      qubits: full.qubits.filter((q) => !dead.has(q)),
      couplers: full.couplers.filter(([a, b]) => !dead.has(a) && !dead.has(b)),
    };
    const moved = zephyrCliqueEmbedding(12, 3, 4, graph);
    expect(moved.flat().some((q) => dead.has(q))).toBe(false);
    bruteCheckClique(moved, graph);
  });
});
