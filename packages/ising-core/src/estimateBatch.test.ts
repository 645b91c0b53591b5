import { describe, expect, it } from 'vitest';
import {
  causalBatch,
  createIsingBatch,
  createRng,
  estimateBatch,
  estimateFromSamples,
  IsingError,
} from './index.js';
import type { BatchEstimate, IsingBatch, SampleResult, Sampler } from './index.js';
import { bruteForceEstimate, bruteForceMoments } from './testing/index.js';
import { codeOf } from './testing/thrownErrors.js';

const caps = (extra: Partial<Sampler['capabilities']> = {}): Sampler['capabilities'] => ({
  exact: false,
  maxSpins: 8,
  async: false,
  deterministic: true,
  ...extra,
});

function randomBatch(seed: number): IsingBatch {
  const rng = createRng(seed);
  return causalBatch(
    Float64Array.from({ length: 2 * 25 }, () => rng.normal()),
    Float64Array.from({ length: 25 }, () => rng.normal() * 0.6),
    { batch: 2, length: 5 },
    1.1,
  );
}

const dense = (batch: IsingBatch): SampleResult => ({
  kind: 'dense',
  distributions: Array.from(
    { length: batch.size },
    (_, q) =>
      bruteForceMoments(
        batch.fields.subarray(q * batch.stride),
        batch.couplings,
        batch.spins[q]!,
        batch.beta,
      ).probabilities,
  ),
});

const constant = (batch: IsingBatch, value: number): BatchEstimate => ({
  magnetization: new Float64Array(batch.size * batch.stride).fill(value),
  vjp: () => ({
    fields: new Float64Array(batch.size * batch.stride),
    couplings: new Float64Array(batch.stride ** 2),
  }),
});

const expectClose = (a: Float64Array, b: Float64Array, tol: number): void =>
  a.forEach((v, i) => expect(Math.abs(v - b[i]!), `entry ${i}`).toBeLessThan(tol));

describe('estimateBatch', () => {
  it('should return the estimate of a synchronous estimate() without a promise (its vjp wrapped in checks)', () => {
    const batch = randomBatch(1);
    const own = constant(batch, 0.25);
    const result = estimateBatch(
      { name: 'direct', capabilities: caps(), estimate: () => own },
      batch,
    );
    expect(result).not.toBeInstanceOf(Promise);
    expect((result as BatchEstimate).magnetization).toBe(own.magnetization);
    expect((result as BatchEstimate).vjp(new Float64Array(50))).toEqual(
      own.vjp(new Float64Array(50)),
    );
  });

  it('should await an asynchronous estimate()', async () => {
    const batch = randomBatch(1);
    const own = constant(batch, 0.25);
    const result = estimateBatch(
      { name: 'remote', capabilities: caps({ async: true }), estimate: async () => own },
      batch,
    );
    expect(result).toBeInstanceOf(Promise);
    expect((await result).magnetization).toBe(own.magnetization);
  });

  it('should turn dense distributions into exact moments and VJPs, synchronously and asynchronously', async () => {
    const batch = randomBatch(2);
    const reference = bruteForceEstimate(batch);
    const grad = Float64Array.from({ length: 50 }, (_, i) => Math.cos(3 * i));
    const sync = estimateBatch(
      { name: 'dense', capabilities: caps(), sample: () => dense(batch) },
      batch,
    ) as BatchEstimate;
    const asyncResult = await estimateBatch(
      {
        name: 'dense-async',
        capabilities: caps({ async: true }),
        sample: async () => dense(batch),
      },
      batch,
    );
    for (const estimate of [sync, asyncResult]) {
      expectClose(estimate.magnetization, reference.magnetization, 1e-12);
      expectClose(estimate.vjp(grad).fields, reference.vjp(grad).fields, 1e-12);
      expectClose(estimate.vjp(grad).couplings, reference.vjp(grad).couplings, 1e-12);
    }
  });

  it('should turn sample sets into the estimate of estimateFromSamples', () => {
    const batch = createIsingBatch({
      fields: Float64Array.of(0.1, 0.2),
      couplings: Float64Array.of(0, 0.3, 0, 0),
      spins: [2],
      stride: 2,
    });
    const sets = [
      { spins: 2, states: Int8Array.of(1, 1, -1, 1, -1, -1), weights: Float64Array.of(2, 1, 1) },
    ];
    const estimate = estimateBatch(
      { name: 's', capabilities: caps(), sample: () => ({ kind: 'samples', sets }) },
      batch,
    ) as BatchEstimate;
    expect(estimate.magnetization).toEqual(estimateFromSamples(batch, sets).magnetization);
    expect(Array.from(estimate.magnetization)).toEqual([0, 0.5]);
    const grad = Float64Array.of(1, -2);
    expect(estimate.vjp(grad)).toEqual(estimateFromSamples(batch, sets).vjp(grad));
  });

  it('should refuse batches above the sampler’s spin limit, naming the sampler', () => {
    const batch = randomBatch(1);
    const sampler: Sampler = {
      name: 'tiny',
      capabilities: caps({ maxSpins: 4 }),
      estimate: () => constant(batch, 0),
    };
    expect(() => estimateBatch(sampler, batch)).toThrowError(
      expect.objectContaining({ code: 'ISING_TOO_MANY_SPINS' }),
    );
    expect(() => estimateBatch(sampler, batch)).toThrow(/sampler "tiny" refuses 5 spins \(limit 4/);
  });

  it('should wrap foreign exceptions as ISING_SAMPLER_FAILED with the cause, sync and async', async () => {
    const batch = randomBatch(1);
    const boom = new TypeError('socket closed');
    const syncSampler: Sampler = {
      name: 'flaky',
      capabilities: caps(),
      sample: () => {
        throw boom;
      },
    };
    const asyncSampler: Sampler = {
      name: 'flaky',
      capabilities: caps({ async: true }),
      estimate: () => Promise.reject(boom),
    };
    for (const sampler of [syncSampler, asyncSampler]) {
      let caught: unknown;
      try {
        await estimateBatch(sampler, batch);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(IsingError);
      expect(caught).toMatchObject({ code: 'ISING_SAMPLER_FAILED', cause: boom });
      expect((caught as Error).message).toMatch(/sampler "flaky" failed: socket closed/);
    }
    // A plugin that throws a plain object or a string: readable, never [object Object].
    for (const thrown of [{ reason: 'no licence' }, 'quota exceeded']) {
      const plain: Sampler = {
        name: 'plain',
        capabilities: caps({ async: true }),
        estimate: () => Promise.reject(thrown),
      };
      const error = await Promise.resolve(estimateBatch(plain, batch)).catch((e: unknown) => e);
      expect((error as Error).message).not.toContain('[object Object]');
      expect((error as Error).message).toContain(
        typeof thrown === 'string' ? 'quota exceeded' : '{"reason":"no licence"}',
      );
    }
    const own = new IsingError('ISING_NOT_CONVERGED', 'kept as is');
    expect(
      await codeOf(() =>
        estimateBatch(
          {
            name: 'x',
            capabilities: caps(),
            estimate: () => {
              throw own;
            },
          },
          batch,
        ),
      ),
    ).toBe('ISING_NOT_CONVERGED');
  });

  it('should refuse malformed answers with coded errors', async () => {
    const batch = randomBatch(1);
    const answer = (estimate: unknown): Sampler => ({
      name: 'bad',
      capabilities: caps(),
      estimate: () => estimate as BatchEstimate,
    });
    const answerAsync = (result: unknown): Sampler => ({
      name: 'bad',
      capabilities: caps({ async: true }),
      sample: async () => result as SampleResult,
    });
    expect(
      await codeOf(() =>
        estimateBatch(answer({ ...constant(batch, 0), magnetization: new Float64Array(3) }), batch),
      ),
    ).toBe('ISING_SHAPE_MISMATCH');
    expect(
      await codeOf(() =>
        estimateBatch(answer({ ...constant(batch, 0), magnetization: [0] }), batch),
      ),
    ).toBe('ISING_SHAPE_MISMATCH');
    expect(await codeOf(() => estimateBatch(answer(undefined), batch))).toBe(
      'ISING_SHAPE_MISMATCH',
    );
    expect(await codeOf(() => estimateBatch(answer(constant(batch, Number.NaN)), batch))).toBe(
      'ISING_NOT_FINITE',
    );
    expect(
      await codeOf(() => estimateBatch(answer({ magnetization: new Float64Array(50) }), batch)),
    ).toBe('ISING_SAMPLER_FAILED');
    expect(await codeOf(() => estimateBatch(answerAsync({ kind: 'histogram' }), batch))).toBe(
      'ISING_SAMPLER_FAILED',
    );
    expect(
      await codeOf(() => estimateBatch(answerAsync({ kind: 'samples', sets: [] }), batch)),
    ).toBe('ISING_SHAPE_MISMATCH');
    const oneBadSpin = Array.from({ length: 10 }, (_, q) => ({
      spins: (q % 5) + 1,
      states: new Int8Array((q % 5) + 1).fill(q === 7 ? 0 : 1),
      weights: Float64Array.of(1),
    }));
    expect(
      await codeOf(() => estimateBatch(answerAsync({ kind: 'samples', sets: oneBadSpin }), batch)),
    ).toBe('ISING_BAD_SAMPLES');
    expect(await codeOf(() => estimateBatch({ name: 'empty', capabilities: caps() }, batch))).toBe(
      'ISING_INVALID_PLUGIN',
    );
    expect(await codeOf(() => estimateBatch({ name: 'no-capabilities' } as Sampler, batch))).toBe(
      'ISING_INVALID_PLUGIN',
    );
    expect(await codeOf(() => estimateBatch(undefined as unknown as Sampler, batch))).toBe(
      'ISING_INVALID_PLUGIN',
    );
    const malformed = { ...batch, fields: new Float64Array(3) };
    expect(await codeOf(() => estimateBatch(answer(constant(batch, 0)), malformed))).toBe(
      'ISING_SHAPE_MISMATCH',
    );
  });
});
