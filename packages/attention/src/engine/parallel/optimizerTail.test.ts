// The optimizer's tail on every thread: the ranges cover the parameter buffer exactly once, and a
// trainer on 2 or 3 threads (one worker without a shard) takes the steps, norms and weights of one
// thread; a pass the calling thread aborts while a worker waits to sum its range ends cleanly.
import { threadInfo } from '@boltzmann/ising-core';
import { afterAll, describe, expect, it } from 'vitest';
import { createTransformer, engineModelOf, resolveTransformerConfig } from '../../index.js';
import { gpt, patternBatch } from '../../testing/testUtils.js';
import { createArena } from '../arena.js';
import { createEngineTrainer } from '../engineTrainer.js';
import { planParams } from '../layout.js';
import { threadRuns } from './optimizerTail.js';
import { startEngineWorkers } from './workerPool.js';
import type { EngineWorkers } from './workerPool.js';
import { testEngineBackend } from '../../testing/engineBackend.js';

const started: EngineWorkers[] = [];
afterAll(async () => {
  await Promise.all(started.map((w) => w.dispose()));
});

describe("the optimizer's tail on every thread", () => {
  it('the threads’ runs cover every float once, cut at multiples of 4, each inside one slot', () => {
    const configs = [
      { ...gpt, variant: 'softmax' as const },
      { ...gpt, variant: 'boltzmann' as const, bias: false, couplingForm: 'banded:2' as const },
      { vocabSize: 5, maxLength: 3, dModel: 4, heads: 1, variant: 'coupling' as const },
    ];
    for (const config of configs) {
      const params = planParams(resolveTransformerConfig(config));
      for (let threads = 1; threads <= 7; threads++) {
        const runs = threadRuns(params, threads);
        expect(runs).toHaveLength(threads);
        const covered = new Int8Array(params.size);
        const sizes = runs.map((own) => own.reduce((n, r) => n + r.size, 0));
        for (const r of runs.flat()) {
          expect(r.offset % 4).toBe(0);
          const slot = params.slots.find(
            (s) => s.offset <= r.offset && r.offset + r.size <= s.offset + s.size,
          );
          expect(slot?.decay).toBe(r.decay);
          for (let i = r.offset; i < r.offset + r.size; i++) covered[i]! += 1;
        }
        for (const s of params.slots)
          for (let i = s.offset; i < s.offset + s.size; i++) expect(covered[i]).toBe(1);
        const real = params.slots.reduce((n, s) => n + s.size, 0);
        expect(sizes.reduce((a, b) => a + b, 0)).toBe(real);
        // Even shares: the cuts fall at most a slot's padding (3 floats) from the exact share.
        for (const size of sizes) expect(size).toBeLessThanOrEqual(params.size / threads + 4);
      }
    }
  });

  // The engine refuses more threads than cores (issue 38), so 3 threads run only where 3 cores are;
  // on 2, a batch of 1 leaves the one worker without a shard.
  const threadCounts = threadInfo().cores >= 3 ? [2, 3] : [2];
  it('2 and 3 threads (a batch of 1 or 2: one worker without a shard) train as one: losses, norms, weights', async () => {
    const config = { ...gpt, variant: 'softmax' as const, dropout: 0.1 };
    const run = async (threads: number, batch: number) => {
      const model = createTransformer(config);
      const trainer = createEngineTrainer(engineModelOf(model), {
        backend: testEngineBackend(),
        totalSteps: 5,
        lr: 1e-2,
        threads,
      });
      const steps = [];
      for (let s = 0; s < 5; s++) steps.push(await trainer.step(patternBatch(batch, 30 + s)));
      const { kernels, params, buffers } = trainer.engine;
      const norm = kernels.gradientNorm(params.slots, buffers.grads);
      expect(trainer.engine.gradientNorm()).toBeCloseTo(norm, 10);
      const weights = model.toJSON().weights;
      trainer.dispose();
      model.dispose();
      return { steps, weights };
    };
    for (const batch of [1, 2, 5]) {
      const one = await run(1, batch);
      for (const threads of threadCounts) {
        const many = await run(threads, batch);
        for (const [s, step] of one.steps.entries()) {
          expect(many.steps[s]!.loss).toBeCloseTo(step.loss, 5);
          expect(many.steps[s]!.gradNorm / step.gradNorm).toBeCloseTo(1, 5);
        }
        for (const [name, { data }] of Object.entries(one.weights)) {
          const got = many.weights[name]!.data;
          const worst = Math.max(...data.map((x, i) => Math.abs(x - got[i]!)));
          expect(worst, `${threads} threads, batch ${batch}: ${name}`).toBeLessThan(1e-5);
        }
      }
    }
  });

  it('an abort while a worker waits to sum its range ends the pass; the next one runs', async () => {
    const config = resolveTransformerConfig({ ...gpt, variant: 'softmax' });
    const p = planParams(config).size;
    const memory = createArena(5 * p + 65536, { shared: true });
    const workers = await startEngineWorkers(memory, config, 2);
    started.push(workers);
    // The worker runs its shard, then waits for the calling thread's gradients, which never come.
    workers.issue({ batch: 4, length: 6, step: undefined });
    workers.abort();
    expect(() => workers.finish()).toThrow(/engine worker 1 failed: pass aborted/);
    // The next pass: the calling thread's (empty) gradients are done at once.
    workers.issue({ batch: 4, length: 6, step: undefined });
    workers.gradientsDone();
    workers.awaitGradients();
    expect(() => workers.finish()).not.toThrow();
    expect(Number.isFinite(workers.squares(1))).toBe(true);
  });
});
