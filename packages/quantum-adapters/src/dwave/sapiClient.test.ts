import { estimateBatch } from '@boltzmann/ising-core';
import { describe, expect, it } from 'vitest';
import { startFakeSapi } from './testing/fakeSapiServer.js';
import { closeAfterEach, streamBody, within } from '../shared/testing/httpTraps.js';
import { rejection } from '../shared/testing/rejection.js';
import { batch, noRetry, solver, TOKEN } from './testing/sapiFixtures.js';
import {
  adapterErrorOf,
  createDwaveSampler,
  createSapiClient,
  DEFAULT_SAPI_MAX_RESPONSE_BYTES,
} from '../index.js';

// Redirects: sapiRedirects.test.ts.
const MIB = 1024 * 1024;
const { open, trap } = closeAfterEach();

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
