// One credential-bearing HTTP exchange, shared by the SAPI client (sapiRequest.ts) and the IBM
// Runtime and IAM clients (ibm/runtimeRequest.ts, ibm/iamToken.ts): redirects followed by hand
// (same origin only), the answer read with a byte limit, failures without an answer coded, and the
// JSON of an answer read with a service's own classifier.
import { echo } from '@boltzmann/ising-core/internal';
import { AdapterError, isAdapterError, malformed } from './errors.js';
import { discardBody, readResponseText } from './limitedBody.js';
import type { LimitOption } from './limitedBody.js';
import { parseRetryAfter } from './retry.js';

/** Most same-origin redirects followed for one request (fetch itself allows 20). */
export const MAX_REDIRECTS = 5;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Replaces every occurrence of `secret` in `text` with `***`.
 *
 * @category HTTP
 */
export function redactSecret(text: string, secret: string | undefined): string {
  return secret === undefined || secret.length === 0 || !text.includes(secret)
    ? text
    : text.split(secret).join('***');
}

function refused(what: string, why: string): AdapterError {
  return new AdapterError(
    'ADAPTER_REDIRECT_REFUSED',
    `${what} was redirected ${why}; the redirect was not followed, so no token or key was sent there (set the endpoint to the final URL if you trust it)`,
    {
      reason: 'rejected',
      retryable: false,
    },
  );
}

/** One request and its answer text. */
export interface GuardedExchange {
  readonly response: Response;
  readonly text: string;
}

/**
 * Sends one request with `redirect: 'manual'`: same-origin redirects are followed (at most
 * {@link MAX_REDIRECTS}; 307/308 keep method and body, 303 and a 301/302 after POST become a
 * GET without body, as fetch does), and any redirect to another origin, without a `Location`, or
 * hidden (an opaque redirect) is refused, because fetch would re-send credentials there: it strips
 * only `Authorization` across origins, not `X-Auth-Token` or `Service-CRN`, and a 307/308 re-sends
 * the body (an IAM form body carries the API key). The answer body is read with the byte limit,
 * whose refusal names `limitOption` as what raises it.
 *
 * @throws {AdapterError} ADAPTER_REDIRECT_REFUSED, ADAPTER_RESPONSE_TOO_LARGE (neither retryable); fetch's own errors pass through.
 */
export async function guardedExchange(
  doFetch: typeof fetch,
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; signal: AbortSignal },
  maxResponseBytes: number,
  limitOption: LimitOption = 'maxResponseBytes',
): Promise<GuardedExchange> {
  const origin = new URL(url).origin;
  const what = `${init.method} ${url}`;
  let current = new URL(url);
  let { method, body } = init;
  for (let hops = 0; ; hops++) {
    const headers = { ...init.headers };
    if (body === undefined) delete headers['Content-Type'];
    const response = await doFetch(current.toString(), {
      method,
      headers,
      body,
      signal: init.signal,
      redirect: 'manual',
    });
    if (response.type === 'opaqueredirect') {
      discardBody(response.body);
      throw refused(what, 'to a location this fetch hides (an opaque redirect)');
    }
    if (!REDIRECTS.has(response.status)) {
      return {
        response,
        text: await readResponseText(response, maxResponseBytes, what, limitOption),
      };
    }
    discardBody(response.body);
    const location = response.headers.get('location');
    if (location === null || location.trim() === '')
      throw refused(what, `(HTTP ${response.status}) without a Location`);
    let target: URL;
    try {
      target = new URL(location, current);
    } catch {
      throw refused(what, `(HTTP ${response.status}) to an unparsable Location`);
    }
    if (target.origin !== origin)
      throw refused(
        what,
        `(HTTP ${response.status}) to another origin, ${echo(target.origin, 300)}; credentials are only sent to ${origin}`,
      );
    if (hops >= MAX_REDIRECTS) throw refused(what, `more than ${MAX_REDIRECTS} times`);
    if (
      (response.status === 303 && method !== 'HEAD') ||
      ((response.status === 301 || response.status === 302) && method === 'POST')
    ) {
      method = 'GET';
      body = undefined;
    }
    current = target;
  }
}

/** How {@link noAnswerError} codes a failure: what was sent, its deadline, and the service's classifier. */
export interface NoAnswerContext {
  /** `METHOD url`, for the message. */
  readonly what: string;
  /** The request's own deadline signal. */
  readonly timeout: AbortSignal;
  /** That deadline, in ms (for the message). */
  readonly waitMs: number;
  /** The caller's signal, if any. */
  readonly signal: AbortSignal | undefined;
  /** The service's classification of a failure without a response (status 0). */
  readonly classify: (detail: string) => AdapterError;
  /** Receives the coded error of a refused connection: nothing was sent, so a submit may be retried. */
  readonly neverSent: WeakSet<AdapterError>;
}

/**
 * The coded error of an exchange that got no answer: a refused redirect or an oversized answer as
 * it is, the caller's abort as its reason, the request deadline as a retryable ADAPTER_TIMEOUT, and
 * a network failure through the service's classifier (a refused connection also put in `neverSent`).
 */
export function noAnswerError(error: unknown, ctx: NoAnswerContext): unknown {
  const { signal, timeout } = ctx;
  // A refused redirect or an oversized answer: already coded, and not a network failure.
  if (isAdapterError(error) && !timeout.aborted && !signal?.aborted) return error;
  if (signal?.aborted) return isAdapterError(signal.reason) ? signal.reason : error;
  if (timeout.aborted) {
    return new AdapterError(
      'ADAPTER_TIMEOUT',
      `${ctx.what} got no answer within ${ctx.waitMs} ms`,
      {
        reason: 'timeout',
        retryable: true,
        cause: error,
      },
    );
  }
  const detail =
    error instanceof Error
      ? `${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ''}`
      : String(error);
  const classified = ctx.classify(detail);
  if ((error as { cause?: { code?: unknown } } | null)?.cause?.code === 'ECONNREFUSED')
    ctx.neverSent.add(classified);
  return classified;
}

/** A service's classification of a failed response: status, parsed body, `Retry-After` and what was sent. */
export type ClassifyResponse = (
  status: number,
  body: unknown,
  extra: { retryAfterMs?: number; what?: string },
) => AdapterError;

/**
 * The JSON of an answer (`null` when empty); a failed status as the error `classify` gives it.
 * @throws {AdapterError} ADAPTER_MALFORMED for a successful answer that is not JSON (echoed bounded).
 */
export function readJsonAnswer(
  response: Response,
  text: string,
  what: string,
  classify: ClassifyResponse,
): unknown {
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
    throw classify(response.status, parsed, {
      retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
      what,
    });
  }
  return parsed;
}

/**
 * Whether a failed request may be sent again: any idempotent one; a submit (which would run, and
 * bill, twice) only when nothing can have been accepted: 429, 503, or a failure known not to have
 * reached the server (a refused connection, a credential exchange that failed first).
 */
export function mayResend(
  e: AdapterError,
  idempotent: boolean,
  neverSent: WeakSet<AdapterError>,
): boolean {
  return idempotent || e.code === 'ADAPTER_RATE_LIMITED' || e.status === 503 || neverSent.has(e);
}
