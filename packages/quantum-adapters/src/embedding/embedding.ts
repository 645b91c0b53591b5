import { createRng } from '@boltzmann/ising-core';
import { AdapterError, invalidArgument } from '../shared/errors.js';
import type { QpTerms, SolverGraph } from './solverGraph.js';

/**
 * A minor embedding: `embedding[v]` is the chain of physical qubits that represents logical variable `v`.
 *
 * @category Embedding
 */
export type Embedding = readonly (readonly number[])[];

/**
 * Outcome of {@link validateEmbedding}.
 *
 * @category Embedding
 */
export interface EmbeddingCheck {
  readonly valid: boolean;
  /** One sentence per violation, naming the variables and qubits involved. */
  readonly problems: readonly string[];
}

interface GraphIndex {
  readonly qubits: ReadonlySet<number>;
  readonly neighbours: ReadonlyMap<number, ReadonlySet<number>>;
}

const indexCache = new WeakMap<SolverGraph, GraphIndex>();

function graphIndex(graph: SolverGraph): GraphIndex {
  let index = indexCache.get(graph);
  if (index === undefined) {
    const neighbours = new Map<number, Set<number>>();
    for (const q of graph.qubits) neighbours.set(q, new Set());
    for (const [a, b] of graph.couplers) {
      neighbours.get(a)?.add(b);
      neighbours.get(b)?.add(a);
    }
    index = { qubits: new Set(graph.qubits), neighbours };
    indexCache.set(graph, index);
  }
  return index;
}

/**
 * Checks a minor embedding against a working graph: every chain is non-empty, uses working qubits
 * only, is connected through couplers, chains are pairwise disjoint, and every logical edge has at
 * least one physical coupler between its two chains.
 *
 * @summary Checks a minor embedding against a working graph.
 * @param embedding chains indexed by logical variable.
 * @param edges logical edges `[u, v]` that must be realized.
 * @param graph the solver's working qubits and couplers.
 * @example
 * import { chimeraCliqueEmbedding, chimeraGraph, validateEmbedding } from '@boltzmann/quantum-adapters';
 *
 * const shape = { rows: 2, columns: 2, shore: 4 };
 * const chains = chimeraCliqueEmbedding(2, shape);
 * const { valid, problems } = validateEmbedding(chains, [[0, 1]], chimeraGraph(shape));
 * console.log(valid, problems); // true []
 * @category Embedding
 */
export function validateEmbedding(
  embedding: Embedding,
  edges: Iterable<readonly [number, number]>,
  graph: SolverGraph,
): EmbeddingCheck {
  const { qubits, neighbours } = graphIndex(graph);
  const problems: string[] = [];
  const owner = new Map<number, number>();
  embedding.forEach((chain, v) => {
    if (chain.length === 0) problems.push(`chain of variable ${v} is empty`);
    for (const q of chain) {
      if (!qubits.has(q))
        problems.push(`chain of variable ${v} uses qubit ${q}, which is not a working qubit`);
      const other = owner.get(q);
      if (other !== undefined)
        problems.push(`qubit ${q} is in the chains of variables ${other} and ${v}`);
      else owner.set(q, v);
    }
    if (chain.length > 1) {
      const members = new Set(chain);
      const seen = new Set<number>([chain[0]!]);
      const stack = [chain[0]!];
      while (stack.length > 0) {
        for (const r of neighbours.get(stack.pop()!) ?? []) {
          if (members.has(r) && !seen.has(r)) {
            seen.add(r);
            stack.push(r);
          }
        }
      }
      if (seen.size !== members.size)
        problems.push(
          `chain of variable ${v} is not connected (${seen.size} of ${members.size} qubits reachable)`,
        );
    }
  });
  for (const [u, v] of edges) {
    const cu = embedding[u];
    const cv = embedding[v];
    if (cu === undefined || cv === undefined) {
      problems.push(`logical edge (${u}, ${v}) names a variable without a chain`);
      continue;
    }
    const target = new Set(cv);
    if (!cu.some((q) => [...(neighbours.get(q) ?? [])].some((r) => target.has(r)))) {
      problems.push(`logical edge (${u}, ${v}) has no coupler between the two chains`);
    }
  }
  return { valid: problems.length === 0, problems };
}

/**
 * A logical Ising problem in D-Wave signs (`E = Σ h s + Σ_{j<k} J s s`).
 *
 * @category Embedding
 */
export interface LogicalIsing {
  readonly n: number;
  /** `n` linear biases. */
  readonly linear: ArrayLike<number>;
  /** `n × n` row-major; the strict upper triangle is read. */
  readonly couplings: ArrayLike<number>;
}

/**
 * A physical problem ready for {@link encodeQpProblem}, with the offset that keeps intact-chain energies logical.
 *
 * @category Embedding
 */
export interface EmbeddedIsing {
  readonly terms: QpTerms;
  readonly offset: number;
}

/**
 * Maps a logical problem onto physical qubits as dwave-system's `embed_bqm` does: a linear bias is
 * split evenly over its chain, a coupling evenly over every coupler between the two chains, and each
 * edge of a BFS spanning tree of every chain gets the ferromagnetic bias `-chainStrength`. The returned
 * offset (`+chainStrength` per chain edge) makes the energy of an unbroken sample equal its logical energy.
 *
 * @summary Maps a logical problem onto physical qubits as dwave-system's `embed_bqm` does.
 * @throws {AdapterError} ADAPTER_EMBEDDING when a non-zero coupling has no physical coupler; ADAPTER_INVALID_ARGUMENT for a bad chain strength.
 * @category Embedding
 */
export function embedIsing(
  problem: LogicalIsing,
  embedding: Embedding,
  graph: SolverGraph,
  chainStrength: number,
): EmbeddedIsing {
  if (!Number.isFinite(chainStrength) || chainStrength < 0)
    throw invalidArgument(`chain strength must be finite and ≥ 0, got ${chainStrength}`);
  const { n } = problem;
  if (embedding.length < n)
    throw invalidArgument(`the embedding has ${embedding.length} chains for ${n} variables`);
  const { neighbours } = graphIndex(graph);
  const linear = new Map<number, number>();
  const quadratic = new Map<string, number>();
  const addQuad = (a: number, b: number, bias: number): void => {
    const key = a < b ? `${a},${b}` : `${b},${a}`;
    quadratic.set(key, (quadratic.get(key) ?? 0) + bias);
  };
  let offset = 0;
  for (let v = 0; v < n; v++) {
    const chain = embedding[v]!;
    const h = problem.linear[v]!;
    for (const q of chain) linear.set(q, (linear.get(q) ?? 0) + h / chain.length);
    const members = new Set(chain);
    const seen = new Set<number>([chain[0]!]);
    const queue = [chain[0]!];
    for (let head = 0; head < queue.length; head++) {
      const q = queue[head]!;
      for (const r of neighbours.get(q) ?? []) {
        if (members.has(r) && !seen.has(r)) {
          seen.add(r);
          queue.push(r);
          addQuad(q, r, -chainStrength);
          offset += chainStrength;
        }
      }
    }
  }
  for (let u = 0; u < n; u++) {
    for (let v = u + 1; v < n; v++) {
      const J = problem.couplings[u * n + v]!;
      if (J === 0) continue;
      const target = new Set(embedding[v]!);
      const links: [number, number][] = [];
      for (const q of embedding[u]!)
        for (const r of neighbours.get(q) ?? []) if (target.has(r)) links.push([q, r]);
      if (links.length === 0) {
        throw new AdapterError(
          'ADAPTER_EMBEDDING',
          `coupling (${u}, ${v}) = ${J} has no coupler between the chains of ${u} and ${v}`,
          { reason: 'rejected', retryable: false },
        );
      }
      for (const [q, r] of links) addQuad(q, r, J / links.length);
    }
  }
  return { terms: { linear, quadratic }, offset };
}

/**
 * Logical samples recovered from physical ones.
 *
 * @category Embedding
 */
export interface UnembedResult {
  /** `rows × n` logical spins (±1), row-major; one row per physical row. */
  readonly states: Int8Array;
  /** Weighted fraction of (row, chain) pairs whose qubits disagreed. */
  readonly chainBreakFraction: number;
}

/**
 * Majority-vote unembedding: each logical spin is the sign of the sum of its chain's spins.
 *
 * A tie (an even chain split in half) is broken by a fair coin from a generator seeded with
 * `seed`, so the result is reproducible and unbiased.
 *
 * @param solutions `rows × columns.length` physical spins (±1).
 * @param columns physical qubit of each solution column (the answer's `active_variables`).
 * @param weights occurrences per row, used for the chain-break fraction.
 * @throws {AdapterError} ADAPTER_MALFORMED when a chain qubit is missing from the answer.
 * @category Embedding
 */
export function unembedMajority(
  solutions: Int8Array,
  columns: ArrayLike<number>,
  weights: ArrayLike<number>,
  embedding: Embedding,
  n: number,
  seed = 0,
): UnembedResult {
  const position = new Map<number, number>();
  for (let c = 0; c < columns.length; c++) position.set(columns[c]!, c);
  const chainColumns = embedding.slice(0, n).map((chain, v) =>
    chain.map((q) => {
      const c = position.get(q);
      if (c === undefined)
        throw new AdapterError(
          'ADAPTER_MALFORMED',
          `the answer has no value for qubit ${q} of variable ${v}'s chain`,
          { reason: 'malformed', retryable: false },
        );
      return c;
    }),
  );
  const rows = weights.length;
  const width = columns.length;
  const rng = createRng(seed);
  const states = new Int8Array(rows * n);
  let broken = 0;
  let total = 0;
  for (let i = 0; i < rows; i++) {
    const w = weights[i]!;
    for (let v = 0; v < n; v++) {
      let sum = 0;
      for (const c of chainColumns[v]!) sum += solutions[i * width + c]!;
      const len = chainColumns[v]!.length;
      if (Math.abs(sum) !== len) broken += w;
      total += w;
      states[i * n + v] = sum > 0 ? 1 : sum < 0 ? -1 : rng.next() < 0.5 ? 1 : -1;
    }
  }
  return { states, chainBreakFraction: total > 0 ? broken / total : 0 };
}

/**
 * Default chain strength: uniform torque compensation as in dwave-system,
 * `prefactor · rms(J) · sqrt(mean degree)` over the non-zero couplings, or 1 without couplings.
 *
 * @param problem the logical problem in the units that will be submitted (β already applied).
 * @param prefactor 1.414 by default, as dwave-system.
 * @example
 * import { uniformTorqueCompensation } from '@boltzmann/quantum-adapters';
 *
 * console.log(uniformTorqueCompensation({ n: 2, linear: [0, 0], couplings: [0, -0.5, 0, 0] })); // 1.414·0.5·1
 * @category Embedding
 */
// biome-ignore lint/suspicious/noApproximativeNumericConstant: dwave-system's default prefactor is the literal 1.414, not √2.
export function uniformTorqueCompensation(problem: LogicalIsing, prefactor = 1.414): number {
  const { n } = problem;
  let count = 0;
  let squares = 0;
  for (let u = 0; u < n; u++) {
    for (let v = u + 1; v < n; v++) {
      const J = problem.couplings[u * n + v]!;
      if (J !== 0) {
        count++;
        squares += J * J;
      }
    }
  }
  if (count === 0) return 1;
  return prefactor * Math.sqrt(squares / count) * Math.sqrt((2 * count) / n);
}
