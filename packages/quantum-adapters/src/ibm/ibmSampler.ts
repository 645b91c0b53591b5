// The `ibm` sampler: options checked once; per sample() call the batch routed onto the backend
// (ibmRun.ts) and run as Sampler V2 jobs through the Runtime client made on first use, or written
// as a dry run.
import type { IsingBatch, SampleResult, SamplerPlugin } from '@boltzmann/ising-core';
import { createDryRunWriter, dryRunError, dryRunFallback } from '../shared/dryRun.js';
import { invalidArgument } from '../shared/errors.js';
import { hardwareCapabilities } from '../shared/hardwareCapabilities.js';
import { ANNEAL_CIRCUIT_KEYS } from '../shared/options.js';
import {
  assertAdapterOptions,
  assertBatchFits,
  assertKnownOptions,
  optionalFunction,
  positiveInt,
} from '../shared/options.js';
import { MAX_DEADLINE_MS } from '../shared/retry.js';
import { IBM_OPTIONS } from './ibmOptionSpecs.js';
import { routeBatch, runIbmCall, writeIbmDryRun } from './ibmRun.js';
import type { IbmCallContext } from './ibmRun.js';
import type { IbmRunInfo, IbmSampler, IbmSamplerOptions } from './ibmSamplerTypes.js';
import type { IbmTarget } from './ibmTypes.js';
import { IBM_FEZ_SNAPSHOT, knownIbmDevice } from './knownDevices.js';
import { minFidelityOf } from './trotterSteps.js';
import { createRuntimeClient } from './runtimeClient.js';
import { DEFAULT_IBM_POLL_BACKOFF } from './runtimeJobs.js';
import { samplerJobSettings } from './samplerJobOptions.js';
import { createSubmissionThrottle, DEFAULT_IBM_JOBS_PER_MINUTE } from './submissionThrottle.js';
import { resolveIamEndpoint, resolveRuntimeEndpoint } from './runtimeOptions.js';
import { parseConfiguration, parseProperties } from './runtimeParse.js';
import type { RuntimeClient } from './runtimeTypes.js';

/**
 * Default largest spin count: a 16-qubit path already needs 16 swap layers per Trotter step.
 *
 * @category IBM Quantum
 */
export const DEFAULT_IBM_MAX_SPINS = 16;

/**
 * Most shots per pub: 100,000, the `max_shots` IBM's backends report in their configuration. A
 * larger count (`1e9`) would only be refused by Runtime after the circuits were routed and sent.
 */
export const MAX_IBM_SHOTS = 100_000;

/** The call context from the options, defaulted and checked. */
function callContext(options: IbmSamplerOptions, backend: string): IbmCallContext {
  const mode = options.sessionMode ?? 'batch';
  if (mode !== 'batch' && mode !== 'none')
    throw invalidArgument(`sessionMode must be 'batch' or 'none', got ${String(mode)}`);
  for (const flag of ['fractionalGates', 'strictFidelity'] as const)
    if (options[flag] !== undefined && typeof options[flag] !== 'boolean')
      throw invalidArgument(`${flag} must be a boolean`);
  return {
    backend,
    shots: positiveInt(options.shots ?? 1000, 'shots', MAX_IBM_SHOTS),
    anneal: options.anneal,
    fractionalGates: options.fractionalGates ?? false,
    sessionMode: mode,
    maxPubsPerJob:
      options.maxPubsPerJob === undefined
        ? undefined
        : positiveInt(options.maxPubsPerJob, 'maxPubsPerJob'),
    backoff: { ...DEFAULT_IBM_POLL_BACKOFF, ...options.pollBackoff },
    deadlineMs: positiveInt(options.deadlineMs ?? 2 * 3_600_000, 'deadlineMs', MAX_DEADLINE_MS),
    cancelTimeoutMs: 10_000,
    layouts: new Map(),
    job: samplerJobSettings(options),
    throttle: createSubmissionThrottle(options.maxJobsPerMinute ?? DEFAULT_IBM_JOBS_PER_MINUTE, {
      ...(options.debug === undefined ? {} : { debug: options.debug }),
    }),
    minFidelity: minFidelityOf(options.minFidelity),
    strictFidelity: options.strictFidelity ?? false,
    steps: new Map(),
  };
}

/** A `device` option checked as Runtime's own answers are. */
function deviceTarget(device: IbmSamplerOptions['device']): IbmTarget | undefined {
  if (device === undefined) return undefined;
  if (device === null || typeof device !== 'object')
    throw invalidArgument('device must be { configuration, properties? }');
  const configuration = parseConfiguration(device.configuration, 'the device option');
  const properties =
    device.properties === undefined
      ? undefined
      : parseProperties(device.properties, 'the device option');
  return properties === undefined ? { configuration } : { configuration, properties };
}

/** The backend: the option; for a dry run, else the `device`'s, else ibm_fez. */
function backendName(
  options: IbmSamplerOptions,
  given: IbmTarget | undefined,
  dryRun: boolean,
): string {
  if (options.backend !== undefined) {
    if (typeof options.backend !== 'string' || options.backend === '')
      throw invalidArgument('backend must be a backend name, e.g. "ibm_fez"');
    return options.backend;
  }
  if (dryRun)
    return given?.configuration.backend_name ?? IBM_FEZ_SNAPSHOT.configuration.backend_name;
  throw invalidArgument('the ibm sampler needs { backend }, e.g. "ibm_fez"');
}

/** What a dry run routes onto without a `device` option: a recorded snapshot of the backend. */
function dryRunTarget(backend: string): IbmTarget {
  const known = knownIbmDevice(backend);
  if (known === undefined) {
    throw invalidArgument(
      `a dry run sends nothing, so it cannot read ${backend}'s coupling map: pass { device: { configuration } } (GET /backends/${backend}/configuration), or use a recorded backend (ibm_fez, ibm_brisbane)`,
    );
  }
  return known;
}

/** The client options the sampler passes through. */
function clientOptions(options: IbmSamplerOptions) {
  const { apiKey, serviceCrn, region, endpoint, iamEndpoint, apiVersion } = options;
  const { requestTimeoutMs, retry, maxResponseBytes, fetch, seed, debug } = options;
  return Object.fromEntries(
    Object.entries({
      apiKey,
      serviceCrn,
      region,
      endpoint,
      iamEndpoint,
      apiVersion,
      requestTimeoutMs,
      retry,
      maxResponseBytes,
      fetch,
      seed,
      debug,
    }).filter(([, v]) => v !== undefined),
  );
}

/**
 * Creates an `ibm` sampler: each batch problem becomes dqa-sim's DQA Trotter circuit, routed onto a
 * path of the backend's qubits with a swap network and decomposed into its native gates
 * (`cz`/`ecr`, `rz`, `sx`, `x`, optionally fractional `rzz`), then run with Qiskit Runtime's Sampler
 * V2 (one pub per problem, the call's jobs in one batch session); measured bit 0 is spin +1.
 *
 * @summary Creates an `ibm` sampler.
 * @throws {AdapterError} ADAPTER_INVALID_ARGUMENT for bad or unknown options, for a real run without
 * `backend`, and (from the Runtime client) without an API key or instance CRN.
 * @example
 * // not run: it runs circuits on IBM Quantum (IBM_CLOUD_API_KEY, IBM_QUANTUM_CRN)
 * import { causalBatch, estimateBatch } from '@boltzmann/ising-core';
 * import { createIbmSampler } from '@boltzmann/quantum-adapters';
 *
 * const sampler = createIbmSampler({ backend: 'ibm_fez', shots: 2000 });
 * const batch = causalBatch(new Float64Array(16), new Float64Array(16).fill(0.1), { batch: 1, length: 4 });
 * console.log((await estimateBatch(sampler, batch)).magnetization);
 * @category IBM Quantum
 */
export function createIbmSampler(options: IbmSamplerOptions = {}): IbmSampler {
  assertAdapterOptions('ibm', options, IBM_OPTIONS);
  assertKnownOptions('ibm anneal', options.anneal, ANNEAL_CIRCUIT_KEYS);
  // Checked here too, since a dry run makes no client that would check them.
  optionalFunction(options.debug, 'debug');
  const onRun = optionalFunction(options.onRun, 'onRun');
  const maxSpins = positiveInt(options.maxSpins ?? DEFAULT_IBM_MAX_SPINS, 'maxSpins');
  const given = deviceTarget(options.device);
  const writer = options.dryRun ? createDryRunWriter(options.dryRun.dir) : undefined;
  const backend = backendName(options, given, writer !== undefined);
  const context = callContext(options, backend);
  const fallback = options.dryRun
    ? dryRunFallback(options.dryRun, {
        calibrate: 'linear-response',
        ...options.anneal,
        shots: context.shots,
        ...(options.seed === undefined ? {} : { seed: options.seed }),
      })
    : undefined;
  // A dry run sends nothing and needs no credentials: the URLs are only checked and written.
  const urls = writer
    ? { iam: resolveIamEndpoint(options.iamEndpoint), runtime: resolveRuntimeEndpoint(options) }
    : undefined;
  let client: RuntimeClient | undefined = writer
    ? undefined
    : createRuntimeClient(clientOptions(options));
  let target: IbmTarget | undefined = given ?? (writer ? dryRunTarget(backend) : undefined);
  let last: IbmRunInfo | undefined;

  async function deviceOf(runtime: RuntimeClient): Promise<IbmTarget> {
    if (target) return target;
    const [configuration, properties] = await Promise.all([
      runtime.backendConfiguration(backend),
      runtime.backendProperties(backend),
    ]);
    target = properties === undefined ? { configuration } : { configuration, properties };
    return target;
  }

  async function sample(batch: IsingBatch): Promise<SampleResult> {
    assertBatchFits(batch, maxSpins, 'ibm');
    if (writer) {
      const out = writer.nextCall('ibm');
      const estimate = writeIbmDryRun(
        out,
        routeBatch(batch, target!, context),
        target!,
        context,
        urls!,
      );
      if (fallback) return await fallback(batch);
      throw dryRunError(out, `${estimate.jobs} Sampler V2 jobs for ${batch.size} circuits`);
    }
    client ??= createRuntimeClient(clientOptions(options));
    const runtime = client;
    const device = await deviceOf(runtime);
    const run = await runIbmCall(
      runtime,
      routeBatch(batch, device, context, true),
      device,
      context,
    );
    const layouts: Record<number, readonly number[]> = {};
    for (const [n, layout] of context.layouts) layouts[n] = layout.physicalQubits;
    last = {
      backend,
      jobIds: run.jobIds,
      ...(run.sessionId === undefined ? {} : { sessionId: run.sessionId }),
      shots: context.shots,
      layouts,
      steps: [...context.steps.values()],
    };
    onRun?.(last);
    return { kind: 'samples', sets: run.sets };
  }

  return {
    name: 'ibm',
    capabilities: hardwareCapabilities(maxSpins),
    sample,
    lastRunInfo: () => last,
    dispose() {
      client = undefined;
    },
  };
}

/**
 * The `ibm` sampler plugin (IBM Quantum, Qiskit Runtime Sampler V2, routed DQA circuits).
 * `create(options)` calls {@link createIbmSampler}.
 *
 * @example
 * import { mkdtempSync } from 'node:fs';
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 * import { createSamplerRegistry } from '@boltzmann/ising-core';
 * import { ibmSampler } from '@boltzmann/quantum-adapters';
 *
 * const registry = createSamplerRegistry().register(ibmSampler);
 * // A dry run writes the requests instead of sending them; without it, IBM_CLOUD_API_KEY is needed.
 * const dryRun = { dir: mkdtempSync(join(tmpdir(), 'ibm-')) };
 * const sampler = registry.require('ibm').create({ backend: 'ibm_fez', dryRun });
 * console.log(sampler.name);
 * @category IBM Quantum
 */
export const ibmSampler: SamplerPlugin<IbmSamplerOptions, IbmSampler, 'ibm'> = {
  name: 'ibm',
  version: '0.1.0',
  description:
    'IBM Quantum gate-model sampling of the DQA Trotter circuit, routed onto the device (Qiskit Runtime Sampler V2)',
  capabilities: hardwareCapabilities(DEFAULT_IBM_MAX_SPINS),
  options: IBM_OPTIONS,
  // The IBM Cloud API key.
  secretOptions: ['apiKey'],
  create: (options) => createIbmSampler(options),
};
