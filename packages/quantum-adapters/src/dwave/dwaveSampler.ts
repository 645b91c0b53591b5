// The `dwave` sampler: options checked once, then per sample() call the solver, its embedding,
// the jobs (dwaveJobs.ts) run on SAPI or written as a dry run, and the answers as sample sets.
import { echo } from '@boltzmann/ising-core/internal';
import type { IsingBatch, SampleResult, SamplerPlugin } from '@boltzmann/ising-core';
import { createDryRunWriter, dryRunError, dryRunFallback } from '../shared/dryRun.js';
import { dwaveJobsOf, dwaveSamples, writeDwaveDryRun } from './dwaveJobs.js';
import type { DwaveTarget } from './dwaveJobs.js';
import {
  cliqueEmbeddingFor,
  dryRunStandInSolver,
  selectDwaveSolver,
  solverGraph,
  solverId,
} from './dwaveSolver.js';
import type { DwaveRunInfo, DwaveSampler, DwaveSamplerOptions } from './dwaveSamplerTypes.js';
import type { Embedding } from '../embedding/embedding.js';
import { invalidArgument } from '../shared/errors.js';
import { DEFAULT_POLL_BACKOFF, runDwaveJobs } from './dwaveRun.js';
import { DWAVE_OPTIONS } from './dwaveOptionSpecs.js';
import {
  assertAdapterOptions,
  assertBatchFits,
  assertTokenOption,
  positiveInt,
} from '../shared/options.js';
import { MAX_DEADLINE_MS, runDeadline } from '../shared/retry.js';
import { resolveSapiEndpoint } from './sapiHttp.js';
import { createSapiClient } from './sapiClient.js';
import type { SapiSolver } from './sapiTypes.js';
import { hardwareCapabilities } from '../shared/hardwareCapabilities.js';

/** The numeric options of a `dwave` sampler, defaulted and checked (in this order). */
function dwaveSettings(options: DwaveSamplerOptions) {
  const numReads = positiveInt(options.numReads ?? 100, 'numReads');
  const maxSpins = positiveInt(options.maxSpins ?? 64, 'maxSpins');
  const deadlineMs = positiveInt(options.deadlineMs ?? 15 * 60_000, 'deadlineMs', MAX_DEADLINE_MS);
  const pollTimeoutSeconds = options.pollTimeoutSeconds ?? 30;
  if (!Number.isInteger(pollTimeoutSeconds) || pollTimeoutSeconds < 1 || pollTimeoutSeconds > 30)
    throw invalidArgument(
      `pollTimeoutSeconds must be an integer in [1, 30], got ${echo(pollTimeoutSeconds)}`,
    );
  const cs = options.chainStrength;
  if (typeof cs === 'number' && (!Number.isFinite(cs) || cs < 0))
    throw invalidArgument(`chainStrength must be a finite number ≥ 0, got ${echo(cs)}`);
  const backoff = { ...DEFAULT_POLL_BACKOFF, ...options.pollBackoff };
  return { numReads, maxSpins, deadlineMs, pollTimeoutSeconds, backoff, seed: options.seed ?? 0 };
}

/**
 * Creates a `dwave` sampler.
 *
 * Each batch problem becomes one SAPI `ising` problem: physics `h, J` are multiplied by β and
 * negated, minor-embedded (user chains or the Chimera clique layout), submitted in `qp` format (≤
 * 20 per request), long-polled, decoded and unembedded by majority vote.
 *
 * @throws {AdapterError} ADAPTER_AUTH without a token (unless `dryRun`), ADAPTER_INVALID_ARGUMENT for bad options
 * and for unknown option keys (also inside `dryRun`, `retry`, `pollBackoff`).
 * @example
 * // not run: it sends problems to D-Wave Leap (DWAVE_API_TOKEN)
 * import { causalBatch, estimateBatch } from '@boltzmann/ising-core';
 * import { createDwaveSampler } from '@boltzmann/quantum-adapters';
 *
 * const batch = causalBatch(new Float64Array(2 * 16), new Float64Array(16).fill(0.1), { batch: 2, length: 4 });
 * const sampler = createDwaveSampler({ solver: { topology: 'chimera' }, numReads: 1000, autoScale: false });
 * const est = await estimateBatch(sampler, batch);
 * console.log(est.magnetization, sampler.lastRunInfo()?.chainBreakFraction);
 * @category D-Wave
 */
export function createDwaveSampler(options: DwaveSamplerOptions = {}): DwaveSampler {
  assertAdapterOptions('dwave', options, DWAVE_OPTIONS);
  const { numReads, maxSpins, deadlineMs, pollTimeoutSeconds, backoff, seed } =
    dwaveSettings(options);
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
  /** The solver's clique embedding for `nMax` spins, made once per solver and size. */
  const embeddingFor = (solver: SapiSolver, graph: DwaveTarget['graph'], nMax: number) => {
    const key = `${solverId(solver)}|${nMax}`;
    let embedding = embeddings.get(key);
    if (!embedding) {
      embedding = cliqueEmbeddingFor(solver, graph, nMax, options.embedding);
      embeddings.set(key, embedding);
    }
    return embedding;
  };

  async function sample(batch: IsingBatch): Promise<SampleResult> {
    assertBatchFits(batch, maxSpins, 'dwave');
    const call = ++calls;
    const deadline = runDeadline(deadlineMs, `dwave sample() call ${call}`);
    try {
      const solver = await getSolver(deadline.signal);
      const graph = solverGraph(solver);
      const nMax = Math.max(...batch.spins);
      const target = { solver, graph, embedding: embeddingFor(solver, graph, nMax) };
      const sent = dwaveJobsOf(batch, target, options, numReads);
      if (writer) {
        const out = writer.nextCall('dwave');
        writeDwaveDryRun(out, batch, target, sent, endpoint);
        if (fallback) return await fallback(batch);
        throw dryRunError(out, `${sent.jobs.length} D-Wave problems`);
      }
      const { ids, answers } = await runDwaveJobs(client!, sent.jobs, {
        signal: deadline.signal,
        pollTimeoutSeconds,
        backoff,
        cancelTimeoutMs: 5_000,
      });
      const got = dwaveSamples(answers, batch, target.embedding, seed + 7919 * call);
      last = {
        solver: solverId(solver),
        problemIds: ids,
        chainStrengths: sent.chainStrengths,
        chainBreakFractions: got.breaks,
        chainBreakFraction: got.chainBreakFraction,
        reads: got.reads,
        qpuAccessTimeUs: got.qpuAccessTimeUs,
        maxChainLength: Math.max(...target.embedding.slice(0, nMax).map((c) => c.length)),
      };
      options.onRun?.(last);
      return { kind: 'samples', sets: got.sets };
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
 * import { mkdtempSync } from 'node:fs';
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 * import { createSamplerRegistry } from '@boltzmann/ising-core';
 * import { dwaveSampler } from '@boltzmann/quantum-adapters';
 *
 * const registry = createSamplerRegistry().register(dwaveSampler);
 * // A dry run writes the requests instead of sending them; without it, DWAVE_API_TOKEN is needed.
 * const dryRun = { dir: mkdtempSync(join(tmpdir(), 'dwave-')) };
 * const sampler = registry.require('dwave').create({ numReads: 500, dryRun });
 * console.log(sampler.name);
 * @category D-Wave
 */
export const dwaveSampler: SamplerPlugin<DwaveSamplerOptions, DwaveSampler, 'dwave'> = {
  name: 'dwave',
  version: '0.1.0',
  description:
    'D-Wave Leap QPU sampling over SAPI v3 (qp format, clique minor embedding, majority-vote unembedding)',
  capabilities: hardwareCapabilities(64),
  options: DWAVE_OPTIONS,
  // The SAPI token; applications strip these paths from everything they hash, save or print.
  secretOptions: ['token'],
  create: (options) => createDwaveSampler(options),
};
