// Fake QPU solver definitions (Chimera, Pegasus, Zephyr) as SAPI's solver list shows them.
import { chimeraGraph } from '../../embedding/chimera.js';
import type { ChimeraShape } from '../../embedding/chimera.js';
import { pegasusGraph } from '../../embedding/pegasus.js';
import type { SapiSolver } from '../sapiTypes.js';
import { zephyrGraph } from '../../embedding/zephyr.js';

/** A Chimera QPU solver definition as SAPI lists it, optionally with missing qubits. */
export function fakeChimeraSolver(
  shape: ChimeraShape,
  opts: {
    name?: string;
    missing?: number[];
    hRange?: [number, number];
    jRange?: [number, number];
  } = {},
): SapiSolver {
  const full = chimeraGraph(shape);
  const missing = new Set(opts.missing ?? []);
  return {
    identity: { name: opts.name ?? 'FakeChimera_system', version: { graph_id: 'fake01' } },
    status: 'ONLINE',
    avg_load: 0.1,
    properties: {
      category: 'qpu',
      supported_problem_types: ['qubo', 'ising'],
      num_qubits: full.qubits.length,
      qubits: full.qubits.filter((q) => !missing.has(q)),
      couplers: full.couplers.filter(([a, b]) => !missing.has(a) && !missing.has(b)),
      topology: { type: 'chimera', shape: [shape.rows, shape.columns, shape.shore] },
      h_range: opts.hRange ?? [-4, 4],
      j_range: opts.jRange ?? [-1, 1],
      extended_j_range: opts.jRange ?? [-2, 1],
      num_reads_range: [1, 10000],
      parameters: { num_reads: '', auto_scale: '', answer_mode: '', annealing_time: '' },
    },
  };
}

/** A Pegasus QPU solver definition (full yield), as an Advantage system lists it. */
export function fakePegasusSolver(
  m: number,
  opts: { name?: string; hRange?: [number, number]; jRange?: [number, number] } = {},
): SapiSolver {
  return fakeLatticeSolver(
    pegasusGraph(m),
    24 * m * (m - 1),
    { type: 'pegasus', shape: [m] },
    { name: 'FakeAdvantage_system', graphId: 'fakepeg', ...opts },
  );
}

/** A Zephyr QPU solver definition (full yield), as an Advantage2 system lists it. */
export function fakeZephyrSolver(
  m: number,
  t: number,
  opts: { name?: string; hRange?: [number, number]; jRange?: [number, number] } = {},
): SapiSolver {
  const graph = zephyrGraph(m, t);
  return fakeLatticeSolver(
    graph,
    graph.qubits.length,
    { type: 'zephyr', shape: [m, t] },
    { name: 'FakeAdvantage2_system', graphId: 'fakezep', ...opts },
  );
}

function fakeLatticeSolver(
  graph: { qubits: readonly number[]; couplers: readonly (readonly [number, number])[] },
  numQubits: number,
  topology: { type: string; shape: number[] },
  opts: { name: string; graphId: string; hRange?: [number, number]; jRange?: [number, number] },
): SapiSolver {
  return {
    identity: { name: opts.name, version: { graph_id: opts.graphId } },
    status: 'ONLINE',
    avg_load: 0.1,
    properties: {
      category: 'qpu',
      supported_problem_types: ['qubo', 'ising'],
      num_qubits: numQubits,
      qubits: graph.qubits,
      couplers: graph.couplers,
      topology,
      h_range: opts.hRange ?? [-4, 4],
      j_range: opts.jRange ?? [-1, 1],
      num_reads_range: [1, 10000],
      parameters: { num_reads: '', auto_scale: '', answer_mode: '', annealing_time: '' },
    },
  };
}
