// One Runtime request of the client (runtimeClient.ts): the bearer token (refreshed once on a
// 401), the guarded exchange, its failures coded, its JSON read, and the retries around it. The
// API key never appears here (it goes to IAM only); key and tokens leave no text unredacted.
import type { Rng } from '@boltzmann/ising-core';
import { AdapterError, isAdapterError } from '../shared/errors.js';
import {
  guardedExchange,
  mayResend,
  noAnswerError,
  readJsonAnswer,
} from '../shared/guardedFetch.js';
import type { LimitOption } from '../shared/limitedBody.js';
import { withRetry } from '../shared/retry.js';
import type { RetryPolicy } from '../shared/retry.js';
import { classifyIbmError } from './classifyIbmError.js';
import type { IamTokenSource } from './iamToken.js';
import type { ResponseLimit } from './runtimeTypes.js';

/** What every request of one client shares (resolved from its options). */
export interface RuntimeTransport {
  /** Runtime base URL, ending in `/`. */
  readonly endpoint: string;
  readonly serviceCrn: string | undefined;
  readonly apiVersion: string;
  /** The bearer tokens; `undefined` for a keyless client on a `fetch` test double. */
  readonly tokens: IamTokenSource | undefined;
  readonly maxResponseBytes: number;
  readonly doFetch: typeof globalThis.fetch;
  readonly timeoutMs: number;
  readonly policy: RetryPolicy;
  readonly rng: Rng;
  /** The debug sink; lines are redacted before they reach it. */
  readonly debug: (line: string) => void;
  /** Failures known not to have reached Runtime (refused connections, a failed IAM exchange). */
  readonly neverSent: WeakSet<AdapterError>;
}

/**
 * One request: a JSON `body`, the caller's `signal`, `idempotent: false` for a submit, and a
 * tighter byte `limit` than the client's `maxResponseBytes` for an answer whose size is known.
 */
export interface RuntimeRequestOptions {
  readonly body?: unknown;
  readonly signal?: AbortSignal;
  readonly idempotent?: boolean;
  readonly limit?: ResponseLimit;
}

const redact = (t: RuntimeTransport, text: string): string => t.tokens?.redact(text) ?? text;

/** The byte limit of one answer and the option its refusal names: the tighter of the two. */
function byteLimit(t: RuntimeTransport, limit: ResponseLimit | undefined): [number, LimitOption] {
  return limit !== undefined && limit.maxBytes < t.maxResponseBytes
    ? [limit.maxBytes, { advice: limit.advice }]
    : [t.maxResponseBytes, 'maxResponseBytes'];
}

/** One exchange with `token`, no retry: the answer's JSON, or a coded error. */
async function once(
  t: RuntimeTransport,
  token: string | undefined,
  method: string,
  path: string,
  opts: RuntimeRequestOptions,
): Promise<unknown> {
  const url = new URL(path, t.endpoint).toString();
  const what = `${method} ${url}`;
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Content-Type': 'application/json',
    'IBM-API-Version': t.apiVersion,
  };
  if (token !== undefined) headers.Authorization = `Bearer ${token}`;
  if (t.serviceCrn !== undefined) headers['Service-CRN'] = t.serviceCrn;
  const timeout = AbortSignal.timeout(t.timeoutMs);
  const signal = opts.signal;
  const combined = signal === undefined ? timeout : AbortSignal.any([timeout, signal]);
  const started = Date.now();
  t.debug(`${what} (Authorization: ${token === undefined ? 'none' : 'Bearer ***'})`);
  let exchanged: { response: Response; text: string };
  try {
    exchanged = await guardedExchange(
      t.doFetch,
      url,
      {
        method,
        headers,
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
        signal: combined,
      },
      ...byteLimit(t, opts.limit),
    );
  } catch (error) {
    throw noAnswerError(error, {
      what,
      timeout,
      waitMs: t.timeoutMs,
      signal,
      classify: (detail) => classifyIbmError(0, detail, { what }),
      neverSent: t.neverSent,
    });
  }
  const { response } = exchanged;
  t.debug(`${what} → ${response.status} in ${Date.now() - started} ms`);
  return readJsonAnswer(response, redact(t, exchanged.text), what, classifyIbmError);
}

/** The bearer token for one attempt; an IAM failure is marked as never sent to Runtime. */
async function tokenFor(t: RuntimeTransport, signal?: AbortSignal): Promise<string | undefined> {
  try {
    return await t.tokens?.token(signal);
  } catch (error) {
    if (isAdapterError(error)) t.neverSent.add(error);
    throw error;
  }
}

/**
 * One attempt with a bearer token: on a 401 the token is dropped and the request sent once more
 * with a fresh one (a 401 means nothing was accepted, so even a submit may be re-sent); a second
 * 401 is ADAPTER_AUTH.
 */
async function authorized(
  t: RuntimeTransport,
  method: string,
  path: string,
  opts: RuntimeRequestOptions,
): Promise<unknown> {
  const first = await tokenFor(t, opts.signal);
  try {
    return await once(t, first, method, path, opts);
  } catch (error) {
    if (!isAdapterError(error) || error.status !== 401) throw error;
    if (t.tokens === undefined || first === undefined) {
      throw new AdapterError(
        'ADAPTER_AUTH',
        `${error.message}; no IBM Cloud API key was given: pass { apiKey } or set IBM_CLOUD_API_KEY`,
        { reason: 'auth', retryable: false, status: 401 },
      );
    }
    t.tokens.invalidate(first);
    t.debug(`${method} ${path} → 401: refreshing the IAM token once`);
  }
  const second = await tokenFor(t, opts.signal);
  try {
    return await once(t, second, method, path, opts);
  } catch (error) {
    if (!isAdapterError(error) || error.status !== 401) throw error;
    throw new AdapterError(
      'ADAPTER_AUTH',
      `${error.message} (a freshly exchanged IAM token was refused too: check the API key's access to serviceCrn)`,
      { reason: 'auth', retryable: false, status: 401 },
    );
  }
}

/**
 * A Runtime request with the client's retries (429, 5xx and failures without an answer, with
 * `Retry-After` honoured up to `retry.maxDelayMs`). A submit (`idempotent: false`) that may have
 * reached Runtime is not repeated: only 429, 503 and failures known not to have left (a refused
 * connection, a failed IAM exchange) are retried, as the D-Wave client does. (qiskit-ibm-runtime
 * retries `POST` on 500/502/503/504/520-524, saying the service makes that safe; this client keeps
 * to what cannot run a job twice.) Every error that leaves it has the key and tokens redacted.
 */
export function runtimeRequest(
  t: RuntimeTransport,
  method: string,
  path: string,
  opts: RuntimeRequestOptions = {},
): Promise<unknown> {
  return withRetry(() => authorized(t, method, path, opts), t.policy, {
    signal: opts.signal,
    rng: t.rng,
    shouldRetry: (e) => mayResend(e, opts.idempotent !== false, t.neverSent),
    onRetry: (e, delay) =>
      t.debug(`retrying ${method} ${path} in ${Math.round(delay)} ms after ${e.code}`),
  }).catch((e: unknown) => {
    if (e instanceof Error) e.message = redact(t, e.message);
    throw e;
  });
}
