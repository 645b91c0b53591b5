import { echo } from '@boltzmann/ising-core/internal';
import { AdapterError } from '../shared/errors.js';
import type { AdapterErrorCode, AdapterErrorReason } from '../shared/errors.js';

interface Row {
  readonly code: AdapterErrorCode;
  readonly reason: AdapterErrorReason;
  readonly retryable: boolean;
}

/** Status → classification. SAPI documents 400, 401, 403, 404, 409, 410, 415, 429 and 5xx. */
const TABLE: Readonly<Record<number, Row>> = {
  400: { code: 'ADAPTER_REJECTED', reason: 'rejected', retryable: false },
  401: { code: 'ADAPTER_AUTH', reason: 'auth', retryable: false },
  402: { code: 'ADAPTER_QUOTA', reason: 'quota', retryable: false },
  403: { code: 'ADAPTER_AUTH', reason: 'auth', retryable: false },
  404: { code: 'ADAPTER_NOT_FOUND', reason: 'rejected', retryable: false },
  408: { code: 'ADAPTER_TIMEOUT', reason: 'timeout', retryable: true },
  409: { code: 'ADAPTER_REJECTED', reason: 'rejected', retryable: false },
  410: { code: 'ADAPTER_NOT_FOUND', reason: 'rejected', retryable: false },
  415: { code: 'ADAPTER_REJECTED', reason: 'rejected', retryable: false },
  429: { code: 'ADAPTER_RATE_LIMITED', reason: 'quota', retryable: true },
};

const QUOTA_WORDS = /quota|allowance|insufficient (time|funds)|no (remaining )?(time|access)/i;

/** The `error_msg` of a SAPI error body, or the body, in ising-core's bounded `echo` form. */
export function sapiErrorMessage(body: unknown): string {
  if (body !== null && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    if (typeof b.error_msg === 'string') return echo(b.error_msg, 300);
    if (typeof b.message === 'string') return echo(b.message, 300);
  }
  return echo(body ?? '', 300);
}

/**
 * Classifies a failed SAPI response (or a per-problem `{error_code, error_msg}` item) into an
 * {@link AdapterError}: 401/403 → auth (a 403 that mentions quota → quota), 402 → quota, 429 →
 * retryable rate limit, 408 → retryable timeout, 5xx and status 0 (no response) → retryable
 * unavailable, every other 4xx → rejected. The message never contains the token (callers redact).
 *
 * @summary Classifies a failed SAPI response (or a per-problem `{error_code, error_msg}` item) into an {@link AdapterError}.
 * @param status HTTP status, or 0 when no response arrived.
 * @param body parsed JSON body or raw text.
 * @param extra `retryAfterMs` from a `Retry-After` header, and what was being done.
 * @returns the error to throw.
 * @example
 * import { classifyDwaveError } from '@boltzmann/quantum-adapters';
 *
 * const error = classifyDwaveError(429, { error_code: 429, error_msg: 'Too many requests' }, { retryAfterMs: 1000 });
 * console.log(error.code, error.reason, error.retryable); // a rate limit: retryable
 * @category D-Wave
 */
export function classifyDwaveError(
  status: number,
  body: unknown,
  extra: { retryAfterMs?: number; what?: string } = {},
): AdapterError {
  let row = TABLE[status];
  if (row === undefined) {
    row =
      status === 0 || status >= 500
        ? { code: 'ADAPTER_UNAVAILABLE', reason: 'unavailable', retryable: true }
        : { code: 'ADAPTER_REJECTED', reason: 'rejected', retryable: false };
  }
  const text = sapiErrorMessage(body);
  if (status === 403 && QUOTA_WORDS.test(text))
    row = { code: 'ADAPTER_QUOTA', reason: 'quota', retryable: false };
  const what = extra.what ?? 'SAPI request';
  const label = status === 0 ? 'no response' : `HTTP ${status}`;
  return new AdapterError(row.code, `${what} failed (${label}): ${text}`, {
    reason: row.reason,
    retryable: row.retryable,
    status: status === 0 ? undefined : status,
    retryAfterMs: extra.retryAfterMs,
  });
}

/**
 * Classifies a problem that reached status FAILED: "solver is offline" (the official client's
 * SolverOfflineError) is retryable unavailability; anything else is a rejection of the problem.
 */
export function classifyDwaveProblemFailure(id: string, message: unknown): AdapterError {
  const text = typeof message === 'string' ? echo(message, 300) : 'no error_message';
  if (/solver is offline|offline/i.test(text)) {
    return new AdapterError('ADAPTER_UNAVAILABLE', `problem ${id} failed: ${text}`, {
      reason: 'unavailable',
      retryable: true,
    });
  }
  return new AdapterError('ADAPTER_PROBLEM_FAILED', `problem ${id} failed: ${text}`, {
    reason: 'rejected',
    retryable: false,
  });
}
