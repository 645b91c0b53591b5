import type { IncomingMessage, ServerResponse } from 'node:http';
import { causalBatch, estimateBatch } from '@boltzmann/ising-core';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeSapi } from './internal/testing/fakeSapiServer.js';
import { fakeChimeraSolver } from './internal/testing/fakeSolvers.js';
import { redirectTo, startTrap, streamBody, within } from './internal/testing/httpTraps.js';
import type { Trap } from './internal/testing/httpTraps.js';
import { rejection } from './internal/testing/rejection.js';
import {
  adapterErrorOf,
  createDwaveSampler,
  createSapiClient,
  DEFAULT_SAPI_MAX_RESPONSE_BYTES,
} from './index.js';
import type { SapiJob } from './index.js';

const TOKEN = 'DEV-redirect-test-0123456789-secret';
const MIB = 1024 * 1024;
const solver = fakeChimeraSolver({ rows: 1, columns: 1, shore: 4 });
const job: SapiJob = {
  solver: solver.identity,
  type: 'ising',
  data: { format: 'qp', lin: '', quad: '', offset: 0 },
  params: { num_reads: 1 },
};
const batch = () =>
  causalBatch(new Float64Array(8).fill(0.2), new Float64Array(4).fill(0.1), {
    batch: 2,
    length: 2,
  });
const noRetry = { maxAttempts: 1 };

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});
async function trap(handle?: (req: IncomingMessage, res: ServerResponse) => void): Promise<Trap> {
  const t = await startTrap(handle);
  open.push(t);
  return t;
}

/** The token never reached `second`, and the refusal names its origin but not the token. */
function expectRefused(
  error: { code: string; retryable: boolean; message: string } | undefined,
  second: Trap,
): void {
  expect(error).toMatchObject({ code: 'ADAPTER_REDIRECT_REFUSED', retryable: false });
  expect(error!.message).toContain(second.url);
  expect(error!.message).not.toContain(TOKEN);
  expect(second.requests).toEqual([]);
}

describe('SAPI redirects', () => {
  it('should refuse a 302 on GET solvers/remote/ to another origin without sending the token there', async () => {
    const second = await trap();
    const first = await trap(redirectTo(302, second.url));
    const client = createSapiClient({
      token: TOKEN,
      endpoint: `${first.url}/sapi/v2/`,
      retry: noRetry,
    });
    expectRefused(await rejection(client.listSolvers()), second);
    expect(first.requests.map((r) => r.headers['x-auth-token'])).toEqual([TOKEN]);
  });

  it('should refuse a 307 on POST problems/ (with its body) to another origin', async () => {
    const second = await trap();
    const first = await trap(redirectTo(307, second.url));
    const client = createSapiClient({
      token: TOKEN,
      endpoint: `${first.url}/sapi/v2/`,
      retry: { maxAttempts: 3, baseDelayMs: 1 },
    });
    expectRefused(await rejection(client.submitProblems([job])), second);
    expect(first.requests).toHaveLength(1);
    expect(first.requests[0]!.method).toBe('POST');
  });

  it('should refuse both through the dwave sampler and estimateBatch', async () => {
    const second = await trap();
    const first = await trap(redirectTo(302, second.url));
    const listing = createDwaveSampler({
      token: TOKEN,
      endpoint: `${first.url}/sapi/v2/`,
      retry: noRetry,
    });
    let caught: unknown;
    await Promise.resolve(estimateBatch(listing, batch())).catch((e: unknown) => (caught = e));
    expectRefused(adapterErrorOf(caught), second);

    const posting = await trap(redirectTo(307, second.url));
    const submitting = createDwaveSampler({
      token: TOKEN,
      endpoint: `${posting.url}/sapi/v2/`,
      solverDefinition: solver,
      retry: noRetry,
    });
    caught = undefined;
    await Promise.resolve(estimateBatch(submitting, batch())).catch((e: unknown) => (caught = e));
    expectRefused(adapterErrorOf(caught), second);
    expect(posting.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /sapi/v2/problems/',
    ]);
  });

  it('should follow same-origin redirects: 307 keeps method and body, 303 after POST becomes a GET without body', async () => {
    const server = await trap((req, res) => {
      const url = req.url ?? '/';
      if (url.startsWith('/old/'))
        return redirectTo(307, (p) => p.replace('/old/', '/sapi/v2/'))(req, res);
      if (url.startsWith('/see-other/'))
        return redirectTo(303, (p) => p.replace('/see-other/', '/sapi/v2/'))(req, res);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify(url.includes('solvers') ? [solver] : [{ id: 'p1', status: 'PENDING' }]),
      );
    });
    const moved = createSapiClient({
      token: TOKEN,
      endpoint: `${server.url}/old/`,
      retry: noRetry,
    });
    expect((await moved.listSolvers()).map((s) => s.identity.name)).toEqual([solver.identity.name]);
    expect((await moved.submitProblems([job]))[0]).toMatchObject({ id: 'p1' });
    const posted = server.requests.slice(2);
    expect(posted.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /old/problems/',
      'POST /sapi/v2/problems/',
    ]);
    expect(posted[1]!.body).toBe(posted[0]!.body);
    expect(posted[1]!.headers['x-auth-token']).toBe(TOKEN);

    const seeOther = createSapiClient({
      token: TOKEN,
      endpoint: `${server.url}/see-other/`,
      retry: noRetry,
    });
    await seeOther.submitProblems([job]);
    const last = server.requests.at(-1)!;
    expect([last.method, last.url, last.body, last.headers['content-type']]).toEqual([
      'GET',
      '/sapi/v2/problems/',
      '',
      undefined,
    ]);
  });

  it('should refuse a redirect loop, and a redirect without Location', async () => {
    const loop = await trap(redirectTo(302, (p) => p));
    const client = createSapiClient({
      token: TOKEN,
      endpoint: `${loop.url}/sapi/v2/`,
      retry: noRetry,
    });
    expect(await rejection(client.listSolvers())).toMatchObject({
      code: 'ADAPTER_REDIRECT_REFUSED',
      message: expect.stringContaining('more than 5 times'),
    });
    expect(loop.requests).toHaveLength(6);
    const bare = await trap((_req, res) => {
      res.writeHead(301);
      res.end();
    });
    const noLocation = createSapiClient({
      token: TOKEN,
      endpoint: `${bare.url}/sapi/v2/`,
      retry: noRetry,
    });
    expect(await rejection(noLocation.listSolvers())).toMatchObject({
      code: 'ADAPTER_REDIRECT_REFUSED',
      message: expect.stringContaining('without a Location'),
    });
  });
});

describe('SAPI response size limit', () => {
  it('should default to 64 MiB', () => {
    expect(DEFAULT_SAPI_MAX_RESPONSE_BYTES).toBe(64 * MIB);
  });

  for (const contentLength of [false, true]) {
    it(`should stop reading a 20 MiB answer at maxResponseBytes 1 MiB and close the connection (${contentLength ? 'with' : 'without'} Content-Length)`, async () => {
      const { handle, stats } = streamBody(20 * MIB, { contentLength });
      const server = await trap(handle);
      const client = createSapiClient({
        token: TOKEN,
        endpoint: `${server.url}/sapi/v2/`,
        maxResponseBytes: MIB,
        retry: noRetry,
      });
      const error = await rejection(client.listSolvers());
      expect(error).toMatchObject({
        code: 'ADAPTER_RESPONSE_TOO_LARGE',
        retryable: false,
        message: expect.stringContaining('maxResponseBytes'),
      });
      await within(stats.done, 5_000, 'the server response');
      expect(stats.closedEarly).toBe(true);
      expect(stats.written).toBeLessThan(20 * MIB);
    });
  }

  it('should apply maxResponseBytes given to the dwave sampler', async () => {
    const { handle, stats } = streamBody(20 * MIB);
    const server = await trap(handle);
    const sampler = createDwaveSampler({
      token: TOKEN,
      endpoint: `${server.url}/sapi/v2/`,
      maxResponseBytes: MIB,
      retry: noRetry,
    });
    let caught: unknown;
    await Promise.resolve(estimateBatch(sampler, batch())).catch((e: unknown) => (caught = e));
    expect(adapterErrorOf(caught)?.code).toBe('ADAPTER_RESPONSE_TOO_LARGE');
    await within(stats.done, 5_000, 'the server response');
    expect(stats.closedEarly).toBe(true);
  });

  it('should echo a long non-JSON answer in bounded form', async () => {
    const server = await trap((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(`<html>${'x'.repeat(100_000)}</html>`);
    });
    const client = createSapiClient({
      token: TOKEN,
      endpoint: `${server.url}/sapi/v2/`,
      retry: noRetry,
    });
    const error = await rejection(client.listSolvers());
    expect(error.code).toBe('ADAPTER_MALFORMED');
    expect(error.message.length).toBeLessThan(400);
  });
});

describe('SAPI Retry-After', () => {
  it('should clamp Retry-After: 100000 to retry.maxDelayMs', async () => {
    const fake = await startFakeSapi({ token: TOKEN, solvers: [solver] });
    open.push(fake);
    fake.failures.push({
      match: /^GET solvers\/remote\/$/,
      status: 429,
      retryAfter: '100000',
      times: 1,
    });
    const client = createSapiClient({
      token: TOKEN,
      endpoint: fake.url,
      retry: { maxDelayMs: 50, baseDelayMs: 1 },
    });
    const controller = new AbortController();
    try {
      const started = Date.now();
      expect(
        await within(client.listSolvers(controller.signal), 5_000, 'listSolvers'),
      ).toHaveLength(1);
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(fake.requests).toHaveLength(2);
    } finally {
      controller.abort();
    }
  });

  it('should fail at once with the rate limit when the run deadline would fire before the retry', async () => {
    const fake = await startFakeSapi({ token: TOKEN, solvers: [solver] });
    open.push(fake);
    fake.failures.push({
      match: /^GET solvers\/remote\/$/,
      status: 429,
      retryAfter: '100000',
      times: 1,
    });
    const sampler = createDwaveSampler({
      token: TOKEN,
      endpoint: fake.url,
      deadlineMs: 3_000,
      retry: { maxDelayMs: 600_000 },
    });
    const started = Date.now();
    const error = await rejection(within(sampler.sample(batch()), 10_000, 'sample'));
    expect(error).toMatchObject({ code: 'ADAPTER_RATE_LIMITED' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe('SAPI client and dwave sampler option checks', () => {
  const invalid = (fragment: string) =>
    expect.objectContaining({
      name: 'AdapterError',
      code: 'ADAPTER_INVALID_ARGUMENT',
      retryable: false,
      message: expect.stringContaining(fragment),
    });

  it('should refuse a token that is not a string without echoing it', () => {
    for (const make of [
      () => createSapiClient({ token: 12345 as never }),
      () => createDwaveSampler({ token: 12345 as never }),
      () => createDwaveSampler({ token: { value: 12345 } as never, dryRun: { dir: 'unused' } }),
    ]) {
      let caught: unknown;
      try {
        make();
      } catch (e) {
        caught = e;
      }
      expect(caught).toEqual(invalid('token must be a string'));
      expect((caught as Error).message).not.toContain('12345');
    }
  });

  it('should refuse an endpoint that is not an http(s) URL, and a region that is not a code, at creation', () => {
    for (const [options, fragment] of [
      [{ endpoint: 'not a url' }, 'endpoint must be an absolute http(s) URL, got "not a url"'],
      [
        { endpoint: 'ftp://sapi.example/sapi/v2/' },
        'endpoint must be an http: or https: URL, got "ftp:"',
      ],
      [{ endpoint: 42 }, 'endpoint must be an absolute http(s) URL, got 42'],
      [{ region: 'evil.example/#' }, 'region must be a SAPI region code'],
    ] as const) {
      expect(() => createSapiClient({ token: TOKEN, ...(options as object) })).toThrow(
        invalid(fragment),
      );
      expect(() => createDwaveSampler({ token: TOKEN, ...(options as object) })).toThrow(
        invalid(fragment),
      );
      expect(() =>
        createDwaveSampler({ ...(options as object), dryRun: { dir: 'unused' } }),
      ).toThrow(invalid(fragment));
    }
    expect(() => createSapiClient({ token: TOKEN, maxResponseBytes: 0 })).toThrow(
      invalid('maxResponseBytes must be a positive integer'),
    );
  });
});
