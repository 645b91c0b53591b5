import { describe, expect, it } from 'vitest';
import {
  classifyBraketError,
  classifyDwaveError,
  decodeBraketResults,
  decodeQpAnswer,
} from './index.js';

describe('classifyDwaveError', () => {
  // status, body, code, reason, retryable
  const table: [number, unknown, string, string, boolean][] = [
    [
      400,
      { error_code: 400, error_msg: 'Missing parameter' },
      'ADAPTER_REJECTED',
      'rejected',
      false,
    ],
    [
      401,
      { error_code: 401, error_msg: 'Invalid token or access denied' },
      'ADAPTER_AUTH',
      'auth',
      false,
    ],
    [402, 'payment required', 'ADAPTER_QUOTA', 'quota', false],
    [403, { error_code: 403, error_msg: 'Forbidden' }, 'ADAPTER_AUTH', 'auth', false],
    [
      403,
      { error_code: 403, error_msg: 'Solver access time quota exhausted' },
      'ADAPTER_QUOTA',
      'quota',
      false,
    ],
    [
      404,
      { error_code: 404, error_msg: 'Problem not found' },
      'ADAPTER_NOT_FOUND',
      'rejected',
      false,
    ],
    [408, '', 'ADAPTER_TIMEOUT', 'timeout', true],
    [
      409,
      { error_code: 409, error_msg: 'Problem has been finished.' },
      'ADAPTER_REJECTED',
      'rejected',
      false,
    ],
    [
      410,
      { error_code: 410, error_msg: 'Problem no longer accessible' },
      'ADAPTER_NOT_FOUND',
      'rejected',
      false,
    ],
    [415, 'Unsupported Media Type', 'ADAPTER_REJECTED', 'rejected', false],
    [422, {}, 'ADAPTER_REJECTED', 'rejected', false],
    [
      429,
      { error_code: 429, error_msg: 'Too many requests' },
      'ADAPTER_RATE_LIMITED',
      'quota',
      true,
    ],
    [500, '<html>Internal Server Error</html>', 'ADAPTER_UNAVAILABLE', 'unavailable', true],
    [502, 'Bad gateway', 'ADAPTER_UNAVAILABLE', 'unavailable', true],
    [
      503,
      { error_code: 503, error_msg: 'maintenance' },
      'ADAPTER_UNAVAILABLE',
      'unavailable',
      true,
    ],
    [504, '', 'ADAPTER_UNAVAILABLE', 'unavailable', true],
    [0, 'fetch failed (connect ECONNREFUSED)', 'ADAPTER_UNAVAILABLE', 'unavailable', true],
  ];
  it.each(table)(
    'should map HTTP %i %j to %s / %s / retryable %s',
    (status, body, code, reason, retryable) => {
      const e = classifyDwaveError(status, body, { retryAfterMs: 1500 });
      expect(e).toMatchObject({ code, reason, retryable, retryAfterMs: 1500 });
      expect(e.status).toBe(status === 0 ? undefined : status);
      if (typeof body === 'object' && body !== null && 'error_msg' in body)
        expect(e.message).toContain((body as { error_msg: string }).error_msg);
    },
  );
});

describe('classifyBraketError', () => {
  const sdkError = (name: string, status?: number, extra: Record<string, unknown> = {}) =>
    Object.assign(new Error(`${name} happened`), {
      name,
      $metadata: status === undefined ? undefined : { httpStatusCode: status },
      ...extra,
    });
  const table: [string, unknown, string, string, boolean][] = [
    [
      'ValidationException',
      sdkError('ValidationException', 400),
      'ADAPTER_REJECTED',
      'rejected',
      false,
    ],
    [
      'ConflictException',
      sdkError('ConflictException', 409),
      'ADAPTER_REJECTED',
      'rejected',
      false,
    ],
    [
      'DeviceRetiredException',
      sdkError('DeviceRetiredException', 410),
      'ADAPTER_REJECTED',
      'rejected',
      false,
    ],
    [
      'ServiceQuotaExceededException',
      sdkError('ServiceQuotaExceededException', 402),
      'ADAPTER_QUOTA',
      'quota',
      false,
    ],
    [
      'AccessDeniedException',
      sdkError('AccessDeniedException', 403),
      'ADAPTER_AUTH',
      'auth',
      false,
    ],
    [
      'UnrecognizedClientException',
      sdkError('UnrecognizedClientException', 403),
      'ADAPTER_AUTH',
      'auth',
      false,
    ],
    [
      'ExpiredTokenException',
      sdkError('ExpiredTokenException', 400),
      'ADAPTER_AUTH',
      'auth',
      false,
    ],
    [
      'CredentialsProviderError',
      sdkError('CredentialsProviderError'),
      'ADAPTER_AUTH',
      'auth',
      false,
    ],
    [
      'ThrottlingException',
      sdkError('ThrottlingException', 429),
      'ADAPTER_RATE_LIMITED',
      'quota',
      true,
    ],
    ['S3 SlowDown', sdkError('SlowDown', 503), 'ADAPTER_RATE_LIMITED', 'quota', true],
    [
      'ResourceNotFoundException',
      sdkError('ResourceNotFoundException', 404),
      'ADAPTER_NOT_FOUND',
      'rejected',
      false,
    ],
    ['S3 NoSuchKey', sdkError('NoSuchKey', 404), 'ADAPTER_NOT_FOUND', 'rejected', false],
    [
      'DeviceOfflineException',
      sdkError('DeviceOfflineException', 424),
      'ADAPTER_UNAVAILABLE',
      'unavailable',
      true,
    ],
    [
      'InternalServiceException',
      sdkError('InternalServiceException', 500),
      'ADAPTER_UNAVAILABLE',
      'unavailable',
      true,
    ],
    ['TimeoutError', sdkError('TimeoutError'), 'ADAPTER_TIMEOUT', 'timeout', true],
    ['AbortError', sdkError('AbortError'), 'ADAPTER_TIMEOUT', 'timeout', true],
    ['unknown name, HTTP 503', sdkError('Weird', 503), 'ADAPTER_UNAVAILABLE', 'unavailable', true],
    ['unknown name, HTTP 401', sdkError('Weird', 401), 'ADAPTER_AUTH', 'auth', false],
    ['unknown name, HTTP 429', sdkError('Weird', 429), 'ADAPTER_RATE_LIMITED', 'quota', true],
    ['unknown name, HTTP 400', sdkError('Weird', 400), 'ADAPTER_REJECTED', 'rejected', false],
    [
      'socket ECONNREFUSED',
      sdkError('Error', undefined, { code: 'ECONNREFUSED' }),
      'ADAPTER_UNAVAILABLE',
      'unavailable',
      true,
    ],
    [
      'socket ECONNRESET in cause',
      Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET' } }),
      'ADAPTER_UNAVAILABLE',
      'unavailable',
      true,
    ],
    [
      'a plain bug',
      new TypeError('x is not a function'),
      'ADAPTER_UNAVAILABLE',
      'unavailable',
      false,
    ],
    [
      'non-JSON 200 (SDK SyntaxError)',
      Object.assign(new SyntaxError('Unexpected token < in JSON'), {
        $metadata: { httpStatusCode: 200 },
        $responseBodyText: '<html>',
      }),
      'ADAPTER_MALFORMED',
      'malformed',
      false,
    ],
    ['unknown name on a 2xx', sdkError('Weird', 201), 'ADAPTER_MALFORMED', 'malformed', false],
    [
      'HTTP 307 (not followed)',
      sdkError('Weird', 307),
      'ADAPTER_REDIRECT_REFUSED',
      'rejected',
      false,
    ],
  ];
  it.each(table)(
    'should map %s to %s / %s / retryable %s',
    (_label, error, code, reason, retryable) => {
      const e = classifyBraketError(error, 'CreateQuantumTask');
      expect(e).toMatchObject({ code, reason, retryable });
      expect(e.message).toContain('CreateQuantumTask failed');
      expect(e.cause).toBe(error);
    },
  );
});

describe('echoed server content', () => {
  it('should be bounded in every classified or decoded error message', () => {
    const huge = 'x'.repeat(100_000);
    const messages = [
      classifyDwaveError(500, { error_code: 500, error_msg: huge }).message,
      classifyDwaveError(500, huge).message,
      classifyDwaveError(500, { unexpected: huge }).message,
      classifyBraketError(Object.assign(new Error(huge), { name: 'InternalServiceException' }))
        .message,
    ];
    for (const bad of [
      { braketSchemaHeader: { name: huge } },
      {
        braketSchemaHeader: { name: 'braket.task_result.gate_model_task_result' },
        measuredQubits: Array.from({ length: 50_000 }, (_, i) => i + 5),
      },
    ]) {
      try {
        decodeBraketResults(bad, 2);
      } catch (e) {
        messages.push((e as Error).message);
      }
    }
    try {
      decodeQpAnswer({ format: huge });
    } catch (e) {
      messages.push((e as Error).message);
    }
    expect(messages).toHaveLength(7);
    for (const m of messages) expect(m.length).toBeLessThan(500);
  });
});
