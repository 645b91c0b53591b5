import { afterAll, describe, expect, it } from 'vitest';
import {
  causalBatch,
  createIsingBatch,
  createRng,
  meanFieldSampler,
  tapSampler,
  transferMatrixSampler,
} from './index.js';
import type { BatchEstimate, IsingBatch, IsingGradients, Sampler } from './index.js';
import { fixedPointEstimate, readFixedPointOptions } from './internal/fixedPointEstimate.js';
import { KEPT_ESTIMATES } from './internal/pool/samplerTasks.js';
import { splitRanges } from './internal/pool/splitRanges.js';
import { threadedEstimate } from './internal/pool/threadedEstimate.js';
import { disposeWorkerPool, sharedPool, sharedPoolSize } from './internal/pool/sharedPool.js';
import { ExactWorkerPool } from './internal/pool/workerPool.js';

afterAll(() => disposeWorkerPool());

const BAND = 4;

/** Dense weak couplings for the fixed points; couplings within `BAND` for the transfer matrix. */
function couplingsFor(sampler: string, stride: number, seed: number): Float64Array {
  const rng = createRng(seed);
  const J = new Float64Array(stride * stride);
  for (let j = 0; j < stride; j++) {
    for (let k = j + 1; k < stride; k++) {
      if (sampler === 'transfer-matrix' && k - j > BAND) continue;
      J[j * stride + k] = (rng.normal() * 0.3) / Math.sqrt(stride);
    }
  }
  return J;
}

function causal(sampler: string, batch: number, length: number, seed: number): IsingBatch {
  const rng = createRng(seed);
  const fields = Float64Array.from({ length: batch * length * length }, () => rng.normal());
  return causalBatch(fields, couplingsFor(sampler, length, seed + 1), { batch, length });
}

function uneven(sampler: string, seed: number): IsingBatch {
  const spins = [30, 5, 17, 3, 40, 9, 22, 1, 35];
  const stride = 40;
  const rng = createRng(seed);
  const fields = Float64Array.from({ length: spins.length * stride }, () => rng.normal());
  return createIsingBatch({
    fields,
    couplings: couplingsFor(sampler, stride, seed + 1),
    spins,
    stride,
  });
}

const plugins = {
  'mean-field': (threads: number | 'auto', extra = {}) =>
    meanFieldSampler.create({ threads, tolerance: 1e-12, ...extra }),
  tap: (threads: number | 'auto', extra = {}) =>
    tapSampler.create({ threads, tolerance: 1e-12, ...extra }),
  'transfer-matrix': (threads: number | 'auto') =>
    transferMatrixSampler.create({ threads, bandwidth: BAND }),
} as const;

function run(sampler: Sampler, batch: IsingBatch): BatchEstimate {
  return sampler.estimate!(batch) as BatchEstimate;
}

function gradFor(batch: IsingBatch, seed: number): Float64Array {
  const rng = createRng(seed);
  return Float64Array.from({ length: batch.size * batch.stride }, () => rng.normal());
}

function expectSame(one: BatchEstimate, two: BatchEstimate, batch: IsingBatch): void {
  // Bit-identical: the same kernels on the same problems, only on another thread.
  expect(Array.from(two.magnetization)).toEqual(Array.from(one.magnetization));
  const logZ = (e: BatchEstimate): Float64Array | undefined =>
    (e as { logPartition?: Float64Array }).logPartition;
  if (logZ(one) !== undefined) expect(Array.from(logZ(two)!)).toEqual(Array.from(logZ(one)!));
  expect(two.diagnostics).toEqual(one.diagnostics);
  const g = gradFor(batch, 99);
  const a = one.vjp(g) as IsingGradients & { diagnostics?: unknown };
  const b = two.vjp(g) as IsingGradients & { diagnostics?: unknown };
  expect(Array.from(b.fields)).toEqual(Array.from(a.fields));
  expect(b.diagnostics).toEqual(a.diagnostics);
  // ∂L/∂J sums per-thread partials: equal up to summation order.
  let scale = 0;
  let diff = 0;
  for (let i = 0; i < a.couplings.length; i++) {
    scale = Math.max(scale, Math.abs(a.couplings[i]!));
    diff = Math.max(diff, Math.abs(a.couplings[i]! - b.couplings[i]!));
  }
  expect(scale).toBeGreaterThan(0);
  expect(diff).toBeLessThanOrEqual(1e-12 * scale);
}

describe('threaded mean-field, tap and transfer-matrix', () => {
  for (const name of ['mean-field', 'tap', 'transfer-matrix'] as const) {
    it(`${name}: threads 2 equals threads 1 on a causal batch 4 × 48 and on an uneven non-causal batch`, () => {
      for (const batch of [causal(name, 4, 48, 3), uneven(name, 5)]) {
        expectSame(run(plugins[name](1), batch), run(plugins[name](2), batch), batch);
      }
      expect(sharedPoolSize()).toBeGreaterThan(0);
    });
  }

  it('keeps warm starts on one thread (cuts only between sequences), so warm-started runs are equal too', () => {
    const batch = causal('tap', 4, 48, 7);
    expectSame(
      run(plugins.tap(1, { warmStart: true }), batch),
      run(plugins.tap(2, { warmStart: true }), batch),
      batch,
    );
    const ranges = splitRanges('tap', batch.spins, 2, true);
    expect(ranges.map(([from]) => from % 48)).toEqual([0, 0]);
  });

  it('splits by cost into contiguous ranges', () => {
    const spins = Int32Array.from({ length: 64 }, (_, q) => (q % 32) + 1);
    expect(splitRanges('transfer-matrix', spins, 2, false)).toEqual([
      [0, 32],
      [32, 64],
    ]);
    const [[, cut]] = splitRanges(
      'mean-field',
      Int32Array.of(70, 70, 1, 1, 1, 1, 100),
      2,
      false,
    ) as [[number, number]];
    expect(cut).toBe(6); // Σ n² before the cut 9804 of 19804
  });

  it('refuses a VJP whose worker-side state was freed, with a coded error naming the fix', () => {
    const sampler = plugins['mean-field'](2);
    const batch = causal('mean-field', 2, 24, 11);
    const first = run(sampler, batch);
    // A 4-layer, 4-head step makes 16 estimates before its first VJP: all of them must survive.
    const step = Array.from({ length: 15 }, () => run(sampler, batch));
    for (const e of [...step].reverse()) expect(() => e.vjp(gradFor(batch, 1))).not.toThrow();
    for (let i = 0; i < KEPT_ESTIMATES - 15; i++) run(sampler, batch);
    expect(() => first.vjp(gradFor(batch, 1))).toThrow(
      expect.objectContaining({
        name: 'IsingError',
        code: 'ISING_INVALID_ARGUMENT',
        message: expect.stringMatching(/freed.*threads: 1/),
      }),
    );
  });

  it('turns a dead worker into ISING_WORKER_FAILED instead of hanging, and recovers on the next estimate', async () => {
    const sampler = plugins['transfer-matrix'](2);
    const batch = causal('transfer-matrix', 2, 24, 13);
    const est = run(sampler, batch);
    await sharedPool().terminateWorker(0);
    const started = Date.now();
    expect(() => est.vjp(gradFor(batch, 2))).toThrow(
      expect.objectContaining({ name: 'IsingError', code: 'ISING_WORKER_FAILED' }),
    );
    expect(Date.now() - started).toBeLessThan(5000);
    expectSame(run(plugins['transfer-matrix'](1), batch), run(sampler, batch), batch);
  });

  it('keeps the sampler error codes of a worker', () => {
    // Problem 0 is tiny and converges on the calling thread; the worker's long problem does not.
    const rng = createRng(17);
    const stride = 40;
    const fields = Float64Array.from({ length: 2 * stride }, () => rng.normal());
    const batch = createIsingBatch({
      fields,
      couplings: couplingsFor('tap', stride, 18),
      spins: [1, 40],
      stride,
    });
    const sampler = tapSampler.create({ threads: 2, maxIterations: 2, onNonConvergence: 'throw' });
    expect(() => run(sampler, batch)).toThrow(
      expect.objectContaining({
        code: 'ISING_NOT_CONVERGED',
        message: expect.stringMatching(
          /problem 0 \(40 spins\).*running problems 1–1; problem numbers above count from 1/,
        ),
      }),
    );
  });

  it('validates threads like the exact sampler', () => {
    for (const bad of [0, -1, 1.5, 'two', null]) {
      for (const create of [
        meanFieldSampler.create,
        tapSampler.create,
        transferMatrixSampler.create,
      ]) {
        expect(() => create({ threads: bad as number })).toThrow(
          expect.objectContaining({
            code: 'ISING_INVALID_ARGUMENT',
            message: expect.stringMatching(/threads/),
          }),
        );
      }
    }
    expect(() => meanFieldSampler.create({ threads: 'auto' })).not.toThrow();
  });

  it('falls back to the calling thread, with one warning, when workers cannot start', async () => {
    const warnings: string[] = [];
    const listen = (w: Error & { code?: string }): void => void warnings.push(w.code ?? '');
    process.on('warning', listen);
    try {
      const pool = new ExactWorkerPool({ url: new URL('./doesNotExist.mjs', import.meta.url) });
      const settings = readFixedPointOptions('tap', {});
      const single = (b: IsingBatch): BatchEstimate => fixedPointEstimate('tap', b, settings);
      const spec = {
        sampler: 'tap',
        options: settings,
        threads: 2,
        autoMinCost: 0,
        keepSequences: false,
        single,
        pool,
      } as const;
      const batch = causal('tap', 2, 24, 19);
      expectSame(single(batch), threadedEstimate(spec, batch), batch);
      expectSame(single(batch), threadedEstimate(spec, batch), batch);
      expect(pool.unavailable).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(warnings.filter((c) => c === 'ISING_THREADS_UNAVAILABLE')).toHaveLength(1);
      await pool.dispose();
    } finally {
      process.off('warning', listen);
    }
  });
});
