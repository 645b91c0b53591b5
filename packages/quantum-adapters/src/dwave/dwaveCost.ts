// What a `dwave` call costs before it is sent: QPU access time per problem (dwaveTiming.ts), as
// the CostEstimate every hardware dry run writes (`dwave-0001/estimate.json`).
import type { CostEstimate } from '../shared/costEstimate.js';
import type { Embedding } from '../embedding/embedding.js';
import { DWAVE_PROBLEMS_PER_SUBMIT } from './dwaveRun.js';
import { dwaveAccessTime } from './dwaveTiming.js';
import type { SapiSolver } from './sapiTypes.js';

/**
 * The problems of one call: each one's spin count, and the SAPI parameters they are sent with.
 *
 * @category D-Wave
 */
export interface DwaveCostInput {
  readonly solver: SapiSolver;
  /** The clique embedding; problem q of `spins[q]` spins uses its first `spins[q]` chains. */
  readonly embedding: Embedding;
  readonly spins: readonly number[];
  /** The jobs' `params` (`num_reads`, `annealing_time`, …). */
  readonly params: Readonly<Record<string, unknown>>;
}

/**
 * The unit costs of a `dwave` call: every problem is its own QPU problem (programmed once, then
 * `num_reads` anneals), so `perProblem.qpuSeconds` is the mean estimated QPU access time of the
 * call's problems and `perJob` is empty (a SAPI submit request adds no QPU time).
 *
 * @summary The unit costs of a `dwave` call.
 * @example
 * // not run: the solver and its embedding come from D-Wave Leap (DWAVE_API_TOKEN)
 * import { chimeraCliqueEmbedding, createSapiClient, dwaveCostEstimate, selectDwaveSolver } from '@boltzmann/quantum-adapters';
 *
 * const solver = selectDwaveSolver(await createSapiClient().listSolvers(), { topology: 'chimera' });
 * const embedding = chimeraCliqueEmbedding(4, { rows: 16, columns: 16, shore: 4 });
 * const e = dwaveCostEstimate({ solver, embedding, spins: [4, 4], params: { num_reads: 100 } });
 * console.log(e.call.qpuSeconds); // both problems' access time
 * @category D-Wave
 */
export function dwaveCostEstimate(input: DwaveCostInput): CostEstimate {
  const { solver, embedding, spins, params } = input;
  const assumptions = new Set<string>();
  let totalUs = 0;
  let qubitsMin = Number.POSITIVE_INFINITY;
  let qubitsMax = 0;
  for (const n of spins) {
    const qubits = embedding.slice(0, n).reduce((s, chain) => s + chain.length, 0);
    qubitsMin = Math.min(qubitsMin, qubits);
    qubitsMax = Math.max(qubitsMax, qubits);
    const t = dwaveAccessTime(solver, qubits, params);
    totalUs += t.microseconds;
    for (const a of t.assumptions) assumptions.add(a);
  }
  const problems = spins.length;
  const perProblemUs = problems > 0 ? totalUs / problems : 0;
  const reads = typeof params.num_reads === 'number' ? params.num_reads : 1;
  const lines = [
    `QPU access time per problem as dwave-cloud-client's estimate_qpu_access_time (dwavesystems/dwave-cloud-client@27cd70ef7444 dwave/cloud/solver.py): programming time + ${reads} reads × (anneal + readout + delay), by ${solver.identity.name}'s problem_timing_data except where said below`,
    `each problem is its own QPU problem, programmed once; ${qubitsMin === qubitsMax ? qubitsMax : `${qubitsMin}–${qubitsMax}`} qubits (the chains of its spins) set the readout time; perProblem is the mean of the call's ${problems} problems`,
    "D-Wave's access overhead Δ (10–20 ms on Advantage, docs.dwavesys.com timing_qa_cycle_time.html) is not added, as in dwave-cloud-client, whose live test finds its estimate within 5 % of the reported qpu_access_time",
    ...assumptions,
    'no Leap plan limit is shown: none is documented in a source this adapter cites',
  ];
  const totalSeconds = totalUs / 1e6;
  return {
    provider: 'dwave',
    perProblem: { qpuSeconds: perProblemUs / 1e6 },
    perJob: {},
    problemsPerJob: DWAVE_PROBLEMS_PER_SUBMIT,
    call: {
      problems,
      jobs: Math.ceil(problems / DWAVE_PROBLEMS_PER_SUBMIT),
      qpuSeconds: totalSeconds,
    },
    limits: [],
    assumptions: lines,
  };
}
