import { createRng } from '@boltzmann/ising-core';
import { describe, expect, it } from 'vitest';
import {
  chimeraCliqueEmbedding,
  chimeraGraph,
  embedIsing,
  unembedMajority,
  uniformTorqueCompensation,
  validateEmbedding,
} from '../index.js';
import type { Embedding } from '../index.js';

// The graphs and their clique embeddings (Chimera, Pegasus, Zephyr, greedy): cliqueEmbedding.test.ts.

describe('validateEmbedding', () => {
  const graph = {
    qubits: [0, 1, 2, 3, 4],
    couplers: [
      [0, 1],
      [1, 2],
      [2, 3],
    ] as [number, number][],
  };
  it('should accept a valid embedding and name each kind of violation', () => {
    expect(
      validateEmbedding(
        [
          [0, 1],
          [2, 3],
        ],
        [[0, 1]],
        graph,
      ),
    ).toEqual({ valid: true, problems: [] });
    const cases: [Embedding, [number, number][], string][] = [
      [[[0, 2], [3]], [], 'not connected'],
      [
        [
          [0, 1],
          [1, 2],
        ],
        [],
        'qubit 1 is in the chains of variables 0 and 1',
      ],
      [[[0], [3]], [[0, 1]], 'no coupler'],
      [[[0], [9]], [], 'qubit 9, which is not a working qubit'],
      [[[0], []], [], 'empty'],
      [[[0]], [[0, 1]], 'without a chain'],
    ];
    for (const [emb, edges, fragment] of cases) {
      const check = validateEmbedding(emb, edges, graph);
      expect(check.valid).toBe(false);
      expect(check.problems.join(' | ')).toContain(fragment);
    }
  });
});

describe('embedIsing', () => {
  const energy = (
    terms: { linear: ReadonlyMap<number, number>; quadratic: ReadonlyMap<string, number> },
    offset: number,
    s: Map<number, number>,
  ) => {
    let e = offset;
    for (const [q, h] of terms.linear) e += h * s.get(q)!;
    for (const [key, J] of terms.quadratic) {
      const [a, b] = key.split(',').map(Number) as [number, number];
      e += J * s.get(a)! * s.get(b)!;
    }
    return e;
  };

  it('should keep the logical energy of every unbroken state and charge 2·strength per broken chain edge', () => {
    const rng = createRng(7);
    const shape = { rows: 2, columns: 2, shore: 4 };
    const graph = chimeraGraph(shape);
    const n = 6;
    const chains = chimeraCliqueEmbedding(n, shape, graph);
    const linear = Array.from({ length: n }, () => rng.normal());
    const couplings = Array.from({ length: n * n }, (_, i) =>
      Math.floor(i / n) < i % n ? rng.normal() : 0,
    );
    const strength = 2.5;
    const { terms, offset } = embedIsing({ n, linear, couplings }, chains, graph, strength);
    for (let trial = 0; trial < 40; trial++) {
      const s = Array.from({ length: n }, () => (rng.next() < 0.5 ? -1 : 1));
      let logical = 0;
      for (let u = 0; u < n; u++) {
        logical += linear[u]! * s[u]!;
        for (let v = u + 1; v < n; v++) logical += couplings[u * n + v]! * s[u]! * s[v]!;
      }
      const physical = new Map<number, number>();
      chains.forEach((chain, v) => chain.forEach((q) => physical.set(q, s[v]!)));
      expect(energy(terms, offset, physical)).toBeCloseTo(logical, 10);
      // Flip the end qubit of chain 0 (a leaf of its path): exactly one chain edge breaks.
      const leaf = chains[0]![chains[0]!.length - 1]!;
      physical.set(leaf, -physical.get(leaf)!);
      const delta = energy(terms, offset, physical) - logical;
      const linearPart = 2 * -s[0]! * (linear[0]! / chains[0]!.length);
      let couplingPart = 0;
      for (const [key, J] of terms.quadratic) {
        const [a, b] = key.split(',').map(Number) as [number, number];
        if ((a === leaf || b === leaf) && J !== -strength)
          couplingPart += 2 * -J * physical.get(a === leaf ? b : a)! * -physical.get(leaf)!;
      }
      expect(delta).toBeCloseTo(2 * strength + linearPart + couplingPart, 9);
    }
  });

  it('should refuse a coupling whose chains do not touch', () => {
    const graph = { qubits: [0, 1, 2], couplers: [[0, 1]] as [number, number][] };
    expect(() =>
      embedIsing({ n: 2, linear: [0, 0], couplings: [0, 1, 0, 0] }, [[0], [2]], graph, 1),
    ).toThrow(expect.objectContaining({ code: 'ADAPTER_EMBEDDING' }));
  });
});

describe('unembedMajority', () => {
  it('should vote, report weighted chain breaks, and break ties reproducibly', () => {
    const embedding = [
      [10, 11, 12],
      [20, 21],
    ];
    const columns = [10, 11, 12, 20, 21];
    const solutions = Int8Array.from([1, 1, 1, -1, -1, /**/ 1, -1, 1, 1, -1, /**/ -1, -1, 1, 1, 1]);
    const r = unembedMajority(solutions, columns, [2, 1, 1], embedding, 2, 3);
    expect([...r.states.slice(0, 2)]).toEqual([1, -1]);
    expect(r.states[2]).toBe(1);
    expect([...r.states.slice(4, 6)]).toEqual([-1, 1]);
    expect(r.chainBreakFraction).toBeCloseTo(3 / 8, 15);
    const again = unembedMajority(solutions, columns, [2, 1, 1], embedding, 2, 3);
    expect([...again.states]).toEqual([...r.states]);
    let plus = 0;
    for (let seed = 0; seed < 200; seed++)
      plus +=
        unembedMajority(solutions, columns, [2, 1, 1], embedding, 2, seed).states[3] === 1 ? 1 : 0;
    expect(plus).toBeGreaterThan(60);
    expect(plus).toBeLessThan(140);
  });

  it('should fail as malformed when the answer lacks a chain qubit', () => {
    expect(() => unembedMajority(Int8Array.from([1]), [10], [1], [[10, 11]], 1)).toThrow(
      expect.objectContaining({ code: 'ADAPTER_MALFORMED' }),
    );
  });
});

describe('uniformTorqueCompensation', () => {
  it('should match the dwave-system docstring examples', () => {
    // Q = {(0,0):1,(1,1):1,(2,3):2,(1,2):-2,(0,3):-2} → Ising J = Q/4 off the diagonal; prefactor 2 → 1.224744871391589.
    const J = new Array(16).fill(0);
    J[2 * 4 + 3] = 0.5;
    J[1 * 4 + 2] = -0.5;
    J[0 * 4 + 3] = -0.5;
    expect(uniformTorqueCompensation({ n: 4, linear: [0, 0, 0, 0], couplings: J }, 2)).toBeCloseTo(
      1.224744871391589,
      14,
    );
    // K5 QUBO with all biases 1 → J = 0.25 everywhere; prefactor 3 → 1.5.
    const K5 = Array.from({ length: 25 }, (_, i) => (Math.floor(i / 5) < i % 5 ? 0.25 : 0));
    expect(
      uniformTorqueCompensation({ n: 5, linear: new Array(5).fill(0), couplings: K5 }, 3),
    ).toBeCloseTo(1.5, 14);
    expect(
      uniformTorqueCompensation({ n: 3, linear: [1, 2, 3], couplings: new Array(9).fill(0) }),
    ).toBe(1);
  });
});
