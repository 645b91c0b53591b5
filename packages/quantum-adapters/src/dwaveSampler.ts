import { echo } from '@boltzmann/ising-core';
import type { IsingBatch, SampleResult, SampleSet, SamplerPlugin } from '@boltzmann/ising-core';
import { batchProblemToBqm } from './bqmJson.js';
import { createDryRunWriter, dryRunError, dryRunFallback } from './dryRun.js';
import {
  cliqueEmbeddingFor,
  dryRunStandInSolver,
  selectDwaveSolver,
  solverGraph,
  solverId,
} from './dwaveSolver.js';
import type { DwaveRunInfo, DwaveSampler, DwaveSamplerOptions } from './dwaveSamplerTypes.js';
import { embedIsing, unembedMajority, uniformTorqueCompensation } from './embedding.js';
import type { Embedding, LogicalIsing } from './embedding.js';
import { invalidArgument } from './errors.js';
import {
  DEFAULT_POLL_BACKOFF,
  DWAVE_PROBLEMS_PER_SUBMIT,
  runDwaveJobs,
} from './internal/dwaveRun.js';
import { DWAVE_OPTION_KEYS } from './internal/optionKeys.js';
import { assertAdapterOptions, assertBatchFits, positiveInt } from './internal/options.js';
import { runDeadline } from './internal/retry.js';
import { checkParams, checkRanges } from './internal/solverLimits.js';
import { decodeQpAnswer, encodeQpProblem } from './qpCodec.js';
import { assertTokenOption, resolveSapiEndpoint } from './internal/sapiHttp.js';
import { createSapiClient } from './sapiClient.js';
import type { SapiJob, SapiSolver } from './sapiTypes.js';
import { hardwareCapabilities } from './internal/hardwareCapabilities.js';

/** Logical problem `q` in D-Wave signs with β folded in: `h = -β·h_phys`, `J = -β·J_phys`. */
function logicalProblem(batch: IsingBatch, q: number): LogicalIsing {
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

/**
 * Creates a `dwave` sampler. Each batch problem becomes one SAPI `ising` problem: physics `h, J`
 * are multiplied by β and negated, minor-embedded (user chains or the Chimera clique layout),
 * submitted in `qp` format (≤ 20 per request), long-polled, decoded and unembedded by majority vote.
 *
 * @throws {AdapterError} ADAPTER_AUTH without a token (unless `dryRun`), ADAPTER_INVALID_ARGUMENT for bad options
 * and for unknown option keys (also inside `dryRun`, `retry`, `pollBackoff`).
 * @example
 * const sampler = createDwaveSampler({ solver: { topology: 'chimera' }, numReads: 1000, autoScale: false });
 * const est = await estimateBatch(sampler, batch); console.log(sampler.lastRunInfo()?.chainBreakFraction);
 */
export function createDwaveSampler(options: DwaveSamplerOptions = {}): DwaveSampler {
  assertAdapterOptions('dwave', options, DWAVE_OPTION_KEYS);
  const numReads = positiveInt(options.numReads ?? 100, 'numReads');
  const maxSpins = positiveInt(options.maxSpins ?? 64, 'maxSpins');
  const deadlineMs = positiveInt(options.deadlineMs ?? 15 * 60_000, 'deadlineMs');
  const pollTimeoutSeconds = options.pollTimeoutSeconds ?? 30;
  if (!Number.isInteger(pollTimeoutSeconds) || pollTimeoutSeconds < 1 || pollTimeoutSeconds > 30)
    throw invalidArgument(
      `pollTimeoutSeconds must be an integer in [1, 30], got ${echo(pollTimeoutSeconds)}`,
    );
  const cs = options.chainStrength;
  if (typeof cs === 'number' && (!Number.isFinite(cs) || cs < 0))
    throw invalidArgument(`chainStrength must be a finite number ≥ 0, got ${echo(cs)}`);
  const backoff = { ...DEFAULT_POLL_BACKOFF, ...options.pollBackoff };
  const seed = options.seed ?? 0;
  const writer = options.dryRun ? createDryRunWriter(options.dryRun.dir) : undefined;
  const fallback = options.dryRun
    ? dryRunFallback(options.dryRun, { shots: numReads, seed })
    : undefined;
  // Checked in dry runs too, which write the URL and never build a client.
  assertTokenOption(options.token);
  const endpoint = resolveSapiEndpoint(options);
  const client = writer ? undefined : createSapiClient({ ...options, seed });
  let solverPromise: Promise<SapiSolver> | undefined;
  const embeddings = new Map<string, Embedding>();
  let last: DwaveRunInfo | undefined;
  let calls = 0;

  const getSolver = (signal: AbortSignal): Promise<SapiSolver> => {
    if (options.solverDefinition) return Promise.resolve(options.solverDefinition);
    if (!client) return Promise.resolve(dryRunStandInSolver());
    solverPromise ??= client
      .listSolvers(signal)
      .then((list) => selectDwaveSolver(list, options.solver));
    solverPromise.catch(() => (solverPromise = undefined));
    return solverPromise;
  };

  async function sample(batch: IsingBatch): Promise<SampleResult> {
    assertBatchFits(batch, maxSpins, 'dwave');
    const call = ++calls;
    const deadline = runDeadline(deadlineMs, `dwave sample() call ${call}`);
    try {
      const solver = await getSolver(deadline.signal);
      const graph = solverGraph(solver);
      const nMax = Math.max(...batch.spins);
      const key = `${solverId(solver)}|${nMax}`;
      let embedding = embeddings.get(key);
      if (!embedding) {
        embedding = cliqueEmbeddingFor(solver, graph, nMax, options.embedding);
        embeddings.set(key, embedding);
      }
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
      if (writer) {
        const out = writer.nextCall('dwave');
        out.json('solver.json', {
          identity: solver.identity,
          id: solverId(solver),
          topology: solver.properties.topology ?? null,
          workingQubits: graph.qubits.length,
        });
        out.json('embedding.json', { chains: embedding, chainStrengths });
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
        if (fallback) return await fallback(batch);
        throw dryRunError(out, `${jobs.length} D-Wave problems`);
      }
      const { ids, answers } = await runDwaveJobs(client!, jobs, {
        signal: deadline.signal,
        pollTimeoutSeconds,
        backoff,
        cancelTimeoutMs: 5_000,
      });
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
          embedding!,
          n,
          seed + 7919 * call + q,
        );
        sets.push({ spins: n, states: un.states, weights: answer.numOccurrences });
        const total = answer.numOccurrences.reduce((a, b) => a + b, 0);
        breaks.push(un.chainBreakFraction);
        broken += un.chainBreakFraction * total;
        reads += total;
        const t = (raw as { timing?: { qpu_access_time?: unknown } }).timing?.qpu_access_time;
        if (typeof t === 'number') qpuAccessTimeUs += t;
      });
      last = {
        solver: solverId(solver),
        problemIds: ids,
        chainStrengths,
        chainBreakFractions: breaks,
        chainBreakFraction: reads > 0 ? broken / reads : 0,
        qpuAccessTimeUs,
        maxChainLength: Math.max(...embedding.slice(0, nMax).map((c) => c.length)),
      };
      options.onRun?.(last);
      return { kind: 'samples', sets };
    } finally {
      deadline.clear();
    }
  }

  return {
    name: 'dwave',
    capabilities: hardwareCapabilities(maxSpins),
    sample,
    lastRunInfo: () => last,
    dispose: () => undefined,
  };
}

/**
 * The `dwave` sampler plugin (D-Wave Leap SAPI). Register it in the app's registry; `create(options)`
 * calls {@link createDwaveSampler}.
 *
 * @example
 * const registry = createSamplerRegistry().register(dwaveSampler);
 * const sampler = registry.require('dwave').create({ numReads: 500 });
 */
export const dwaveSampler: SamplerPlugin<DwaveSamplerOptions, DwaveSampler, 'dwave'> = {
  name: 'dwave',
  version: '0.1.0',
  description:
    'D-Wave Leap QPU sampling over SAPI v3 (qp format, clique minor embedding, majority-vote unembedding)',
  capabilities: hardwareCapabilities(64),
  // The SAPI token; applications strip these paths from everything they hash, save or print.
  secretOptions: ['token'],
  create: (options) => createDwaveSampler(options),
};
