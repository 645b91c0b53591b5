// The IBM Quantum Runtime (Qiskit Runtime REST, Sampler V2) client: backends, sessions, Sampler
// jobs, their state, results, cancellation and metrics, each answer checked (runtimeParse.ts). One
// request, its token, retries and redaction are in runtimeRequest.ts; the IAM exchange in iamToken.ts.
import { createRng } from '@boltzmann/ising-core';
import { isAdapterError } from '../shared/errors.js';
import type { AdapterError } from '../shared/errors.js';
import { optionalFunction, positiveInt } from '../shared/options.js';
import { resolveRetry } from '../shared/retry.js';
import { createIamTokenSource } from './iamToken.js';
import { pathSegment, samplerJobRequestBody, sessionRequestBody } from './runtimeBodies.js';
import {
  DEFAULT_IBM_MAX_RESPONSE_BYTES,
  resolveApiKey,
  resolveApiVersion,
  resolveIamEndpoint,
  resolveRuntimeEndpoint,
  resolveServiceCrn,
} from './runtimeOptions.js';
import {
  parseBackendStatus,
  parseConfiguration,
  parseJobStatus,
  parseMetrics,
  parseProperties,
  parseSession,
  parseSubmitted,
} from './runtimeParse.js';
import { runtimeRequest } from './runtimeRequest.js';
import type { RuntimeTransport } from './runtimeRequest.js';
import type { RuntimeClient, RuntimeClientOptions } from './runtimeTypes.js';

/** What the client's requests share, from its options (each checked here, at creation). */
function transportOf(options: RuntimeClientOptions): RuntimeTransport {
  const apiKey = resolveApiKey(options);
  const endpoint = resolveRuntimeEndpoint(options);
  const iamEndpoint = resolveIamEndpoint(options.iamEndpoint);
  const serviceCrn = resolveServiceCrn(options);
  const apiVersion = resolveApiVersion(options.apiVersion);
  const maxResponseBytes = positiveInt(
    options.maxResponseBytes ?? DEFAULT_IBM_MAX_RESPONSE_BYTES,
    'maxResponseBytes',
  );
  const timeoutMs = positiveInt(options.requestTimeoutMs ?? 60_000, 'requestTimeoutMs');
  const policy = resolveRetry(options.retry);
  const doFetch = optionalFunction(options.fetch, 'fetch') ?? globalThis.fetch;
  const debug = optionalFunction(options.debug, 'debug');
  const tokens =
    apiKey === undefined
      ? undefined
      : createIamTokenSource({
          apiKey,
          iamEndpoint,
          fetch: doFetch,
          timeoutMs,
          maxResponseBytes,
          debug: (line) => debug?.(line),
        });
  return {
    endpoint,
    serviceCrn,
    apiVersion,
    tokens,
    maxResponseBytes,
    doFetch,
    timeoutMs,
    policy,
    rng: createRng(options.seed ?? Date.now()),
    debug: (line) => debug?.(tokens?.redact(line) ?? line),
    neverSent: new WeakSet<AdapterError>(),
  };
}

/** Runs `call`, ignoring the refusal whose HTTP status is `status` (nothing left to do). */
async function ignoring(status: number, call: Promise<unknown>): Promise<void> {
  try {
    await call;
  } catch (error) {
    if (!(isAdapterError(error) && error.status === status)) throw error;
  }
}

/**
 * Creates an IBM Quantum Runtime client.
 *
 * The API key (`apiKey` or `IBM_CLOUD_API_KEY`) is sent only to the IAM token URL and exchanged
 * for a bearer token, cached until shortly before it expires and refreshed once when Runtime
 * answers 401. Runtime calls carry `Authorization: Bearer`, `Service-CRN`, `IBM-API-Version` and
 * JSON `Accept`/`Content-Type`; redirects to another origin are refused, so neither token nor key
 * ever follows one; answers are read with a byte limit.
 *
 * @throws {AdapterError} ADAPTER_AUTH (not retryable) when no key is available (and no `fetch`
 * override); ADAPTER_INVALID_ARGUMENT for a key that is not a string, a region other than
 * `us-east`/`eu-de`, an endpoint or iamEndpoint that is not an http(s) URL, a missing or malformed
 * serviceCrn, an apiVersion that is not a date, or bad limits.
 * @example
 * // not run: it calls IBM Quantum's Runtime API (IBM_CLOUD_API_KEY, IBM_QUANTUM_CRN)
 * import { createRuntimeClient } from '@boltzmann/quantum-adapters';
 *
 * const runtime = createRuntimeClient({ region: 'eu-de' });
 * const config = await runtime.backendConfiguration('ibm_fez');
 * console.log(config.n_qubits);
 * @category IBM Quantum
 */
export function createRuntimeClient(options: RuntimeClientOptions = {}): RuntimeClient {
  const t = transportOf(options);
  const backend = (name: string, what: string): string =>
    `backends/${pathSegment(name, 'backend name')}/${what}`;
  const job = (id: string, what = ''): string => `jobs/${pathSegment(id, 'job id')}${what}`;
  const get = (path: string, signal?: AbortSignal) => runtimeRequest(t, 'GET', path, { signal });
  return {
    endpoint: t.endpoint,
    apiVersion: t.apiVersion,
    async backendConfiguration(name, signal) {
      const path = backend(name, 'configuration');
      return parseConfiguration(await get(path, signal), `GET ${path}`);
    },
    async backendProperties(name, signal) {
      const path = backend(name, 'properties');
      try {
        return parseProperties(await get(path, signal), `GET ${path}`);
      } catch (error) {
        if (isAdapterError(error) && error.status === 404) return undefined;
        throw error;
      }
    },
    async backendStatus(name, signal) {
      const path = backend(name, 'status');
      return parseBackendStatus(await get(path, signal), `GET ${path}`);
    },
    async createSession(request, signal) {
      const body = sessionRequestBody(request);
      const answer = await runtimeRequest(t, 'POST', 'sessions', {
        body,
        signal,
        idempotent: false,
      });
      return parseSession(answer, 'POST sessions');
    },
    async closeSession(id, signal) {
      const path = `sessions/${pathSegment(id, 'session id')}`;
      const body = { accepting_jobs: false };
      await ignoring(404, runtimeRequest(t, 'PATCH', path, { body, signal }));
    },
    async submitSamplerJob(request, signal) {
      const body = samplerJobRequestBody(request);
      const answer = await runtimeRequest(t, 'POST', 'jobs', { body, signal, idempotent: false });
      const submitted = parseSubmitted(answer, 'POST jobs');
      for (const w of submitted.warnings) t.debug(`POST jobs → job ${submitted.id}: warning ${w}`);
      return submitted;
    },
    async jobStatus(id, signal) {
      const path = job(id);
      return parseJobStatus(await get(path, signal), `GET ${path}`);
    },
    async jobResults(id, signal, limit) {
      return runtimeRequest(t, 'GET', job(id, '/results'), { signal, limit });
    },
    async cancelJob(id, signal) {
      // [UNCERTAIN] the status Runtime gives a cancel of a job that already ended; 409 assumed.
      await ignoring(409, runtimeRequest(t, 'POST', job(id, '/cancel'), { signal }));
    },
    async jobMetrics(id, signal) {
      const path = job(id, '/metrics');
      return parseMetrics(await get(path, signal), `GET ${path}`);
    },
  };
}
