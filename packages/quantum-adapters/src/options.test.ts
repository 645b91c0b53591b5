import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BraketClient } from '@aws-sdk/client-braket';
import { S3Client } from '@aws-sdk/client-s3';
import { createIsingBatch, createSamplerRegistry } from '@boltzmann/ising-core';
import { splitSecretOptions } from '@boltzmann/ising-core/internal';
import { describe, expect, it } from 'vitest';
import { braketSampler, createBraketSampler, createDwaveSampler, dwaveSampler } from './index.js';
import type { BraketSamplerOptions, DwaveSamplerOptions } from './index.js';

// The SDK warns about Node 20 when a client is built; the other SDK tests silence it the same way.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

const invalid = (fragment: string) =>
  expect.objectContaining({
    name: 'AdapterError',
    code: 'ADAPTER_INVALID_ARGUMENT',
    retryable: false,
    message: expect.stringContaining(fragment),
  });
const pair = () =>
  createIsingBatch({
    fields: Float64Array.of(0.3, -0.2),
    couplings: Float64Array.of(0, 0.4, 0, 0),
    spins: [2],
    stride: 2,
    beta: 1,
  });
const noNetwork = (): Promise<Response> =>
  Promise.reject(new Error('a dry run must not send requests'));

describe('plugin options', () => {
  it('should refuse bad dwave options with ADAPTER_INVALID_ARGUMENT naming the value', () => {
    const bad: [DwaveSamplerOptions, string][] = [
      [{ numReads: 0 }, 'numReads must be a positive integer, got 0'],
      [{ numReads: 2.5 }, 'got 2.5'],
      [{ maxSpins: -1 }, 'maxSpins'],
      [{ deadlineMs: Number.NaN }, 'deadlineMs'],
      [{ pollTimeoutSeconds: 31 }, 'pollTimeoutSeconds must be an integer in [1, 30], got 31'],
      [{ chainStrength: Number.POSITIVE_INFINITY }, 'chainStrength'],
      [{ retry: { maxAttempts: 0 } }, 'retry.maxAttempts'],
      [{ dryRun: { dir: '' } }, 'dry-run directory'],
      [{ deadlineMs: 31 * 86_400_000 }, 'deadlineMs must be at most 2592000000'],
      [{ debug: true as never }, 'debug must be a function'],
    ];
    for (const [options, fragment] of bad) {
      expect(() => createDwaveSampler({ token: 't', ...options }), fragment).toThrow(
        expect.objectContaining({
          code: 'ADAPTER_INVALID_ARGUMENT',
          message: expect.stringContaining(fragment),
        }),
      );
    }
  });

  it('should refuse bad braket options with ADAPTER_INVALID_ARGUMENT naming the value', () => {
    const bad: [BraketSamplerOptions, string][] = [
      [{ shots: 0 }, 'shots must be a positive integer, got 0'],
      [{ concurrency: 0 }, 'concurrency'],
      [{ requestTimeoutMs: -5 }, 'requestTimeoutMs'],
      [{ retry: { baseDelayMs: -1 } }, 'retry.baseDelayMs'],
      [{ maxSpins: 1.5 }, 'maxSpins'],
      [{ deadlineMs: 1e12 }, 'deadlineMs must be at most 2592000000'],
    ];
    for (const [options, fragment] of bad) {
      expect(() => createBraketSampler({ outputS3Bucket: 'b', ...options }), fragment).toThrow(
        expect.objectContaining({
          code: 'ADAPTER_INVALID_ARGUMENT',
          message: expect.stringContaining(fragment),
        }),
      );
    }
  });

  it("should refuse batches above maxSpins with ising-core's ISING_TOO_MANY_SPINS", async () => {
    const batch = {
      size: 1,
      stride: 3,
      spins: Int32Array.of(3),
      fields: new Float64Array(3),
      couplings: new Float64Array(9),
      beta: 1,
    };
    await expect(
      createDwaveSampler({ token: 't', maxSpins: 2 }).sample(batch),
    ).rejects.toMatchObject({ code: 'ISING_TOO_MANY_SPINS' });
    await expect(
      createBraketSampler({ outputS3Bucket: 'b', maxSpins: 2 }).sample(batch),
    ).rejects.toMatchObject({ code: 'ISING_TOO_MANY_SPINS' });
  });

  it('should reject misspelt dwave option keys, also nested ones, and accept every documented key', async () => {
    expect(() => dwaveSampler.create({ token: 't', numRead: 5 } as never)).toThrow(
      invalid('dwave: unknown option "numRead"; known options: token, region,'),
    );
    expect(() =>
      createDwaveSampler({ token: 't', dryRun: { dir: 'x', fallbak: 'dqa' } as never }),
    ).toThrow(invalid('dwave dryRun: unknown option "fallbak"'));
    expect(() => createDwaveSampler({ token: 't', retry: { maxAttempt: 2 } as never })).toThrow(
      invalid('dwave retry: unknown option "maxAttempt"'),
    );
    expect(() =>
      createDwaveSampler({ token: 't', pollBackoff: { initial: 5, max: 9 } as never }),
    ).toThrow(invalid('unknown options "initial", "max"'));
    expect(() => dwaveSampler.create('numReads=5' as never)).toThrow(
      invalid('dwave options must be an object, got "numReads=5"'),
    );
    const all: Required<DwaveSamplerOptions> = {
      token: 't',
      region: 'eu-central-1',
      endpoint: 'http://127.0.0.1:9/sapi/v2/',
      maxResponseBytes: 1_000_000,
      fetch: noNetwork,
      requestTimeoutMs: 1000,
      retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 },
      debug: () => undefined,
      seed: 1,
      solver: 'Advantage_system4.1',
      numReads: 5,
      autoScale: true,
      params: {},
      embedding: [[0]],
      chainStrength: 2,
      deadlineMs: 1000,
      pollTimeoutSeconds: 1,
      pollBackoff: { initialMs: 1, factor: 2, maxMs: 4 },
      label: 'options test',
      maxSpins: 8,
      solverDefinition: { identity: { name: 'x' }, properties: {} },
      dryRun: { dir: 'unused', fallback: 'dqa', fallbackOptions: {} },
      onRun: () => undefined,
    };
    expect(dwaveSampler.create(all).name).toBe('dwave');
    // Nested settings that pass the check still reach the run: a dry run answered by the dqa fallback.
    const dir = mkdtempSync(join(tmpdir(), 'dwave-options-'));
    const sampler = dwaveSampler.create({
      fetch: noNetwork,
      numReads: 9,
      seed: 4,
      retry: { maxAttempts: 1 },
      pollBackoff: { maxMs: 10 },
      dryRun: { dir, fallback: 'dqa', fallbackOptions: { steps: 8 } },
    });
    const result = await sampler.sample!(pair());
    expect(
      result.kind === 'samples' && result.sets.map((set) => set.weights.reduce((a, b) => a + b, 0)),
    ).toEqual([9]);
  });

  it('should reject misspelt braket option keys, also nested ones, and accept every documented key', async () => {
    expect(() => braketSampler.create({ outputS3Bucket: 'b', shot: 10 } as never)).toThrow(
      invalid('braket: unknown option "shot"; known options: deviceArn,'),
    );
    expect(() =>
      createBraketSampler({ outputS3Bucket: 'b', anneal: { tau: 1, step: 4 } as never }),
    ).toThrow(invalid('braket anneal: unknown option "step"'));
    expect(() =>
      createBraketSampler({ outputS3Bucket: 'b', retry: { maxDelay: 1 } as never }),
    ).toThrow(invalid('braket retry: unknown option "maxDelay"'));
    expect(() => createBraketSampler({ dryRun: { directory: 'x' } as never })).toThrow(
      invalid('braket dryRun: unknown option "directory"'),
    );
    expect(() => braketSampler.create([] as never)).toThrow(
      invalid('braket options must be an object, got an array'),
    );
    const braketClient = new BraketClient({ region: 'us-east-1' });
    const s3Client = new S3Client({ region: 'us-east-1' });
    const all: Required<BraketSamplerOptions> = {
      deviceArn: 'arn:aws:braket:::device/quantum-simulator/amazon/sv1',
      region: 'us-east-1',
      outputS3Bucket: 'b',
      outputS3KeyPrefix: 'p',
      shots: 10,
      anneal: {
        tau: 1,
        steps: 4,
        order: 2,
        schedule: 'linear',
        calibrate: 'linear-response',
        maxQubits: 8,
      },
      endpoint: 'http://127.0.0.1:9',
      s3Endpoint: 'http://127.0.0.1:9',
      maxResponseBytes: 1_000_000,
      maxResultBytes: 1_000_000,
      clientConfig: { credentials: { accessKeyId: 'a', secretAccessKey: 's' } },
      braketClient,
      s3Client,
      requestTimeoutMs: 1000,
      retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 },
      deadlineMs: 1000,
      pollBackoff: { initialMs: 1, factor: 2, maxMs: 4 },
      concurrency: 2,
      maxSpins: 8,
      seed: 1,
      dryRun: { dir: 'unused', fallback: 'dqa', fallbackOptions: {} },
      onRun: () => undefined,
    };
    expect(braketSampler.create(all).name).toBe('braket');
    braketClient.destroy();
    s3Client.destroy();
    const dir = mkdtempSync(join(tmpdir(), 'braket-options-'));
    const sampler = braketSampler.create({
      shots: 6,
      seed: 2,
      anneal: { tau: 1, steps: 4 },
      dryRun: { dir, fallback: 'dqa' },
    });
    const result = await sampler.sample!(pair());
    expect(
      result.kind === 'samples' && result.sets.map((set) => set.weights.reduce((a, b) => a + b, 0)),
    ).toEqual([6]);
  });

  it('should declare the credential-bearing options as secretOptions', () => {
    expect(dwaveSampler.secretOptions).toEqual(['token']);
    expect(braketSampler.secretOptions).toEqual([
      'clientConfig.credentials',
      'braketClient',
      's3Client',
    ]);
    expect(
      createSamplerRegistry().register(dwaveSampler).register(braketSampler).list(),
    ).toHaveLength(2);
    const dwave = splitSecretOptions(
      { token: 'DEV-secret', numReads: 5 },
      dwaveSampler.secretOptions,
    );
    expect([dwave.options, dwave.paths]).toEqual([{ numReads: 5 }, ['token']]);
    const credentials = { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'wJalrEXAMPLE' };
    const braket = splitSecretOptions(
      { shots: 10, clientConfig: { credentials, maxAttempts: 2 } },
      braketSampler.secretOptions,
    );
    expect(braket.options).toEqual({ shots: 10, clientConfig: { maxAttempts: 2 } });
    expect(braket.secrets).toEqual({ clientConfig: { credentials } });
    expect(JSON.stringify(braket.options)).not.toContain('EXAMPLE');
  });
});
