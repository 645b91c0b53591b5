import { createIsingBatch } from '@boltzmann/ising-core';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeBraket } from './testing/fakeBraketServer.js';
import { redirectTo, startTrap, streamBody, within } from '../shared/testing/httpTraps.js';
import type { Trap } from '../shared/testing/httpTraps.js';
import { fastTiming, rejection } from '../shared/testing/rejection.js';
import {
  createBraketSampler,
  DEFAULT_BRAKET_MAX_RESPONSE_BYTES,
  DEFAULT_BRAKET_MAX_RESULT_BYTES,
} from '../index.js';
import type { BraketSamplerOptions } from '../index.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

const MIB = 1024 * 1024;
const SECRET = 'test-secret-access-key-do-not-leak';
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});
async function trap(handle?: Parameters<typeof startTrap>[0]): Promise<Trap> {
  const t = await startTrap(handle);
  open.push(t);
  return t;
}
async function fakeBraket() {
  const fake = await startFakeBraket();
  open.push(fake);
  return fake;
}

const pair = () =>
  createIsingBatch({
    fields: Float64Array.of(0.3, -0.2),
    couplings: Float64Array.of(0, 0.4, 0, 0),
    spins: [2],
    stride: 2,
    beta: 1,
  });
const options = (
  endpoint: string,
  s3Endpoint: string,
  extra: Partial<BraketSamplerOptions> = {},
): BraketSamplerOptions => ({
  endpoint,
  s3Endpoint,
  region: 'us-east-1',
  clientConfig: {
    credentials: {
      accessKeyId: 'test',
      secretAccessKey: SECRET,
      sessionToken: 'test-session-token',
    },
  },
  outputS3Bucket: 'amazon-braket-test',
  shots: 10,
  anneal: { tau: 1, steps: 2 },
  ...fastTiming(),
  retry: { maxAttempts: 1 },
  ...extra,
});

describe('braket redirects (the SDK does not follow them)', () => {
  it('should not send the signed CreateQuantumTask to the origin a 307 names', async () => {
    const second = await trap();
    const first = await trap(redirectTo(307, second.url));
    const sampler = createBraketSampler(options(first.url, first.url));
    const error = await rejection(sampler.sample(pair()));
    expect(error).toMatchObject({ code: 'ADAPTER_REDIRECT_REFUSED', retryable: false });
    expect(error.message).not.toContain(SECRET);
    expect(first.requests[0]!.headers.authorization).toMatch(/Credential=test\//);
    expect(first.requests[0]!.headers['x-amz-security-token']).toBe('test-session-token');
    expect(second.requests).toEqual([]);
    sampler.dispose?.();
  });

  it('should not send the signed S3 GetObject to the origin a 307 names', async () => {
    const fake = await fakeBraket();
    const second = await trap();
    const s3 = await trap(redirectTo(307, second.url));
    const sampler = createBraketSampler(options(fake.url, s3.url));
    expect(await rejection(sampler.sample(pair()))).toMatchObject({
      code: 'ADAPTER_REDIRECT_REFUSED',
    });
    expect(s3.requests.map((r) => r.method)).toEqual(['GET']);
    expect(s3.requests[0]!.headers.authorization).toMatch(/Credential=test\//);
    expect(second.requests).toEqual([]);
    sampler.dispose?.();
  });
});

describe('braket response size limits', () => {
  it('should default to 4 MiB for API answers and 256 MiB for S3 results', () => {
    expect([DEFAULT_BRAKET_MAX_RESPONSE_BYTES, DEFAULT_BRAKET_MAX_RESULT_BYTES]).toEqual([
      4 * MIB,
      256 * MIB,
    ]);
  });

  for (const contentLength of [false, true]) {
    it(`should cut a 20 MiB Braket API answer off at maxResponseBytes 1 MiB (${contentLength ? 'with' : 'without'} Content-Length)`, async () => {
      const { handle, stats } = streamBody(20 * MIB, { contentLength, status: 201 });
      const api = await trap(handle);
      const sampler = createBraketSampler(options(api.url, api.url, { maxResponseBytes: MIB }));
      const error = await rejection(sampler.sample(pair()));
      expect(error).toMatchObject({
        code: 'ADAPTER_RESPONSE_TOO_LARGE',
        retryable: false,
        message: expect.stringContaining('CreateQuantumTask'),
      });
      await within(stats.done, 5_000, 'the server response');
      expect(stats.closedEarly).toBe(true);
      expect(stats.written).toBeLessThan(20 * MIB);
      sampler.dispose?.();
    });
  }

  for (const contentLength of [false, true]) {
    it(`should cut a 20 MiB results.json off at maxResultBytes 1 MiB (${contentLength ? 'with' : 'without'} Content-Length)`, async () => {
      const fake = await fakeBraket();
      const { handle, stats } = streamBody(20 * MIB, { contentLength });
      const s3 = await trap(handle);
      const sampler = createBraketSampler(options(fake.url, s3.url, { maxResultBytes: MIB }));
      const error = await rejection(sampler.sample(pair()));
      expect(error).toMatchObject({
        code: 'ADAPTER_RESPONSE_TOO_LARGE',
        retryable: false,
        message: expect.stringContaining('maxResultBytes'),
      });
      await within(stats.done, 5_000, 'the server response');
      expect(stats.closedEarly).toBe(true);
      expect(stats.written).toBeLessThan(20 * MIB);
      sampler.dispose?.();
    });
  }
});

describe('braket S3 error answers', () => {
  it('should hold an S3 error answer to maxResponseBytes, not to the larger maxResultBytes', async () => {
    const fake = await fakeBraket();
    const { handle, stats } = streamBody(20 * MIB, {
      status: 404,
      headers: { 'Content-Type': 'application/xml' },
    });
    const s3 = await trap(handle);
    const sampler = createBraketSampler(options(fake.url, s3.url, { maxResponseBytes: MIB }));
    expect(await rejection(sampler.sample(pair()))).toMatchObject({
      code: 'ADAPTER_RESPONSE_TOO_LARGE',
      message: expect.stringContaining('raise maxResponseBytes'),
    });
    await within(stats.done, 5_000, 'the server response');
    expect(stats.closedEarly).toBe(true);
    sampler.dispose?.();
  });
});

describe('braket answers and options', () => {
  it('should classify a 200 answer that is not JSON as ADAPTER_MALFORMED', async () => {
    const api = await trap((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(`<html>${'x'.repeat(50_000)}</html>`);
    });
    const sampler = createBraketSampler(options(api.url, api.url));
    const error = await rejection(sampler.sample(pair()));
    expect(error).toMatchObject({
      code: 'ADAPTER_MALFORMED',
      reason: 'malformed',
      retryable: false,
    });
    expect(error.message.length).toBeLessThan(600);
    sampler.dispose?.();
  });

  it('should refuse an endpoint or s3Endpoint that is not an http(s) URL at creation', () => {
    const invalid = (fragment: string) =>
      expect.objectContaining({
        code: 'ADAPTER_INVALID_ARGUMENT',
        message: expect.stringContaining(fragment),
      });
    expect(() => createBraketSampler({ outputS3Bucket: 'b', endpoint: 'not a url' })).toThrow(
      invalid('endpoint must be an absolute http(s) URL, got "not a url"'),
    );
    expect(() =>
      createBraketSampler({ outputS3Bucket: 'b', s3Endpoint: 'ftp://s3.example/' }),
    ).toThrow(invalid('s3Endpoint must be an http: or https: URL'));
    expect(() => createBraketSampler({ dryRun: { dir: 'unused' }, endpoint: 'braket' })).toThrow(
      invalid('endpoint'),
    );
    expect(() => createBraketSampler({ outputS3Bucket: 'b', maxResultBytes: 0 })).toThrow(
      invalid('maxResultBytes must be a positive integer'),
    );
  });
});
