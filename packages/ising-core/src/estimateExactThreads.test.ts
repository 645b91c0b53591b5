import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import {
  causalBatch,
  createRng,
  disposeExactWorkers,
  estimateExact,
  estimateExactAsync,
  exactSampler,
  setWorkerFactory,
  startThreads,
  threadInfo,
} from './index.js';
import { autoThreadCount, resetThreadCapWarning } from './internal/pool/threadCount.js';
import { sharedPoolSize } from './internal/pool/sharedPool.js';
import { codeOf } from './testing/thrownErrors.js';
import { withoutNodeBuiltins } from './testing/index.js';

// 6 problems: before the cap, `threads: 1e6` started one worker per problem (586 on a real batch).
function smallBatch() {
  const rng = createRng(3);
  return causalBatch(
    Float64Array.from({ length: 2 * 9 }, () => rng.normal()),
    Float64Array.from({ length: 9 }, () => rng.normal() * 0.5),
    { batch: 2, length: 3 },
  );
}

afterEach(() => vi.restoreAllMocks());
afterAll(() => disposeExactWorkers());

describe('threads option', () => {
  it('caps threads: 1e6 at the core count, quickly, with one warning, and gives the one-thread answer', async () => {
    resetThreadCapWarning();
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const batch = smallBatch();
    const grad = Float64Array.from({ length: batch.fields.length }, (_, i) => Math.cos(i));
    const one = estimateExact(batch, { threads: 1 });
    const started = performance.now();
    const async = await estimateExactAsync(batch, { threads: 1e6 });
    expect(sharedPoolSize()).toBeLessThanOrEqual(autoThreadCount());
    expect(sharedPoolSize()).toBeGreaterThan(0);
    // The public view of the same pool.
    expect(threadInfo()).toEqual({
      live: sharedPoolSize(),
      available: true,
      cores: autoThreadCount(),
    });
    const sync = estimateExact(batch, { threads: 1e6 });
    expect(sharedPoolSize()).toBeLessThanOrEqual(autoThreadCount());
    expect(Array.from(async.magnetization)).toEqual(Array.from(one.magnetization));
    expect(Array.from(sync.magnetization)).toEqual(Array.from(one.magnetization));
    expect(Array.from((await async.vjp(grad)).fields)).toEqual(Array.from(one.vjp(grad).fields));
    const sampled = exactSampler.create({ threads: 1e6 }).estimate!(batch);
    expect(Array.from((sampled as { magnetization: Float64Array }).magnetization)).toEqual(
      Array.from(one.magnetization),
    );
    expect(sharedPoolSize()).toBeLessThanOrEqual(autoThreadCount());
    expect(performance.now() - started).toBeLessThan(15_000);
    if (autoThreadCount() < 1e6) {
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]![0])).toMatch(
        /threads: 1000000 is more than the \d+ cores available/,
      );
      expect(warn.mock.calls[0]![1]).toMatchObject({ code: 'ISING_THREADS_CAPPED' });
    }
  }, 30_000);

  it('rejects non-positive and non-integer thread counts with ISING_INVALID_ARGUMENT', async () => {
    const batch = smallBatch();
    for (const threads of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '2', null]) {
      expect(codeOf(() => estimateExact(batch, { threads: threads as number }))).toBe(
        'ISING_INVALID_ARGUMENT',
      );
      expect(codeOf(() => exactSampler.create({ threads: threads as number }))).toBe(
        'ISING_INVALID_ARGUMENT',
      );
      await expect(estimateExactAsync(batch, { threads: threads as number })).rejects.toMatchObject(
        { code: 'ISING_INVALID_ARGUMENT' },
      );
    }
    expect(() => exactSampler.create({ threads: 'x'.repeat(10_000) as unknown as number })).toThrow(
      /^exact sampler: threads must be 'auto' or a positive integer, got "x+… \(9,8\d\d more characters\)$/,
    );
  });
});

describe('threadInfo', () => {
  it('says workers are unavailable where there are no worker threads (a browser)', async () => {
    await withoutNodeBuiltins(
      () => expect(threadInfo().available).toBe(false),
      ['node:worker_threads'],
    );
    expect(threadInfo().available).toBe(true);
  });
});

describe('startThreads', () => {
  it('starts threads − 1 workers before any call and reports them live', async () => {
    await disposeExactWorkers();
    expect(threadInfo().live).toBe(0);
    const info = await startThreads(2);
    expect(info).toEqual({
      live: Math.min(2, autoThreadCount()) - 1,
      available: true,
      cores: autoThreadCount(),
    });
    expect(await startThreads(1)).toEqual(info);
  });

  it('resolves with nothing live where workers cannot run, and rejects a bad count with ISING_INVALID_ARGUMENT', async () => {
    await disposeExactWorkers();
    await withoutNodeBuiltins(
      async () => expect(await startThreads(2)).toMatchObject({ live: 0, available: false }),
      ['node:worker_threads'],
    );
    for (const threads of [0, 1.5, Number.NaN, '2', null]) {
      await expect(startThreads(threads as number)).rejects.toMatchObject({
        code: 'ISING_INVALID_ARGUMENT',
      });
    }
  });

  it('setWorkerFactory takes a function or undefined', () => {
    expect(codeOf(() => setWorkerFactory('worker.js' as unknown as () => never))).toBe(
      'ISING_INVALID_ARGUMENT',
    );
    expect(() => setWorkerFactory(undefined)).not.toThrow();
  });
});
