// One SAPI request of the client (sapiClient.ts): the exchange, its failures coded, its JSON read,
// and the retries around it. The token goes in `X-Auth-Token` only and out of every text.
import { echo } from '@boltzmann/ising-core/internal';
import type { Rng } from '@boltzmann/ising-core';
import { classifyDwaveError } from '../classifyDwaveError.js';
import { AdapterError, isAdapterError, malformed } from '../errors.js';
import { parseRetryAfter, withRetry } from './retry.js';
import type { RetryPolicy } from './retry.js';
import { sapiExchange } from './sapiHttp.js';

/** Replaces every occurrence of `secret` in `text` with `***`. */
export function redactSecret(text: string, secret: string | undefined): string {
  return secret === undefined || secret.length === 0 ? text : text.split(secret).join('***');
}

/** What every request of one client shares (resolved from its options). */
export interface SapiTransport {
  readonly token: string;
  readonly endpoint: string;
  readonly maxResponseBytes: number;
  readonly doFetch: typeof globalThis.fetch;
  readonly timeoutMs: number;
  readonly policy: RetryPolicy;
  readonly rng: Rng;
  /** The debug sink, the token already redacted. */
  readonly debug: (line: string) => void;
  /** Failures known not to have reached the server (refused connections): safe to retry a submit. */
  readonly neverSent: WeakSet<AdapterError>;
}

/** One request: `extraWaitMs` on top of the timeout (a long poll); `idempotent: false` for a submit. */
export interface SapiRequestOptions {
  readonly body?: unknown;
  readonly extraWaitMs?: number;
  readonly signal?: AbortSignal;
  readonly idempotent?: boolean;
}

/** The coded error of an exchange that got no answer (aborted, timed out, or a network failure). */
function noAnswer(
  t: SapiTransport,
  error: unknown,
  what: string,
  timeout: AbortSignal,
  waitMs: number,
  signal: AbortSignal | undefined,
): unknown {
  // A refused redirect or an oversized answer: already coded, and not a network failure.
  if (isAdapterError(error) && !timeout.aborted && !signal?.aborted) return error;
  if (signal?.aborted) return isAdapterError(signal.reason) ? signal.reason : error;
  if (timeout.aborted) {
    return new AdapterError('ADAPTER_TIMEOUT', `${what} got no answer within ${waitMs} ms`, {
      reason: 'timeout',
      retryable: true,
      cause: error,
    });
  }
  const detail =
    error instanceof Error
      ? `${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ''}`
      : String(error);
  const classified = classifyDwaveError(0, detail, { what });
  if ((error as { cause?: { code?: unknown } } | null)?.cause?.code === 'ECONNREFUSED')
    t.neverSent.add(classified);
  return classified;
}

/** The JSON of an answer (`null` when empty); a failed status as its coded error. */
function readAnswer(response: Response, text: string, what: string): unknown {
  let parsed: unknown = text;
  try {
    parsed = text === '' ? null : JSON.parse(text);
  } catch {
    if (response.ok)
      throw malformed(
        `${what} answered ${response.status} with a body that is not JSON: ${echo(text)}`,
      );
  }
  if (!response.ok) {
    throw classifyDwaveError(response.status, parsed, {
      retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
      what,
    });
  }
  return parsed;
}

/** One exchange, no retry: the answer's JSON, or a coded error with the token redacted from it. */
async function once(
  t: SapiTransport,
  method: string,
  path: string,
  media: string,
  body: unknown,
  extraWaitMs: number,
  signal?: AbortSignal,
): Promise<unknown> {
  const url = new URL(path, t.endpoint).toString();
  const headers: Record<string, string> = {
    'X-Auth-Token': t.token,
    Accept: `${media}; version=3.0.0`,
  };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const timeout = AbortSignal.timeout(t.timeoutMs + extraWaitMs);
  const combined = signal === undefined ? timeout : AbortSignal.any([timeout, signal]);
  const started = Date.now();
  t.debug(`${method} ${url} (X-Auth-Token: ${redactSecret(t.token, t.token)})`);
  let response: Response;
  let text: string;
  try {
    ({ response, text } = await sapiExchange(
      t.doFetch,
      url,
      {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: combined,
      },
      t.maxResponseBytes,
    ));
  } catch (error) {
    throw noAnswer(t, error, `${method} ${url}`, timeout, t.timeoutMs + extraWaitMs, signal);
  }
  text = redactSecret(text, t.token);
  t.debug(`${method} ${url} → ${response.status} in ${Date.now() - started} ms`);
  return readAnswer(response, text, `${method} ${url}`);
}

/**
 * A SAPI request with the client's retries: a submit that may have reached the server is not
 * repeated. Every error that leaves it has the token redacted from its message.
 */
export function sapiRequest(
  t: SapiTransport,
  method: string,
  path: string,
  media: string,
  opts: SapiRequestOptions = {},
): Promise<unknown> {
  return withRetry(
    () => once(t, method, path, media, opts.body, opts.extraWaitMs ?? 0, opts.signal),
    t.policy,
    {
      signal: opts.signal,
      rng: t.rng,
      // A submit that may have reached the server is not repeated (it would run, and bill, twice):
      // only 429, 503 and refused connections guarantee that nothing was accepted.
      shouldRetry: (e) =>
        opts.idempotent !== false ||
        e.code === 'ADAPTER_RATE_LIMITED' ||
        e.status === 503 ||
        t.neverSent.has(e),
      onRetry: (e, delay) =>
        t.debug(`retrying ${method} ${path} in ${Math.round(delay)} ms after ${e.code}`),
    },
  ).catch((e: unknown) => {
    if (e instanceof Error) e.message = redactSecret(e.message, t.token);
    throw e;
  });
}
