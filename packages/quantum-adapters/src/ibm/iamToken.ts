// IBM Cloud IAM: an API key exchanged for a bearer token, cached until shortly before it expires,
// one exchange shared by concurrent callers. The key goes to the IAM URL only, in the form body.
import { AdapterError, malformed } from '../shared/errors.js';
import {
  guardedExchange,
  noAnswerError,
  readJsonAnswer,
  redactSecret,
} from '../shared/guardedFetch.js';
import { deadlineError } from '../shared/retry.js';
import { classifyIbmError, ibmErrorMessage } from './classifyIbmError.js';

/** The grant type of an API-key exchange (IBM Cloud IAM). */
export const IAM_APIKEY_GRANT = 'urn:ibm:params:oauth:grant-type:apikey';

/** Options of {@link createIamTokenSource} (already checked: the runtime client resolves them). */
export interface IamTokenSourceOptions {
  readonly apiKey: string;
  /** The token URL, e.g. `https://iam.cloud.ibm.com/identity/token`. */
  readonly iamEndpoint: string;
  readonly fetch: typeof fetch;
  /** Deadline of one exchange, in ms. */
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  /** Receives one line per exchange (nothing secret in it). */
  readonly debug?: (line: string) => void;
  /** The clock (epoch ms; default `Date.now`), for tests. */
  readonly now?: () => number;
}

/** Bearer tokens for Runtime, from one API key. */
export interface IamTokenSource {
  /**
   * A token with a comfortable part of its life left: the cached one, or a new exchange. Concurrent
   * callers share one exchange; `signal` stops this caller's wait, not the exchange. No retries here:
   * the caller's request retries (the failure is coded like any other: 5xx retryable, 400/401 auth).
   */
  token(signal?: AbortSignal): Promise<string>;
  /** Forgets `token` if it is the cached one (Runtime refused it with 401), so the next call exchanges again. */
  invalidate(token: string): void;
  /** `text` without the API key or any token this source handed out. */
  redact(text: string): string;
}

interface Cached {
  readonly token: string;
  /** Epoch ms after which the token is exchanged again. */
  readonly refreshAt: number;
}

/**
 * The range an IAM `expires_in` is clamped to, in seconds: 60 s to 24 h (IAM issues 3600). Beyond
 * it the answer is implausible and would do harm as given: `1e308` s is Infinity ms and `0.001` s
 * is spent at once, and either made the key be exchanged again before every request.
 */
export const IAM_TOKEN_LIFETIME_SECONDS = { min: 60, max: 86_400 } as const;

/** Tokens remembered for redaction: a refresh per hour makes this days of them. */
const REMEMBERED_TOKENS = 64;

/**
 * How long before its expiry a token of `lifetimeMs` is replaced: 10 % of its life or 5 minutes,
 * whichever is longer, but never more than half of its life (a short-lived token is still reused).
 */
export function refreshMarginMs(lifetimeMs: number): number {
  return Math.min(lifetimeMs / 2, Math.max(lifetimeMs / 10, 5 * 60_000));
}

/** The refusal of the key itself: not retryable, and without the key. */
function keyRefused(status: number, body: unknown, what: string): AdapterError {
  return new AdapterError(
    'ADAPTER_AUTH',
    `${what} refused the API key (HTTP ${status}): ${ibmErrorMessage(body)}; check apiKey / IBM_CLOUD_API_KEY`,
    { reason: 'auth', retryable: false, status },
  );
}

/**
 * The token of an IAM answer, checked, its life clamped to {@link IAM_TOKEN_LIFETIME_SECONDS}; the
 * body is never echoed (it holds the token). A non-finite, zero or negative `expires_in` is malformed.
 */
function parseToken(body: unknown, what: string, sentAt: number): Cached {
  const b = body as Record<string, unknown> | null;
  const token = b?.access_token;
  const expiresIn = b?.expires_in;
  const type = b?.token_type;
  if (
    b === null ||
    typeof b !== 'object' ||
    typeof token !== 'string' ||
    !/^[\x21-\x7e]+$/.test(token) ||
    typeof expiresIn !== 'number' ||
    !Number.isFinite(expiresIn) ||
    expiresIn <= 0 ||
    (type !== undefined && (typeof type !== 'string' || type.toLowerCase() !== 'bearer'))
  ) {
    throw malformed(
      `${what} answered without a usable token: it needs a printable access_token, expires_in > 0 (seconds) and token_type "Bearer" (body not shown: it may hold a token)`,
    );
  }
  const { min, max } = IAM_TOKEN_LIFETIME_SECONDS;
  const lifetimeMs = Math.min(max, Math.max(min, expiresIn)) * 1000;
  return { token, refreshAt: sentAt + lifetimeMs - refreshMarginMs(lifetimeMs) };
}

/** Waits for `promise`, or rejects with the run's deadline error when `signal` aborts first. */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(deadlineError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(deadlineError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * Creates the token source of one API key: `POST <iamEndpoint>` with the form body
 * `grant_type=urn:ibm:params:oauth:grant-type:apikey&apikey=<key>`, answered by
 * `{access_token, token_type, expires_in, expiration}`. Redirects are followed only within the
 * IAM origin (a 307 elsewhere would re-send the key), the answer is read with a byte limit.
 *
 * @throws {AdapterError} (from `token`) ADAPTER_AUTH (not retryable) when IAM refuses the key (400,
 * 401, 403); ADAPTER_MALFORMED for an answer without a usable token; ADAPTER_RATE_LIMITED,
 * ADAPTER_UNAVAILABLE, ADAPTER_TIMEOUT (retryable) for 429, 5xx and no answer; ADAPTER_REDIRECT_REFUSED.
 * No message contains the key or a token.
 */
export function createIamTokenSource(options: IamTokenSourceOptions): IamTokenSource {
  const now = options.now ?? Date.now;
  const issued: string[] = [];
  let cached: Cached | undefined;
  let inflight: Promise<Cached> | undefined;
  const redact = (text: string): string =>
    issued.reduce((t, s) => redactSecret(t, s), redactSecret(text, options.apiKey));

  async function exchange(): Promise<Cached> {
    const what = `IBM Cloud IAM (POST ${options.iamEndpoint})`;
    const body = new URLSearchParams({ grant_type: IAM_APIKEY_GRANT, apikey: options.apiKey });
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const sentAt = now();
    options.debug?.(`POST ${options.iamEndpoint} (apikey: ***)`);
    let exchanged: { response: Response; text: string };
    try {
      exchanged = await guardedExchange(
        options.fetch,
        options.iamEndpoint,
        {
          method: 'POST',
          headers: {
            'Content-Type': 'application/x-www-form-urlencoded',
            Accept: 'application/json',
          },
          body: body.toString(),
          signal: timeout,
        },
        options.maxResponseBytes,
      );
    } catch (error) {
      throw noAnswerError(error, {
        what,
        timeout,
        waitMs: options.timeoutMs,
        signal: undefined,
        classify: (detail) => classifyIbmError(0, detail, { what }),
        neverSent: new WeakSet(),
      });
    }
    const { response } = exchanged;
    const text = redact(exchanged.text);
    options.debug?.(`POST ${options.iamEndpoint} → ${response.status} in ${now() - sentAt} ms`);
    const json = readJsonAnswer(response, text, what, (status, parsed, extra) =>
      status === 400 || status === 401 || status === 403
        ? keyRefused(status, parsed, what)
        : classifyIbmError(status, parsed, extra),
    );
    const fresh = parseToken(json, what, sentAt);
    issued.push(fresh.token);
    if (issued.length > REMEMBERED_TOKENS) issued.shift();
    return fresh;
  }

  return {
    async token(signal) {
      if (cached !== undefined && now() < cached.refreshAt) return cached.token;
      if (inflight === undefined) {
        const started = exchange().then((fresh) => {
          cached = fresh;
          return fresh;
        });
        inflight = started;
        // Cleared once settled; a failure nobody waits for any more (every caller aborted) is
        // still handled here, so it never becomes an unhandled rejection.
        started.then(
          () => (inflight = inflight === started ? undefined : inflight),
          () => (inflight = inflight === started ? undefined : inflight),
        );
      }
      try {
        return (await unlessAborted(inflight, signal)).token;
      } catch (error) {
        if (error instanceof Error) error.message = redact(error.message);
        throw error;
      }
    },
    invalidate(token) {
      if (cached?.token === token) cached = undefined;
    },
    redact,
  };
}
