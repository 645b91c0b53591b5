// The SAPI v3 client: solvers, problem submission, status polls and cancellation, each answer
// checked (one request, its retries and the token's redaction are in internal/sapiRequest.ts).
import { createRng } from '@boltzmann/ising-core';
import { echo } from '@boltzmann/ising-core/internal';
import { classifyDwaveError } from './classifyDwaveError.js';
import { AdapterError, isAdapterError, malformed } from '../shared/errors.js';
import { assertTokenOption, optionalFunction, positiveInt } from '../shared/options.js';
import { resolveRetry } from '../shared/retry.js';
import { DEFAULT_SAPI_MAX_RESPONSE_BYTES, resolveSapiEndpoint } from './sapiHttp.js';
import { redactSecret, sapiRequest } from './sapiRequest.js';
import type { SapiTransport } from './sapiRequest.js';
import type { SapiClient, SapiClientOptions, SapiProblemStatus, SapiSolver } from './sapiTypes.js';

export { DEFAULT_DWAVE_REGION, DEFAULT_SAPI_MAX_RESPONSE_BYTES } from './sapiHttp.js';
export { redactSecret } from './sapiRequest.js';

const MEDIA = {
  solvers: 'application/vnd.dwave.sapi.solver-definition-list+json',
  problems: 'application/vnd.dwave.sapi.problems+json',
  problem: 'application/vnd.dwave.sapi.problem+json',
} as const;

const STATES = new Set(['PENDING', 'IN_PROGRESS', 'COMPLETED', 'FAILED', 'CANCELLED']);

function parseStatus(value: unknown, what: string): SapiProblemStatus {
  const s = value as Partial<SapiProblemStatus> | null;
  if (
    s === null ||
    typeof s !== 'object' ||
    typeof s.id !== 'string' ||
    !STATES.has(String(s.status))
  ) {
    throw malformed(
      `${what} is not a problem status (needs a string id and a known status): ${echo(value, 200)}`,
    );
  }
  return s as SapiProblemStatus;
}

/** The solvers of a `GET solvers/remote/` answer, each with a name and properties. */
function parseSolvers(body: unknown): SapiSolver[] {
  if (!Array.isArray(body)) throw malformed(`GET solvers/remote/ did not return an array`);
  return body.map((s: unknown, i) => {
    const solver = s as Partial<SapiSolver> | null;
    if (
      solver === null ||
      typeof solver !== 'object' ||
      typeof solver.identity?.name !== 'string' ||
      typeof solver.properties !== 'object' ||
      solver.properties === null
    ) {
      throw malformed(`solver ${i} of GET solvers/remote/ lacks identity.name or properties`);
    }
    return solver as SapiSolver;
  });
}

/** One item per job of a `POST problems/` answer: its status, or its coded error. */
function parseSubmitted(body: unknown, jobs: number): (SapiProblemStatus | AdapterError)[] {
  if (!Array.isArray(body) || body.length !== jobs) {
    throw malformed(
      `POST problems/ returned ${Array.isArray(body) ? `${body.length} items` : 'no array'} for ${jobs} jobs`,
    );
  }
  return body.map((item: unknown, i) => {
    const it = item as { error_code?: unknown } | null;
    if (it !== null && typeof it === 'object' && typeof it.error_code === 'number') {
      return classifyDwaveError(it.error_code, item, { what: `job ${i} of POST problems/` });
    }
    return parseStatus(item, `item ${i} of POST problems/`);
  });
}

/** What the client's requests share, from its options (the token already checked). */
function transportOf(options: SapiClientOptions, token: string): SapiTransport {
  const debug = optionalFunction(options.debug, 'debug');
  return {
    token,
    endpoint: resolveSapiEndpoint(options),
    maxResponseBytes: positiveInt(
      options.maxResponseBytes ?? DEFAULT_SAPI_MAX_RESPONSE_BYTES,
      'maxResponseBytes',
    ),
    doFetch: optionalFunction(options.fetch, 'fetch') ?? globalThis.fetch,
    timeoutMs: options.requestTimeoutMs ?? 60_000,
    policy: resolveRetry(options.retry),
    rng: createRng(options.seed ?? Date.now()),
    debug: (line) => debug?.(redactSecret(line, token)),
    neverSent: new WeakSet<AdapterError>(),
  };
}

/**
 * Creates a SAPI v3 client.
 *
 * The token comes from `options.token` or `DWAVE_API_TOKEN`; it is sent as `X-Auth-Token` only,
 * never to another origin (such redirects are refused), and removed from every debug line and
 * error message.
 *
 * @throws {AdapterError} ADAPTER_AUTH (not retryable) when no token is available; ADAPTER_INVALID_ARGUMENT
 * for a token that is not a string, an endpoint that is not an http(s) URL, a bad region or `maxResponseBytes`.
 * @example
 * // not run: it calls D-Wave Leap's SAPI (DWAVE_API_TOKEN)
 * import { createSapiClient } from '@boltzmann/quantum-adapters';
 *
 * const sapi = createSapiClient({ region: 'eu-central-1' });
 * const solvers = await sapi.listSolvers();
 * console.log(solvers.map((s) => s.identity.name));
 * @category D-Wave
 */
export function createSapiClient(options: SapiClientOptions = {}): SapiClient {
  assertTokenOption(options.token);
  const token = options.token ?? process.env.DWAVE_API_TOKEN;
  if (token === undefined || token.trim() === '') {
    throw new AdapterError(
      'ADAPTER_AUTH',
      'no D-Wave SAPI token: pass { token } or set DWAVE_API_TOKEN',
      { reason: 'auth', retryable: false },
    );
  }
  const t = transportOf(options, token);
  return {
    endpoint: t.endpoint,
    async listSolvers(signal) {
      return parseSolvers(
        await sapiRequest(t, 'GET', 'solvers/remote/', MEDIA.solvers, { signal }),
      );
    },
    async submitProblems(jobs, signal) {
      const body = await sapiRequest(t, 'POST', 'problems/', MEDIA.problems, {
        body: jobs,
        signal,
        idempotent: false,
      });
      return parseSubmitted(body, jobs.length);
    },
    async pollProblems(ids, timeoutSeconds, signal) {
      const wait = Math.max(1, Math.min(30, Math.round(timeoutSeconds)));
      const body = await sapiRequest(
        t,
        'GET',
        `problems/?id=${ids.map(encodeURIComponent).join(',')}&timeout=${wait}`,
        MEDIA.problems,
        { signal, extraWaitMs: wait * 1000 },
      );
      if (!Array.isArray(body)) throw malformed('GET problems/?id=… did not return an array');
      return body.map((s, i) => parseStatus(s, `item ${i} of the status poll`));
    },
    async getProblem(id, signal) {
      return parseStatus(
        await sapiRequest(t, 'GET', `problems/${encodeURIComponent(id)}/`, MEDIA.problem, {
          signal,
        }),
        `GET problems/${id}/`,
      );
    },
    async cancelProblems(ids, signal) {
      try {
        await sapiRequest(t, 'DELETE', 'problems/', MEDIA.problems, { body: ids, signal });
      } catch (error) {
        // 409 means the problems finished meanwhile: nothing left to cancel.
        if (!(isAdapterError(error) && error.status === 409)) throw error;
      }
    },
  };
}
