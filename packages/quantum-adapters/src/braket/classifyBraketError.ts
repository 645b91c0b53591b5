import { echo } from '@boltzmann/ising-core/internal';
import { AdapterError, isAdapterError } from '../shared/errors.js';
import type { AdapterErrorCode, AdapterErrorReason } from '../shared/errors.js';

type Row = readonly [AdapterErrorCode, AdapterErrorReason, boolean];

const AUTH: Row = ['ADAPTER_AUTH', 'auth', false];
const RATE: Row = ['ADAPTER_RATE_LIMITED', 'quota', true];
const NOT_FOUND: Row = ['ADAPTER_NOT_FOUND', 'rejected', false];
const DOWN: Row = ['ADAPTER_UNAVAILABLE', 'unavailable', true];
const TIMEOUT: Row = ['ADAPTER_TIMEOUT', 'timeout', true];

/** Error names of the Braket API model (service-2.json), S3, STS/SigV4 and the SDK's transport. */
const BY_NAME: Readonly<Record<string, Row>> = {
  ValidationException: ['ADAPTER_REJECTED', 'rejected', false],
  ConflictException: ['ADAPTER_REJECTED', 'rejected', false],
  DeviceRetiredException: ['ADAPTER_REJECTED', 'rejected', false],
  ServiceQuotaExceededException: ['ADAPTER_QUOTA', 'quota', false],
  AccessDeniedException: AUTH,
  AccessDenied: AUTH,
  UnrecognizedClientException: AUTH,
  InvalidSignatureException: AUTH,
  SignatureDoesNotMatch: AUTH,
  InvalidAccessKeyId: AUTH,
  InvalidClientTokenId: AUTH,
  ExpiredTokenException: AUTH,
  ExpiredToken: AUTH,
  CredentialsProviderError: AUTH,
  ThrottlingException: RATE,
  TooManyRequestsException: RATE,
  SlowDown: RATE,
  ResourceNotFoundException: NOT_FOUND,
  NoSuchKey: NOT_FOUND,
  NoSuchBucket: NOT_FOUND,
  NotFound: NOT_FOUND,
  DeviceOfflineException: DOWN,
  InternalServiceException: DOWN,
  InternalError: DOWN,
  ServiceUnavailable: DOWN,
  TimeoutError: TIMEOUT,
  RequestTimeout: TIMEOUT,
  RequestTimeoutException: TIMEOUT,
  AbortError: TIMEOUT,
};

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

// The SDK does not follow redirects (its Node handler is plain node:http), so a 3xx arrives as an error.
const REDIRECT: Row = ['ADAPTER_REDIRECT_REFUSED', 'rejected', false];
const MALFORMED: Row = ['ADAPTER_MALFORMED', 'malformed', false];

function byStatus(status: number): Row | undefined {
  if (status >= 300 && status < 400) return REDIRECT;
  if (status === 401 || status === 403) return AUTH;
  if (status === 402) return ['ADAPTER_QUOTA', 'quota', false];
  if (status === 404 || status === 410) return NOT_FOUND;
  if (status === 408) return TIMEOUT;
  if (status === 429) return RATE;
  if (status >= 500) return DOWN;
  if (status >= 400) return ['ADAPTER_REJECTED', 'rejected', false];
  return undefined;
}

/**
 * Classifies an error thrown by `@aws-sdk/client-braket` or `@aws-sdk/client-s3` (or by the
 * transport under them): first by the service error name (`ValidationException`, `ThrottlingException`,
 * `NoSuchKey`, …), then by a failed HTTP status (3xx: ADAPTER_REDIRECT_REFUSED, since redirects are
 * not followed), then an unparsable answer (ADAPTER_MALFORMED), then by socket error code. Unknown failures are
 * `unavailable` and not retryable, so a bug is not retried blindly.
 *
 * @summary Classifies an error thrown by `@aws-sdk/client-braket` or `@aws-sdk/client-s3` (or by the transport under them).
 * @param error whatever the SDK threw.
 * @param what the operation, for the message.
 * @returns the error to throw (an {@link AdapterError} passes through unchanged).
 * @example
 * import { classifyBraketError } from '@boltzmann/quantum-adapters';
 *
 * // What the AWS SDK throws, as an AdapterError with a reason and whether to retry.
 * const sdkError = Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException', $metadata: { httpStatusCode: 429 } });
 * const error = classifyBraketError(sdkError, 'CreateQuantumTask');
 * console.log(error.code, error.retryable);
 * @category Amazon Braket
 */
export function classifyBraketError(error: unknown, what = 'Braket request'): AdapterError {
  if (isAdapterError(error)) return error;
  const e = (error ?? {}) as {
    name?: unknown;
    message?: unknown;
    code?: unknown;
    cause?: { code?: unknown };
    $metadata?: { httpStatusCode?: unknown };
    $responseBodyText?: unknown;
  };
  const name = typeof e.name === 'string' ? e.name : '';
  const status =
    typeof e.$metadata?.httpStatusCode === 'number' ? e.$metadata.httpStatusCode : undefined;
  const code =
    typeof e.code === 'string' ? e.code : typeof e.cause?.code === 'string' ? e.cause.code : '';
  // A failed status says more than its unparsable body (a 307's "moved", a 502's HTML page); a body
  // the SDK could not parse on a 2xx answer (or a parser SyntaxError without a status) breaks the
  // protocol: malformed, as the SAPI client classifies a non-JSON 200.
  const failed =
    status !== undefined && (status < 200 || status >= 300) ? byStatus(status) : undefined;
  const unparsable =
    name === 'SyntaxError' ||
    typeof e.$responseBodyText === 'string' ||
    (status !== undefined && status >= 200 && status < 300);
  const row: Row =
    BY_NAME[name] ??
    failed ??
    (unparsable ? MALFORMED : undefined) ??
    (NETWORK_CODES.has(code) ? DOWN : ['ADAPTER_UNAVAILABLE', 'unavailable', false]);
  const message =
    typeof e.message === 'string' && e.message !== ''
      ? echo(e.message, 300)
      : echo(String(error), 300);
  const label = [name, status === undefined ? '' : `HTTP ${status}`, code]
    .filter(Boolean)
    .join(', ');
  return new AdapterError(row[0], `${what} failed (${label || 'unknown error'}): ${message}`, {
    reason: row[1],
    retryable: row[2],
    status,
    cause: error,
  });
}
