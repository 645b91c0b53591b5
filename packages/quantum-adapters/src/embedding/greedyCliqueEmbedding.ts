import { createRng, floorScaledInt } from '@boltzmann/ising-core';
import { echo } from '@boltzmann/ising-core/internal';
import type { Rng } from '@boltzmann/ising-core';
import { validateEmbedding } from './embedding.js';
import type { Embedding } from './embedding.js';
import { AdapterError, invalidArgument } from '../shared/errors.js';
import type { SolverGraph } from './solverGraph.js';

/**
 * Options of {@link greedyCliqueEmbedding}.
 *
 * @category Embedding
 */
export interface GreedyEmbeddingOptions {
  /** Rip-up-and-reroute rounds after the first placement (default 24). */
  readonly rounds?: number;
  /** Independent restarts with different first qubits (default 2). */
  readonly tries?: number;
  /** Seed of the restarts' first qubits (default 0). */
  readonly seed?: number;
}

interface Graph {
  readonly size: number;
  readonly adjacency: Int32Array[];
}

/** Weighted multi-source Dijkstra from `sources` (excluded): cost of entering node r is `weight[r]`. */
function dijkstra(
  g: Graph,
  sources: readonly number[],
  weight: Float64Array,
  dist: Float64Array,
  parent: Int32Array,
): void {
  dist.fill(Infinity);
  parent.fill(-1);
  const heap: number[] = [];
  const keys: number[] = [];
  const push = (node: number, key: number): void => {
    heap.push(node);
    keys.push(key);
    for (let i = heap.length - 1; i > 0; ) {
      const up = (i - 1) >> 1;
      if (keys[up]! <= keys[i]!) break;
      [heap[up], heap[i]] = [heap[i]!, heap[up]!];
      [keys[up], keys[i]] = [keys[i]!, keys[up]!];
      i = up;
    }
  };
  const pop = (): [number, number] => {
    const top: [number, number] = [heap[0]!, keys[0]!];
    const lastNode = heap.pop()!;
    const lastKey = keys.pop()!;
    if (heap.length > 0) {
      heap[0] = lastNode;
      keys[0] = lastKey;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && keys[l]! < keys[m]!) m = l;
        if (r < heap.length && keys[r]! < keys[m]!) m = r;
        if (m === i) break;
        [heap[m], heap[i]] = [heap[i]!, heap[m]!];
        [keys[m], keys[i]] = [keys[i]!, keys[m]!];
        i = m;
      }
    }
    return top;
  };
  const isSource = new Set(sources);
  for (const s of sources) {
    for (const r of g.adjacency[s]!) {
      if (!isSource.has(r) && weight[r]! < dist[r]!) {
        dist[r] = weight[r]!;
        push(r, dist[r]!);
      }
    }
  }
  while (heap.length > 0) {
    const [q, d] = pop();
    if (d > dist[q]!) continue;
    for (const r of g.adjacency[q]!) {
      const nd = d + weight[r]!;
      if (!isSource.has(r) && nd < dist[r]!) {
        dist[r] = nd;
        parent[r] = q;
        push(r, nd);
      }
    }
  }
}

/**
 * One run of the minorminer-style heuristic: chains may overlap, at a cost `alpha^usage` per shared
 * qubit; every chain is repeatedly torn up and re-placed as the cheapest root plus one cheapest path
 * toward each other chain, while `alpha` grows until no qubit is shared.
 */
function run(g: Graph, n: number, first: number, rounds: number, rng: Rng): number[][] | undefined {
  const usage = new Int32Array(g.size);
  const weight = new Float64Array(g.size);
  const chains: (number[] | undefined)[] = new Array(n);
  const dist = Array.from({ length: n }, () => new Float64Array(g.size));
  const parent = Array.from({ length: n }, () => new Int32Array(g.size));
  const place = (v: number, alpha: number): boolean => {
    for (let q = 0; q < g.size; q++) weight[q] = alpha ** usage[q]!;
    const others = chains.map((c, u) => (u !== v && c ? u : -1)).filter((u) => u >= 0);
    let root = -1;
    if (others.length === 0) root = first;
    else {
      for (const u of others) dijkstra(g, chains[u]!, weight, dist[u]!, parent[u]!);
      let best = Infinity;
      for (let q = 0; q < g.size; q++) {
        let total = weight[q]!;
        for (const u of others) total += dist[u]![q]! - weight[q]!;
        if (total < best) {
          best = total;
          root = q;
        }
      }
      if (!Number.isFinite(best)) return false;
    }
    const chain = new Set<number>([root]);
    for (const u of others) for (let q = root; q >= 0; q = parent[u]![q]!) chain.add(q);
    chains[v] = [...chain];
    for (const q of chain) usage[q]!++;
    return true;
  };
  for (let v = 0; v < n; v++) if (!place(v, 2)) return undefined;
  for (let round = 0; round <= rounds; round++) {
    if (usage.every((u) => u <= 1)) return chains as number[][];
    // Penalties rise slowly and the order is shuffled, so chains settle instead of oscillating.
    const alpha = 1.5 + round / 2;
    const order = Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i > 0; i--) {
      const j = floorScaledInt(rng, i + 1);
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (const v of order) {
      for (const q of chains[v]!) usage[q]!--;
      chains[v] = undefined;
      if (!place(v, alpha)) return undefined;
    }
  }
  return usage.every((u) => u <= 1) ? (chains as number[][]) : undefined;
}

/**
 * A topology-agnostic clique embedding for any working graph (Pegasus, Zephyr, …), after the
 * overlap-and-reroute idea of minorminer: chains start overlapping, then are torn up and re-placed
 * with rising penalties on shared qubits until they are disjoint; the result is checked with
 * {@link validateEmbedding}. It is a plain heuristic: measured here it reaches K11 on Chimera C8
 * (0.8 s) and K10 on C16 (4.8 s) where the native layout reaches K32 / K64, with longer chains.
 * For production runs pass an embedding from minorminer or busclique.
 *
 * @summary A topology-agnostic clique embedding for any working graph (Pegasus, Zephyr, …), after the overlap-and-reroute idea of minorminer.
 * @param n number of logical variables (the clique size).
 * @param graph the solver's working qubits and couplers.
 * @returns chains indexed by logical variable.
 * @throws {AdapterError} ADAPTER_EMBEDDING when no run succeeds; ADAPTER_INVALID_ARGUMENT for bad options.
 * @example
 * import { greedyCliqueEmbedding, pegasusGraph } from '@boltzmann/quantum-adapters';
 *
 * const solverGraph = pegasusGraph(6); // or a solver's own graph (with its missing qubits)
 * const chains = greedyCliqueEmbedding(12, solverGraph);
 * console.log(chains.map((c) => c.length));
 * @category Embedding
 */
export function greedyCliqueEmbedding(
  n: number,
  graph: SolverGraph,
  options: GreedyEmbeddingOptions = {},
): Embedding {
  if (!Number.isInteger(n) || n < 1)
    throw invalidArgument(`clique size must be a positive integer, got ${echo(n)}`);
  const tries = options.tries ?? 2;
  const rounds = options.rounds ?? 24;
  if (!Number.isInteger(tries) || tries < 1)
    throw invalidArgument(`tries must be a positive integer, got ${echo(tries)}`);
  if (!Number.isInteger(rounds) || rounds < 0)
    throw invalidArgument(`rounds must be an integer ≥ 0, got ${echo(rounds)}`);
  const index = new Map(graph.qubits.map((q, i) => [q, i]));
  const lists: number[][] = graph.qubits.map(() => []);
  for (const [a, b] of graph.couplers) {
    const i = index.get(a);
    const j = index.get(b);
    if (i !== undefined && j !== undefined && i !== j) {
      lists[i]!.push(j);
      lists[j]!.push(i);
    }
  }
  if (lists.length === 0)
    throw new AdapterError('ADAPTER_EMBEDDING', 'the solver has no working qubits', {
      reason: 'rejected',
      retryable: false,
    });
  const g: Graph = { size: lists.length, adjacency: lists.map((l) => Int32Array.from(l)) };
  const byDegree = lists
    .map((l, i) => [l.length, i] as const)
    .sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  const rng = createRng(options.seed ?? 0);
  const edges: [number, number][] = [];
  for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) edges.push([a, b]);
  let best: number[][] | undefined;
  let bestSize = Infinity;
  for (let t = 0; t < tries; t++) {
    const first = t === 0 ? byDegree[0]![1] : floorScaledInt(rng, g.size);
    const found = run(g, n, first, rounds, rng);
    if (!found) continue;
    const chains = found.map((c) => c.map((i) => graph.qubits[i]!).sort((a, b) => a - b));
    const size = chains.reduce((s, c) => s + c.length, 0);
    if (size < bestSize && validateEmbedding(chains, edges, graph).valid) {
      best = chains;
      bestSize = size;
    }
  }
  if (!best) {
    throw new AdapterError(
      'ADAPTER_EMBEDDING',
      `no K_${n} embedding found in ${tries} runs of ${rounds} rounds on this graph (${graph.qubits.length} qubits); pass an explicit embedding`,
      { reason: 'rejected', retryable: false },
    );
  }
  return best;
}
