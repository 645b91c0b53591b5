import { describe, expect, it } from 'vitest';
import { createBraketSampler, createDwaveSampler } from './index.js';
import type { BraketSamplerOptions, DwaveSamplerOptions } from './index.js';

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
    ];
    for (const [options, fragment] of bad) {
      expect(() => createDwaveSampler({ token: 't', ...options }), fragment).toThrow(expect.objectContaining({ code: 'ADAPTER_INVALID_ARGUMENT', message: expect.stringContaining(fragment) }));
    }
  });

  it('should refuse bad braket options with ADAPTER_INVALID_ARGUMENT naming the value', () => {
    const bad: [BraketSamplerOptions, string][] = [
      [{ shots: 0 }, 'shots must be a positive integer, got 0'],
      [{ concurrency: 0 }, 'concurrency'],
      [{ requestTimeoutMs: -5 }, 'requestTimeoutMs'],
      [{ retry: { baseDelayMs: -1 } }, 'retry.baseDelayMs'],
      [{ maxSpins: 1.5 }, 'maxSpins'],
    ];
    for (const [options, fragment] of bad) {
      expect(() => createBraketSampler({ outputS3Bucket: 'b', ...options }), fragment).toThrow(expect.objectContaining({ code: 'ADAPTER_INVALID_ARGUMENT', message: expect.stringContaining(fragment) }));
    }
  });

  it('should refuse batches above maxSpins with ising-core\'s ISING_TOO_MANY_SPINS', async () => {
    const batch = { size: 1, stride: 3, spins: Int32Array.of(3), fields: new Float64Array(3), couplings: new Float64Array(9), beta: 1 };
    await expect(createDwaveSampler({ token: 't', maxSpins: 2 }).sample(batch)).rejects.toMatchObject({ code: 'ISING_TOO_MANY_SPINS' });
    await expect(createBraketSampler({ outputS3Bucket: 'b', maxSpins: 2 }).sample(batch)).rejects.toMatchObject({ code: 'ISING_TOO_MANY_SPINS' });
  });
});
