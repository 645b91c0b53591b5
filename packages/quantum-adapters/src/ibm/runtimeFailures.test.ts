import { describe, expect, it } from 'vitest';
import { closeAfterEach, redirectTo, streamBody, within } from '../shared/testing/httpTraps.js';
import { rejection } from '../shared/testing/rejection.js';
import {
  API_KEY,
  clientOptions,
  expectNoLeaks,
  fake,
  qasm,
  useFakeRuntime,
} from './testing/runtimeHarness.js';
import { classifyIbmError, ibmErrorMessage } from './classifyIbmError.js';
import { createRuntimeClient } from './runtimeClient.js';

useFakeRuntime();
const { trap } = closeAfterEach();
const MIB = 1024 * 1024;
const runtime = () => fake.requests.filter((r) => r.path.startsWith('/api/v1/'));
const posts = () => runtime().filter((r) => r.method === 'POST' && r.path === '/api/v1/jobs');
const job = { backend: 'fake_line7', pubs: [[qasm(2), null, 8]] } as const;

describe('Runtime failures', () => {
  it('should fail with auth on 403, and with quota when the 403 speaks of the usage limit', async () => {
    const client = createRuntimeClient(clientOptions());
    fake.failures.push({ match: /status$/, status: 403, times: 1 });
    expect(await rejection(client.backendStatus('fake_line7'))).toMatchObject({
      code: 'ADAPTER_AUTH',
      reason: 'auth',
      retryable: false,
    });
    fake.failures.push({
      match: /^POST \/api\/v1\/jobs$/,
      status: 403,
      times: 1,
      body: { errors: [{ code: 'forbidden', message: 'This instance has met its usage limit' }] },
    });
    expect(await rejection(client.submitSamplerJob(job))).toMatchObject({
      code: 'ADAPTER_QUOTA',
      reason: 'quota',
      retryable: false,
    });
    expect(runtime()).toHaveLength(2);
  });

  it('should clamp Retry-After: 100000 on a 429 to retry.maxDelayMs', async () => {
    const client = createRuntimeClient(
      clientOptions({ retry: { maxDelayMs: 50, baseDelayMs: 1 } }),
    );
    fake.failures.push({ match: /status$/, status: 429, retryAfter: '100000', times: 1 });
    const started = Date.now();
    await within(client.backendStatus('fake_line7'), 5_000, 'backendStatus');
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(runtime()).toHaveLength(2);
  });

  it('should retry 500 and 503 on reads, then stop after maxAttempts with a retryable error', async () => {
    const client = createRuntimeClient(
      clientOptions({ retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 } }),
    );
    fake.failures.push({ match: /status$/, status: 500, times: 1 });
    fake.failures.push({ match: /status$/, status: 503, times: 1 });
    await client.backendStatus('fake_line7');
    expect(runtime()).toHaveLength(3);
    fake.failures.push({ match: /status$/, status: 502, times: 10 });
    expect(await rejection(client.backendStatus('fake_line7'))).toMatchObject({
      code: 'ADAPTER_UNAVAILABLE',
      retryable: true,
      status: 502,
    });
    expect(runtime()).toHaveLength(6);
  });

  it('should not repeat a job submit that may have been accepted (500), but repeat one refused by 429 or 503', async () => {
    const client = createRuntimeClient(clientOptions());
    fake.failures.push({ match: /^POST \/api\/v1\/jobs$/, status: 500, times: 1 });
    expect(await rejection(client.submitSamplerJob(job))).toMatchObject({
      code: 'ADAPTER_UNAVAILABLE',
      retryable: true,
    });
    expect(posts()).toHaveLength(1);
    fake.failures.push({ match: /^POST \/api\/v1\/jobs$/, status: 429, retryAfter: '0', times: 1 });
    fake.failures.push({ match: /^POST \/api\/v1\/jobs$/, status: 503, times: 1 });
    expect((await client.submitSamplerJob(job)).id).toBe('job-1');
    expect(posts()).toHaveLength(4);
    expect(fake.jobs.size).toBe(1);
  });

  it('should repeat a submit whose connection was refused (nothing was sent)', async () => {
    const closed = await trap();
    await closed.close();
    const lines: string[] = [];
    const client = createRuntimeClient(
      clientOptions({
        endpoint: `${closed.url}/api/v1/`,
        retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 },
        debug: (l) => lines.push(l),
      }),
    );
    const e = await rejection(client.submitSamplerJob(job));
    expect(e).toMatchObject({ code: 'ADAPTER_UNAVAILABLE', retryable: true });
    expect(e.message).toContain('ECONNREFUSED');
    expect(lines.filter((l) => l.startsWith('retrying POST jobs'))).toHaveLength(2);
  });

  it("should reject 400 and 422 with the server's message, bounded", async () => {
    const client = createRuntimeClient(clientOptions());
    fake.failures.push({
      match: /^POST \/api\/v1\/jobs$/,
      status: 400,
      times: 1,
      body: {
        errors: [{ code: 'invalid', message: `pub 0: ${'rzz angle out of range '.repeat(500)}` }],
      },
    });
    const e = await rejection(client.submitSamplerJob(job));
    expect(e).toMatchObject({ code: 'ADAPTER_REJECTED', retryable: false, status: 400 });
    expect(e.message).toContain('pub 0: rzz angle out of range');
    expect(e.message.length).toBeLessThan(500);
    fake.failures.push({ match: /^POST \/api\/v1\/jobs$/, status: 422, times: 1 });
    expect(await rejection(client.submitSamplerJob(job))).toMatchObject({
      code: 'ADAPTER_REJECTED',
      message: expect.stringContaining('scripted 422'),
    });
    expect(posts()).toHaveLength(2);
  });

  it('should hit the request deadline when Runtime never answers', async () => {
    fake.hang = /status$/;
    const client = createRuntimeClient(
      clientOptions({
        requestTimeoutMs: 100,
        retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 },
      }),
    );
    expect(await rejection(client.backendStatus('fake_line7'))).toMatchObject({
      code: 'ADAPTER_TIMEOUT',
      retryable: true,
    });
    expect(runtime()).toHaveLength(2);
  });

  it('should redact the key and tokens from messages and debug lines', async () => {
    const lines: string[] = [];
    const client = createRuntimeClient(clientOptions({ debug: (l) => lines.push(l) }));
    await client.backendStatus('fake_line7');
    fake.failures.push({
      match: /status$/,
      status: 400,
      times: 1,
      body: { errors: [{ message: `echo ${fake.tokens[0]} and ${API_KEY}` }] },
    });
    const e = await rejection(client.backendStatus('fake_line7'));
    expect(e.message).toContain('echo *** and ***');
    const all = `${lines.join('\n')}\n${e.message}`;
    expect(all).not.toContain(API_KEY);
    expect(all).not.toContain(fake.tokens[0]);
    expect(lines.some((l) => l.includes('Authorization: Bearer ***'))).toBe(true);
  });

  it('should classify IBM error bodies of every known shape', () => {
    expect(ibmErrorMessage({ errors: [{ message: 'a' }, { message: 'b' }] })).toBe('"a; b"');
    expect(ibmErrorMessage({ error: { message: 'old', code: 1234 } })).toBe('"old"');
    expect(ibmErrorMessage({ errorCode: 'BXNIM0415E', errorMessage: 'no key' })).toBe(
      '"no key" (BXNIM0415E)',
    );
    expect(ibmErrorMessage('plain')).toBe('"plain"');
    const rows: [number, string, boolean][] = [
      [0, 'ADAPTER_UNAVAILABLE', true],
      [400, 'ADAPTER_REJECTED', false],
      [401, 'ADAPTER_AUTH', false],
      [404, 'ADAPTER_NOT_FOUND', false],
      [408, 'ADAPTER_TIMEOUT', true],
      [409, 'ADAPTER_REJECTED', false],
      [418, 'ADAPTER_REJECTED', false],
      [422, 'ADAPTER_REJECTED', false],
      [429, 'ADAPTER_RATE_LIMITED', true],
      [500, 'ADAPTER_UNAVAILABLE', true],
      [524, 'ADAPTER_UNAVAILABLE', true],
    ];
    for (const [status, code, retryable] of rows)
      expect(classifyIbmError(status, null), String(status)).toMatchObject({ code, retryable });
  });
});

describe('Runtime answer size limit and redirects', () => {
  for (const contentLength of [false, true]) {
    it(`should stop reading a 20 MiB answer at maxResponseBytes 1 MiB (${contentLength ? 'with' : 'without'} Content-Length)`, async () => {
      const { handle, stats } = streamBody(20 * MIB, { contentLength });
      const server = await trap(handle);
      const client = createRuntimeClient(
        clientOptions({
          endpoint: `${server.url}/api/v1/`,
          maxResponseBytes: MIB,
          retry: { maxAttempts: 1 },
        }),
      );
      const e = await rejection(client.jobResults('job-1'));
      expect(e).toMatchObject({
        code: 'ADAPTER_RESPONSE_TOO_LARGE',
        retryable: false,
        message: expect.stringContaining('maxResponseBytes'),
      });
      await within(stats.done, 5_000, 'the server response');
      expect(stats.closedEarly).toBe(true);
    });
  }

  it('should bound the IAM answer too', async () => {
    const { handle } = streamBody(4 * MIB);
    const server = await trap(handle);
    const client = createRuntimeClient(
      clientOptions({ iamEndpoint: `${server.url}/identity/token`, maxResponseBytes: MIB }),
    );
    expect(await rejection(client.backendStatus('fake_line7'))).toMatchObject({
      code: 'ADAPTER_RESPONSE_TOO_LARGE',
    });
    expect(runtime()).toHaveLength(0);
  });

  it('should refuse a redirect to another origin on GET and on POST jobs, so no token follows it', async () => {
    const attacker = await trap();
    const client = createRuntimeClient(
      clientOptions({ retry: { maxAttempts: 3, baseDelayMs: 1 } }),
    );
    for (const [match, call] of [
      [/^GET \/api\/v1\/backends\//, () => client.backendConfiguration('fake_line7')],
      [/^POST \/api\/v1\/jobs$/, () => client.submitSamplerJob(job)],
    ] as const) {
      fake.redirects.push({ match, status: 307, to: attacker.url, times: 5 });
      const e = await rejection(call());
      expect(e).toMatchObject({ code: 'ADAPTER_REDIRECT_REFUSED', retryable: false });
      expect(e.message).toContain(attacker.url);
      expect(e.message).not.toContain(fake.tokens[0]);
    }
    expect(attacker.requests).toEqual([]);
    expect(runtime()).toHaveLength(2);
    expect(fake.jobs.size).toBe(0);
    expectNoLeaks();
  });

  it('should follow a same-origin redirect with its headers and body', async () => {
    const client = createRuntimeClient(clientOptions());
    fake.redirects.push({ match: /^POST \/api\/v1\/jobs$/, status: 307, to: fake.url, times: 1 });
    expect((await client.submitSamplerJob(job)).id).toBe('job-1');
    const [first, second] = posts();
    expect(second!.body).toBe(first!.body);
    expect(second!.headers.authorization).toBe(first!.headers.authorization);
  });

  it('should refuse a redirect from a trap that bounces everything elsewhere', async () => {
    const attacker = await trap();
    const bouncer = await trap(redirectTo(302, attacker.url));
    const client = createRuntimeClient(clientOptions({ endpoint: `${bouncer.url}/api/v1/` }));
    expect(await rejection(client.jobStatus('job-1'))).toMatchObject({
      code: 'ADAPTER_REDIRECT_REFUSED',
    });
    expect(bouncer.requests[0]!.headers.authorization).toBe(`Bearer ${fake.tokens[0]}`);
    expect(attacker.requests).toEqual([]);
  });
});
