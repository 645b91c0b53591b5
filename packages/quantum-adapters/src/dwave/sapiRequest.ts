// One SAPI request of the client (sapiClient.ts): the exchange, its failures coded, its JSON read,
// and the retries around it. The token goes in `X-Auth-Token` only and out of every text.
import type { Rng } from '@boltzmann/ising-core';
import { classifyDwaveError } from './classifyDwaveError.js';
import type { AdapterError } from '../shared/errors.js';
import {
  guardedExchange,
  mayResend,
  noAnswerError,
  readJsonAnswer,
  redactSecret,
} from '../shared/guardedFetch.js';
import { withRetry } from '../shared/retry.js';
import type { RetryPolicy } from '../shared/retry.js';

export { redactSecret } from '../shared/guardedFetch.js';

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
    ({ response, text } = await guardedExchange(
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
    throw noAnswerError(error, {
      what: `${method} ${url}`,
      timeout,
      waitMs: t.timeoutMs + extraWaitMs,
      signal,
      classify: (detail) => classifyDwaveError(0, detail, { what: `${method} ${url}` }),
      neverSent: t.neverSent,
    });
  }
  text = redactSecret(text, t.token);
  t.debug(`${method} ${url} → ${response.status} in ${Date.now() - started} ms`);
  return readJsonAnswer(response, text, `${method} ${url}`, classifyDwaveError);
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
      shouldRetry: (e) => mayResend(e, opts.idempotent !== false, t.neverSent),
      onRetry: (e, delay) =>
        t.debug(`retrying ${method} ${path} in ${Math.round(delay)} ms after ${e.code}`),
    },
  ).catch((e: unknown) => {
    if (e instanceof Error) e.message = redactSecret(e.message, t.token);
    throw e;
  });
}
