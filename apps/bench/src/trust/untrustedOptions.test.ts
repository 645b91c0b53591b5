import { describe, expect, it } from 'vitest';
import { parseBenchArgs } from '../cli/parseArgs.js';
import {
  assertDataOnly,
  isLocationKey,
  isLocationValue,
  locationProblems,
} from './untrustedOptions.js';

describe('the trust rule for job and model-file sampler options', () => {
  it('names as locations the keys that say where requests, files or code go', () => {
    for (const key of [
      'endpoint',
      's3Endpoint',
      'region',
      'outputS3Bucket',
      'outputS3KeyPrefix',
      'dryRun',
      'clientConfig',
      'braketClient',
      'proxyUrl',
      'base_url',
      'host',
      'plugin',
      'dataPath',
      'cacheDir',
      'webhook',
      'serviceCrn',
      'iamEndpoint',
    ])
      expect({ key, location: isLocationKey(key) }).toEqual({ key, location: true });
    for (const key of [
      'numReads',
      'chains',
      'samples',
      'solver',
      'deviceArn',
      'shots',
      'seed',
      'anneal',
      'label',
      'tau',
      'schedule',
      'params',
      'chainStrength',
      'maxSpins',
      'backend',
      'maxPubsPerJob',
      'fractionalGates',
      'sessionMode',
    ])
      expect({ key, location: isLocationKey(key) }).toEqual({ key, location: false });
  });

  it('names as locations the values that are URLs or paths, and not device ARNs or expressions', () => {
    for (const v of [
      'https://evil.example/',
      'http://127.0.0.1:1/',
      'file:///etc/passwd',
      '/etc/passwd',
      '~/.aws',
      './x',
      '../x',
      'a/../b',
      'C:\\x',
      'a\\b',
      'a\0b',
      '..',
    ])
      expect({ v, location: isLocationValue(v) }).toEqual({ v, location: true });
    for (const v of [
      'Advantage_system4.1',
      'arn:aws:braket:::device/qpu/ionq/Aria-1',
      '1-u',
      't/T',
      'my run',
      'a.b',
      '',
    ])
      expect({ v, location: isLocationValue(v) }).toEqual({ v, location: false });
  });

  it('walks objects and arrays to any depth, reports credentials, and survives cycles', () => {
    const cyclic: Record<string, unknown> = { numReads: 10 };
    cyclic.self = cyclic;
    expect(locationProblems(cyclic)).toEqual([]);
    expect(
      locationProblems({
        params: { servers: [{ name: 'a' }, { apiKey: 'k' }] },
        list: ['ok', 'https://x/'],
      }),
    ).toEqual(
      expect.arrayContaining([
        { path: 'params.servers', why: 'location' },
        { path: 'list[1]', why: 'path or URL value' },
      ]),
    );
    expect(locationProblems({ params: { token: 'T' } })).toEqual([
      { path: 'params.token', why: 'credential' },
    ]);
    let deep: unknown = { endpoint: 'x' };
    for (let i = 0; i < 10_000; i++) deep = { a: deep };
    expect(locationProblems(deep)).toHaveLength(1);
  });

  it('throws BENCH_FORBIDDEN_OPTION naming paths, never values, and bounded', () => {
    const options = Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [`endpoint${i}`, `https://secret-${i}.example/`]),
    );
    let error: unknown;
    try {
      assertDataOnly(options, 'job 7', 'use the worker flag');
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'BENCH_FORBIDDEN_OPTION' });
    const message = (error as Error).message;
    expect(message).toContain('job 7 sets samplerOptions.endpoint');
    expect(message).toContain('and 35 more');
    expect(message).not.toContain('secret-');
    expect(message.length).toBeLessThan(600);
    expect(() =>
      assertDataOnly({ numReads: 100, solver: 'Advantage_system4.1' }, 'job 7', ''),
    ).not.toThrow();
  });
});

describe('a grid sent to the queue', () => {
  it('refuses sampler options that say where requests go: they belong to each worker', () => {
    const args = (options: string) => [
      'shakespeare',
      '--queue',
      'redis://127.0.0.1:1/0',
      '--sampler',
      'dwave',
      '--sampler-options',
      options,
    ];
    expect(() =>
      parseBenchArgs(args('{"endpoint":"https://sapi.example/"}'), () => undefined),
    ).toThrow(expect.objectContaining({ code: 'BENCH_FORBIDDEN_OPTION' }));
    expect(() => parseBenchArgs(args('{"dryRun":{"dir":"x"}}'), () => undefined)).toThrow(
      /samplerOptions\.dryRun \(a location\).*bench worker --sampler-options/,
    );
    expect(parseBenchArgs(args('{"numReads":50}'), () => undefined)?.samplerOptions).toEqual({
      numReads: 50,
    });
  });
});
