// Failed IBM Cloud IAM and Qiskit Runtime answers, and failed or cancelled Runtime jobs, as
// AdapterErrors.
import { echo } from '@boltzmann/ising-core/internal';
import { AdapterError } from '../shared/errors.js';
import type { AdapterErrorCode, AdapterErrorReason } from '../shared/errors.js';

interface Row {
  readonly code: AdapterErrorCode;
  readonly reason: AdapterErrorReason;
  readonly retryable: boolean;
}

const REJECTED: Row = { code: 'ADAPTER_REJECTED', reason: 'rejected', retryable: false };
const AUTH: Row = { code: 'ADAPTER_AUTH', reason: 'auth', retryable: false };
const QUOTA: Row = { code: 'ADAPTER_QUOTA', reason: 'quota', retryable: false };
const NOT_FOUND: Row = { code: 'ADAPTER_NOT_FOUND', reason: 'rejected', retryable: false };

/** Status → classification. Runtime's OpenAPI lists 400, 401, 403, 404, 409, 422, 429 and 5xx. */
const TABLE: Readonly<Record<number, Row>> = {
  400: REJECTED,
  401: AUTH,
  402: QUOTA,
  403: AUTH,
  404: NOT_FOUND,
  408: { code: 'ADAPTER_TIMEOUT', reason: 'timeout', retryable: true },
  409: REJECTED,
  410: NOT_FOUND,
  413: REJECTED,
  415: REJECTED,
  422: REJECTED,
  429: { code: 'ADAPTER_RATE_LIMITED', reason: 'quota', retryable: true },
};

/**
 * Words of a 403 that means the instance is out of time rather than not allowed. [UNCERTAIN] IBM
 * documents no dedicated status for this: an instance past its usage limit is known to *accept*
 * jobs and hold them (qiskit-ibm-runtime issue #2453) or to warn in the `messages` of `POST /jobs`
 * (PR #1100); a 403 with such words is classified as quota in case the service ever refuses instead.
 */
const QUOTA_WORDS =
  /quota|usage limit|allowance|no (more |remaining )?time|insufficient (time|funds)|out of (time|minutes)/i;

function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value !== null && typeof value === 'object') {
    const v = value as Record<string, unknown>;
    for (const key of ['message', 'errorMessage', 'detail', 'title', 'error_msg']) {
      if (typeof v[key] === 'string') return v[key] as string;
    }
  }
  return undefined;
}

/**
 * The message of an IBM error body, bounded (ising-core's `echo`): IBM Cloud's `{"errors":[{"code",
 * "message","more_info"}],"trace"}` (up to three messages), the older `{"error":{"message","code"}}`,
 * IAM's `{"errorCode","errorMessage"}`, a plain `message`, or else the body itself.
 */
export function ibmErrorMessage(body: unknown): string {
  if (body !== null && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    if (Array.isArray(b.errors)) {
      const texts = b.errors
        .slice(0, 3)
        .map(textOf)
        .filter((t): t is string => t !== undefined);
      if (texts.length > 0) return echo(texts.join('; '), 300);
    }
    const nested = textOf(b.error) ?? textOf(b);
    if (nested !== undefined) {
      const code = typeof b.errorCode === 'string' ? ` (${b.errorCode})` : '';
      return `${echo(nested, 300)}${code}`;
    }
  }
  return echo(body ?? '', 300);
}

/**
 * Classifies a failed IBM Cloud response into an {@link AdapterError}: 400, 409, 413, 415 and 422
 * → rejected with the server's message; 401 and 403 → auth (a 403 whose message speaks of quota or
 * usage limits → quota); 402 → quota; 404/410 → not found; 408 → retryable timeout; 429 →
 * retryable rate limit (with `Retry-After`); 5xx and status 0 (no response) → retryable
 * unavailable; every other 4xx → rejected. Callers redact the key and token from the message.
 *
 * @summary Classifies a failed IBM Cloud response into an {@link AdapterError}.
 * @param status HTTP status, or 0 when no response arrived.
 * @param body parsed JSON body or raw text.
 * @param extra `retryAfterMs` from a `Retry-After` header, and what was being done.
 * @returns the error to throw.
 * @example
 * import { classifyIbmError } from '@boltzmann/quantum-adapters';
 *
 * const error = classifyIbmError(429, { errors: [{ message: 'Too many requests' }] }, { retryAfterMs: 1000 });
 * console.log(error.code, error.retryable);
 * @category IBM Quantum
 */
export function classifyIbmError(
  status: number,
  body: unknown,
  extra: { retryAfterMs?: number; what?: string } = {},
): AdapterError {
  let row = TABLE[status];
  if (row === undefined) {
    row =
      status === 0 || status >= 500
        ? { code: 'ADAPTER_UNAVAILABLE', reason: 'unavailable', retryable: true }
        : REJECTED;
  }
  const text = ibmErrorMessage(body);
  if (status === 403 && QUOTA_WORDS.test(text)) row = QUOTA;
  const what = extra.what ?? 'IBM Quantum request';
  const label = status === 0 ? 'no response' : `HTTP ${status}`;
  return new AdapterError(row.code, `${what} failed (${label}): ${text}`, {
    reason: row.reason,
    retryable: row.retryable,
    status: status === 0 ? undefined : status,
    retryAfterMs: extra.retryAfterMs,
  });
}

/**
 * The error of a Runtime job that ended without results: `ERROR` → ADAPTER_PROBLEM_FAILED with
 * the job's `reason`, `CANCELLED` → ADAPTER_PROBLEM_CANCELLED (neither retryable: the same circuits
 * would fail the same way, and a cancel came from someone with access to the job).
 */
export function classifyIbmJobFailure(
  id: string,
  status: 'ERROR' | 'CANCELLED',
  reason: string | undefined,
): AdapterError {
  const why = reason === undefined ? 'no reason given' : echo(reason, 300);
  if (status === 'CANCELLED') {
    return new AdapterError(
      'ADAPTER_PROBLEM_CANCELLED',
      `Runtime job ${id} was cancelled on the server before it finished (${why})`,
      { reason: 'rejected', retryable: false },
    );
  }
  return new AdapterError('ADAPTER_PROBLEM_FAILED', `Runtime job ${id} failed: ${why}`, {
    reason: 'rejected',
    retryable: false,
  });
}
