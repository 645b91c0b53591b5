import { createRng, echo } from '@boltzmann/ising-core';
import { classifyDwaveError } from './classifyDwaveError.js';
import { AdapterError, isAdapterError, malformed } from './errors.js';
import { positiveInt } from './internal/options.js';
import { parseRetryAfter, resolveRetry, withRetry } from './internal/retry.js';
import {
  assertTokenOption,
  DEFAULT_SAPI_MAX_RESPONSE_BYTES,
  resolveSapiEndpoint,
  sapiExchange,
} from './internal/sapiHttp.js';
import type { SapiClient, SapiClientOptions, SapiProblemStatus, SapiSolver } from './sapiTypes.js';

export { DEFAULT_DWAVE_REGION, DEFAULT_SAPI_MAX_RESPONSE_BYTES } from './internal/sapiHttp.js';

const MEDIA = {
  solvers: 'application/vnd.dwave.sapi.solver-definition-list+json',
  problems: 'application/vnd.dwave.sapi.problems+json',
  problem: 'application/vnd.dwave.sapi.problem+json',
} as const;

const STATES = new Set(['PENDING', 'IN_PROGRESS', 'COMPLETED', 'FAILED', 'CANCELLED']);

/** Replaces every occurrence of `secret` in `text` with `***`. */
export function redactSecret(text: string, secret: string | undefined): string {
  return secret === undefined || secret.length === 0 ? text : text.split(secret).join('***');
}

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

/**
 * Creates a SAPI v3 client. The token comes from `options.token` or `DWAVE_API_TOKEN`; it is sent as
 * `X-Auth-Token` only, never to another origin (such redirects are refused), and removed from every
 * debug line and error message.
 *
 * @throws {AdapterError} ADAPTER_AUTH (not retryable) when no token is available; ADAPTER_INVALID_ARGUMENT
 * for a token that is not a string, an endpoint that is not an http(s) URL, a bad region or `maxResponseBytes`.
 * @example
 * const sapi = createSapiClient({ region: 'eu-central-1' });
 * const solvers = await sapi.listSolvers();
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
  const endpoint = resolveSapiEndpoint(options);
  const maxResponseBytes = positiveInt(
    options.maxResponseBytes ?? DEFAULT_SAPI_MAX_RESPONSE_BYTES,
    'maxResponseBytes',
  );
  const doFetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.requestTimeoutMs ?? 60_000;
  const policy = resolveRetry(options.retry);
  const rng = createRng(options.seed ?? Date.now());
  const debug = (line: string): void => options.debug?.(redactSecret(line, token));
  const neverSent = new WeakSet<AdapterError>();
  const scrub = (e: unknown): unknown => {
    if (e instanceof Error) e.message = redactSecret(e.message, token);
    return e;
  };

  async function once(
    method: string,
    path: string,
    media: string,
    body: unknown,
    extraWaitMs: number,
    signal?: AbortSignal,
  ): Promise<unknown> {
    const url = new URL(path, endpoint).toString();
    const headers: Record<string, string> = {
      'X-Auth-Token': token!,
      Accept: `${media}; version=3.0.0`,
    };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const timeout = AbortSignal.timeout(timeoutMs + extraWaitMs);
    const combined = signal === undefined ? timeout : AbortSignal.any([timeout, signal]);
    const started = Date.now();
    debug(`${method} ${url} (X-Auth-Token: ${redactSecret(token!, token)})`);
    let response: Response;
    let text: string;
    try {
      ({ response, text } = await sapiExchange(
        doFetch,
        url,
        {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: combined,
        },
        maxResponseBytes,
      ));
    } catch (error) {
      // A refused redirect or an oversized answer: already coded, and not a network failure.
      if (isAdapterError(error) && !timeout.aborted && !signal?.aborted) throw error;
      if (signal?.aborted) throw isAdapterError(signal.reason) ? signal.reason : error;
      if (timeout.aborted) {
        throw new AdapterError(
          'ADAPTER_TIMEOUT',
          `${method} ${url} got no answer within ${timeoutMs + extraWaitMs} ms`,
          { reason: 'timeout', retryable: true, cause: error },
        );
      }
      const detail =
        error instanceof Error
          ? `${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ''}`
          : String(error);
      const classified = classifyDwaveError(0, detail, { what: `${method} ${url}` });
      if ((error as { cause?: { code?: unknown } } | null)?.cause?.code === 'ECONNREFUSED')
        neverSent.add(classified);
      throw classified;
    }
    text = redactSecret(text, token);
    debug(`${method} ${url} → ${response.status} in ${Date.now() - started} ms`);
    let parsed: unknown = text;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      if (response.ok)
        throw malformed(
          `${method} ${url} answered ${response.status} with a body that is not JSON: ${echo(text)}`,
        );
    }
    if (!response.ok) {
      throw classifyDwaveError(response.status, parsed, {
        retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
        what: `${method} ${url}`,
      });
    }
    return parsed;
  }

  function request(
    method: string,
    path: string,
    media: string,
    opts: { body?: unknown; extraWaitMs?: number; signal?: AbortSignal; idempotent?: boolean } = {},
  ): Promise<unknown> {
    return withRetry(
      () => once(method, path, media, opts.body, opts.extraWaitMs ?? 0, opts.signal),
      policy,
      {
        signal: opts.signal,
        rng,
        // A submit that may have reached the server is not repeated (it would run, and bill, twice):
        // only 429, 503 and refused connections guarantee that nothing was accepted.
        shouldRetry: (e) =>
          opts.idempotent !== false ||
          e.code === 'ADAPTER_RATE_LIMITED' ||
          e.status === 503 ||
          neverSent.has(e),
        onRetry: (e, delay) =>
          debug(`retrying ${method} ${path} in ${Math.round(delay)} ms after ${e.code}`),
      },
    ).catch((e: unknown) => {
      throw scrub(e);
    });
  }

  return {
    endpoint,
    async listSolvers(signal) {
      const body = await request('GET', 'solvers/remote/', MEDIA.solvers, { signal });
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
    },
    async submitProblems(jobs, signal) {
      const body = await request('POST', 'problems/', MEDIA.problems, {
        body: jobs,
        signal,
        idempotent: false,
      });
      if (!Array.isArray(body) || body.length !== jobs.length) {
        throw malformed(
          `POST problems/ returned ${Array.isArray(body) ? `${body.length} items` : 'no array'} for ${jobs.length} jobs`,
        );
      }
      return body.map((item: unknown, i) => {
        const it = item as { error_code?: unknown } | null;
        if (it !== null && typeof it === 'object' && typeof it.error_code === 'number') {
          return classifyDwaveError(it.error_code, item, { what: `job ${i} of POST problems/` });
        }
        return parseStatus(item, `item ${i} of POST problems/`);
      });
    },
    async pollProblems(ids, timeoutSeconds, signal) {
      const wait = Math.max(1, Math.min(30, Math.round(timeoutSeconds)));
      const body = await request(
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
        await request('GET', `problems/${encodeURIComponent(id)}/`, MEDIA.problem, { signal }),
        `GET problems/${id}/`,
      );
    },
    async cancelProblems(ids, signal) {
      try {
        await request('DELETE', 'problems/', MEDIA.problems, { body: ids, signal });
      } catch (error) {
        // 409 means the problems finished meanwhile: nothing left to cancel.
        if (!(isAdapterError(error) && error.status === 409)) throw error;
      }
    },
  };
}
