import { echo } from '@boltzmann/ising-core/internal';
import { chimeraCliqueEmbedding } from '../embedding/chimera.js';
import { greedyCliqueEmbedding } from '../embedding/greedyCliqueEmbedding.js';
import { pegasusCliqueEmbedding, pegasusGraph } from '../embedding/pegasus.js';
import { zephyrCliqueEmbedding } from '../embedding/zephyr.js';
import { validateEmbedding } from '../embedding/embedding.js';
import type { Embedding } from '../embedding/embedding.js';
import { AdapterError, malformed } from '../shared/errors.js';
import type { SolverGraph } from '../embedding/solverGraph.js';
import type { SapiSolver } from './sapiTypes.js';

/**
 * How to pick a solver when no name is given.
 *
 * @category D-Wave
 */
export interface DwaveSolverFilter {
  /** Only QPU solvers that accept `ising` problems (default true). */
  readonly qpu?: boolean;
  /** Least number of working qubits. */
  readonly minQubits?: number;
  /** Topology family, e.g. `'chimera'` (the only one with a built-in clique embedding). */
  readonly topology?: string;
  /** Substring or pattern the solver name must match. */
  readonly name?: string | RegExp;
}

/**
 * Picks a solver: by exact name, or the ONLINE solver with the lowest `avg_load` among those that
 * pass the filter (QPU accepting `ising`, enough working qubits, topology, name).
 *
 * @throws {AdapterError} ADAPTER_NO_SOLVER (not retryable) listing what was available.
 * @example
 * // not run: it calls D-Wave Leap's SAPI (DWAVE_API_TOKEN)
 * import { createSapiClient, selectDwaveSolver } from '@boltzmann/quantum-adapters';
 *
 * const sapi = createSapiClient();
 * const solver = selectDwaveSolver(await sapi.listSolvers(), { topology: 'chimera', minQubits: 128 });
 * console.log(solver.identity.name);
 * @category D-Wave
 */
export function selectDwaveSolver(
  solvers: readonly SapiSolver[],
  selector: string | DwaveSolverFilter = {},
): SapiSolver {
  const names =
    solvers.length === 0
      ? 'none'
      : echo(
          solvers.map((s) => s.identity.name),
          300,
        );
  if (typeof selector === 'string') {
    const found = solvers.find((s) => s.identity.name === selector);
    if (!found)
      throw new AdapterError(
        'ADAPTER_NO_SOLVER',
        `no solver named ${echo(selector)} (available: ${names})`,
        { reason: 'rejected', retryable: false },
      );
    return found;
  }
  const candidates = solvers.filter((s) => {
    const p = s.properties as {
      category?: unknown;
      supported_problem_types?: unknown;
      qubits?: unknown;
      topology?: { type?: unknown };
    };
    if (s.status !== undefined && s.status !== 'ONLINE') return false;
    if (
      (selector.qpu ?? true) &&
      !(
        p.category === 'qpu' &&
        Array.isArray(p.supported_problem_types) &&
        p.supported_problem_types.includes('ising')
      )
    )
      return false;
    if (
      selector.minQubits !== undefined &&
      !(Array.isArray(p.qubits) && p.qubits.length >= selector.minQubits)
    )
      return false;
    if (selector.topology !== undefined && p.topology?.type !== selector.topology) return false;
    if (
      selector.name !== undefined &&
      !(typeof selector.name === 'string'
        ? s.identity.name.includes(selector.name)
        : selector.name.test(s.identity.name))
    )
      return false;
    return true;
  });
  candidates.sort((a, b) => (a.avg_load ?? 0) - (b.avg_load ?? 0));
  const best = candidates[0];
  if (!best)
    throw new AdapterError(
      'ADAPTER_NO_SOLVER',
      `no online solver matches ${echo({ ...selector, name: selector.name?.toString() })} (available: ${names})`,
      { reason: 'rejected', retryable: false },
    );
  return best;
}

/** The working graph of a QPU solver definition. */
export function solverGraph(solver: SapiSolver): SolverGraph {
  const p = solver.properties as { qubits?: unknown; couplers?: unknown };
  const okQubits = Array.isArray(p.qubits) && p.qubits.every((q) => Number.isInteger(q));
  const okCouplers =
    Array.isArray(p.couplers) &&
    p.couplers.every(
      (c) => Array.isArray(c) && c.length === 2 && c.every((q) => Number.isInteger(q)),
    );
  if (!okQubits || !okCouplers)
    throw malformed(
      `solver ${solver.identity.name} lacks integer properties.qubits / properties.couplers`,
    );
  return { qubits: p.qubits as number[], couplers: p.couplers as [number, number][] };
}

/** `name;k=v` id of a solver, as dwave-cloud-client prints it. */
export function solverId(solver: SapiSolver): string {
  const version = Object.entries(solver.identity.version ?? {})
    .map(([k, v]) => `;${k}=${String(v)}`)
    .join('');
  return `${encodeURIComponent(solver.identity.name)}${version}`;
}

/**
 * The embedding of `K_n` used for problems of up to `n` spins (prefix chains serve smaller problems):
 * the user's embedding after validation, the native Chimera clique layout when the solver's
 * `topology.type` is `chimera`, the same layout on the Chimera sub-lattices of `pegasus` and `zephyr`
 * solvers, else {@link greedyCliqueEmbedding} on the working graph.
 *
 * @throws {AdapterError} ADAPTER_EMBEDDING when the user's embedding is invalid or no embedding is found.
 */
export function cliqueEmbeddingFor(
  solver: SapiSolver,
  graph: SolverGraph,
  n: number,
  userEmbedding?: Embedding,
): Embedding {
  const edges: [number, number][] = [];
  for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) edges.push([a, b]);
  if (userEmbedding !== undefined) {
    if (userEmbedding.length < n) {
      throw new AdapterError(
        'ADAPTER_EMBEDDING',
        `the embedding has ${userEmbedding.length} chains; problems of ${n} spins need ${n}`,
        { reason: 'rejected', retryable: false },
      );
    }
    const check = validateEmbedding(userEmbedding.slice(0, n), edges, graph);
    if (!check.valid) {
      throw new AdapterError(
        'ADAPTER_EMBEDDING',
        `the embedding is not a valid clique embedding on ${solver.identity.name}: ${check.problems.slice(0, 5).join('; ')}`,
        { reason: 'rejected', retryable: false },
      );
    }
    return userEmbedding.slice(0, n);
  }
  const topology = (solver.properties as { topology?: { type?: unknown; shape?: unknown } })
    .topology;
  const shape = topology?.shape;
  if (topology?.type === 'chimera' && Array.isArray(shape) && shape.length === 3) {
    const [rows, columns, shore] = shape as [number, number, number];
    return chimeraCliqueEmbedding(n, { rows, columns, shore }, graph);
  }
  if (topology?.type === 'pegasus' && Array.isArray(shape) && Number.isInteger(shape[0])) {
    return pegasusCliqueEmbedding(n, shape[0] as number, graph);
  }
  if (topology?.type === 'zephyr' && Array.isArray(shape) && Number.isInteger(shape[0])) {
    return zephyrCliqueEmbedding(
      n,
      shape[0] as number,
      Number.isInteger(shape[1]) ? (shape[1] as number) : 4,
      graph,
    );
  }
  // Unknown layouts: a generic greedy search (validated; throws ADAPTER_EMBEDDING).
  return greedyCliqueEmbedding(n, graph);
}

/** An Advantage-like stand-in solver (full-yield Pegasus P16) used by dry runs without a `solverDefinition`. */
export function dryRunStandInSolver(): SapiSolver {
  const graph = pegasusGraph(16);
  return {
    identity: { name: 'dry-run-stand-in-pegasus-16' },
    status: 'ONLINE',
    properties: {
      category: 'qpu',
      supported_problem_types: ['qubo', 'ising'],
      num_qubits: 24 * 16 * 15,
      qubits: graph.qubits,
      couplers: graph.couplers,
      topology: { type: 'pegasus', shape: [16] },
    },
  };
}
