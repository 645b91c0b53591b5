import { afterAll, describe, expect, it } from 'vitest';
import { exactForward } from '../kernels/exactKernel.js';
import type { ExactForwardResult, ExactProblems } from '../kernels/exactKernel.js';
import { runOnWorkers, runOnWorkersSync } from './sharedPool.js';
import { ExactWorkerPool } from './workerPool.js';
import type { WorkerTask } from './poolMessages.js';

const problems = (): ExactProblems => ({
  stride: 3,
  beta: 1,
  couplings: Float64Array.of(0, 0.4, -0.2, 0, 0, 0.7, 0, 0, 0),
  spins: Int32Array.of(3, 2),
  fields: Float64Array.of(0.1, -0.3, 0.5, 0.2, 0.9, 0),
});

const pools: ExactWorkerPool[] = [];
afterAll(() => Promise.all(pools.map((p) => p.dispose())));

describe('ExactWorkerPool', () => {
  it('runs kernels on worker threads and gives the single-thread answer', async () => {
    const pool = new ExactWorkerPool();
    pools.push(pool);
    const [r] = (await runOnWorkers(
      [{ kind: 'forward', problems: problems() }],
      pool,
    )) as ExactForwardResult[];
    expect(pool.unavailable).toBe(false);
    expect(Array.from(r!.up)).toEqual(Array.from(exactForward(problems()).up));
  });

  it('turns a failure inside a worker into ISING_WORKER_FAILED', async () => {
    const pool = new ExactWorkerPool();
    pools.push(pool);
    // An unknown task kind makes the worker's kernel call throw inside the worker.
    const bogus = { kind: 'unknown', problems: problems() } as unknown as WorkerTask;
    await expect(runOnWorkers([bogus], pool)).rejects.toMatchObject({
      name: 'IsingError',
      code: 'ISING_WORKER_FAILED',
    });
    // The worker survives a failed task.
    const [r] = (await runOnWorkers(
      [{ kind: 'forward', problems: problems() }],
      pool,
    )) as ExactForwardResult[];
    expect(r!.up.length).toBe(6);
  });

  it('falls back to the calling thread when a worker cannot start', async () => {
    const pool = new ExactWorkerPool({ url: new URL('./doesNotExist.mjs', import.meta.url) });
    pools.push(pool);
    const [r] = (await runOnWorkers(
      [{ kind: 'forward', problems: problems() }],
      pool,
    )) as ExactForwardResult[];
    expect(pool.unavailable).toBe(true);
    expect(Array.from(r!.up)).toEqual(Array.from(exactForward(problems()).up));
  });

  it('runs synchronously through shared memory, and reports failures synchronously', () => {
    const pool = new ExactWorkerPool();
    pools.push(pool);
    const [a, b] = runOnWorkersSync(
      [
        { kind: 'forward', problems: problems() },
        { kind: 'forward', problems: problems() },
      ],
      pool,
    ) as ExactForwardResult[];
    expect(pool.unavailable).toBe(false);
    expect(Array.from(b!.up)).toEqual(Array.from(a!.up));
    expect(Array.from(b!.logZ)).toEqual(Array.from(exactForward(problems()).logZ));
    const bogus = { kind: 'unknown', problems: problems() } as unknown as WorkerTask;
    expect(() =>
      runOnWorkersSync([{ kind: 'forward', problems: problems() }, bogus], pool),
    ).toThrow(expect.objectContaining({ name: 'IsingError', code: 'ISING_WORKER_FAILED' }));
  });

  it('falls back quickly in synchronous calls when a worker cannot start', () => {
    const pool = new ExactWorkerPool({ url: new URL('./doesNotExist.mjs', import.meta.url) });
    pools.push(pool);
    const started = Date.now();
    const [, b] = runOnWorkersSync(
      [
        { kind: 'forward', problems: problems() },
        { kind: 'forward', problems: problems() },
      ],
      pool,
    ) as ExactForwardResult[];
    expect(pool.unavailable).toBe(true);
    expect(Array.from(b!.up)).toEqual(Array.from(exactForward(problems()).up));
    // The failed start-up is signalled through shared memory, not by the 20 s start-up time-out.
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});
