// What one `dwave` sample() call sends and reads (dwaveSampler.ts): a batch as embedded SAPI
// `ising` jobs, the same jobs written as a dry run, and the answers unembedded into sample sets.
import type { IsingBatch, SampleSet } from '@boltzmann/ising-core';
import { batchProblemToBqm } from './bqmJson.js';
import type { DryRunCall } from '../shared/dryRun.js';
import { solverId } from './dwaveSolver.js';
import type { DwaveSamplerOptions } from './dwaveSamplerTypes.js';
import { embedIsing, unembedMajority, uniformTorqueCompensation } from '../embedding/embedding.js';
import type { Embedding, LogicalIsing } from '../embedding/embedding.js';
import { DWAVE_PROBLEMS_PER_SUBMIT } from './dwaveRun.js';
import { dwaveCostEstimate } from './dwaveCost.js';
import { checkParams, checkRanges } from './solverLimits.js';
import { decodeQpAnswer, encodeQpProblem } from './qpCodec.js';
import type { SolverGraph } from '../embedding/solverGraph.js';
import type { SapiJob, SapiSolver } from './sapiTypes.js';

/** Logical problem `q` in D-Wave signs with β folded in: `h = -β·h_phys`, `J = -β·J_phys`. */
export function logicalProblem(batch: IsingBatch, q: number): LogicalIsing {
  const n = batch.spins[q]!;
  const { stride, beta } = batch;
  const linear = new Float64Array(n);
  const couplings = new Float64Array(n * n);
  for (let u = 0; u < n; u++) {
    linear[u] = -beta * batch.fields[q * stride + u]!;
    for (let v = u + 1; v < n; v++) couplings[u * n + v] = -beta * batch.couplings[u * stride + v]!;
  }
  return { n, linear, couplings };
}

/** Where a batch is sent: the solver, its working graph and the clique embedding of the batch. */
export interface DwaveTarget {
  readonly solver: SapiSolver;
  readonly graph: SolverGraph;
  readonly embedding: Embedding;
}

/**
 * One SAPI `ising` job per problem of `batch` (embedded, in `qp` format) and each one's chain
 * strength; with `autoScale: false` the terms are checked against the solver's ranges.
 */
export function dwaveJobsOf(
  batch: IsingBatch,
  target: DwaveTarget,
  options: DwaveSamplerOptions,
  numReads: number,
): { readonly jobs: SapiJob[]; readonly chainStrengths: number[] } {
  const { solver, graph, embedding } = target;
  const cs = options.chainStrength;
  const autoScale = options.autoScale ?? true;
  const chainStrengths: number[] = [];
  const jobs: SapiJob[] = [];
  for (let q = 0; q < batch.size; q++) {
    const logical = logicalProblem(batch, q);
    const strength =
      typeof cs === 'number'
        ? cs
        : typeof cs === 'function'
          ? cs(logical)
          : uniformTorqueCompensation(logical);
    chainStrengths.push(strength);
    const { terms, offset } = embedIsing(logical, embedding, graph, strength);
    if (!autoScale) checkRanges(solver, terms.linear.values(), terms.quadratic.values(), q);
    const data = encodeQpProblem(graph, terms, offset);
    const params = {
      num_reads: numReads,
      answer_mode: 'histogram',
      auto_scale: autoScale,
      ...options.params,
    };
    if (q === 0) checkParams(solver, params);
    jobs.push({
      solver: solver.identity,
      label: options.label ?? 'boltzmann-attention',
      type: 'ising',
      data,
      params,
    });
  }
  return { jobs, chainStrengths };
}

/**
 * Writes a dry run's files: the solver, the embedding, each submit request, each problem's BQM,
 * and what the call would cost (`estimate.json`, {@link dwaveCostEstimate}).
 */
export function writeDwaveDryRun(
  out: DryRunCall,
  batch: IsingBatch,
  target: DwaveTarget,
  sent: { readonly jobs: readonly SapiJob[]; readonly chainStrengths: readonly number[] },
  endpoint: string,
): void {
  const { solver, graph, embedding } = target;
  const { jobs } = sent;
  out.json('solver.json', {
    identity: solver.identity,
    id: solverId(solver),
    topology: solver.properties.topology ?? null,
    workingQubits: graph.qubits.length,
  });
  out.json('embedding.json', { chains: embedding, chainStrengths: sent.chainStrengths });
  for (let start = 0, k = 1; start < jobs.length; start += DWAVE_PROBLEMS_PER_SUBMIT, k++) {
    out.json(`submit-${String(k).padStart(3, '0')}.json`, {
      method: 'POST',
      url: new URL('problems/', endpoint).toString(),
      headers: {
        'X-Auth-Token': '***',
        Accept: 'application/vnd.dwave.sapi.problems+json; version=3.0.0',
        'Content-Type': 'application/json',
      },
      body: jobs.slice(start, start + DWAVE_PROBLEMS_PER_SUBMIT),
    });
  }
  for (let q = 0; q < batch.size; q++)
    out.json(`problem-${String(q).padStart(4, '0')}.bqm.json`, batchProblemToBqm(batch, q));
  const spins = Array.from({ length: batch.size }, (_, q) => batch.spins[q]!);
  const params = jobs[0]?.params ?? {};
  out.json('estimate.json', dwaveCostEstimate({ solver, embedding, spins, params }));
}

/** The answers decoded and unembedded by majority vote, with the chain breaks and QPU time. */
export interface DwaveSamples {
  readonly sets: SampleSet[];
  /** Per problem, the fraction of broken chains. */
  readonly breaks: number[];
  /** Over all reads. */
  readonly chainBreakFraction: number;
  /** Reads over all problems. */
  readonly reads: number;
  readonly qpuAccessTimeUs: number;
}

/** Decodes and unembeds every answer (ties broken by the seed `voteSeed + q`). */
export function dwaveSamples(
  answers: readonly unknown[],
  batch: IsingBatch,
  embedding: Embedding,
  voteSeed: number,
): DwaveSamples {
  const sets: SampleSet[] = [];
  const breaks: number[] = [];
  let broken = 0;
  let reads = 0;
  let qpuAccessTimeUs = 0;
  answers.forEach((raw, q) => {
    const n = batch.spins[q]!;
    const answer = decodeQpAnswer(raw, 'ising');
    const un = unembedMajority(
      answer.solutions,
      answer.activeVariables,
      answer.numOccurrences,
      embedding,
      n,
      voteSeed + q,
    );
    sets.push({ spins: n, states: un.states, weights: answer.numOccurrences });
    const total = answer.numOccurrences.reduce((a, b) => a + b, 0);
    breaks.push(un.chainBreakFraction);
    broken += un.chainBreakFraction * total;
    reads += total;
    const t = (raw as { timing?: { qpu_access_time?: unknown } }).timing?.qpu_access_time;
    if (typeof t === 'number') qpuAccessTimeUs += t;
  });
  const chainBreakFraction = reads > 0 ? broken / reads : 0;
  return { sets, breaks, chainBreakFraction, reads, qpuAccessTimeUs };
}
