// The engine on two threads against one: the same loss and gradients (float32 summation order
// aside) for every variant, with the causal op on each shard (the built-in samplers) or gathered
// on the calling thread (any other), with dropout, an odd batch, a batch smaller than the threads
// and an asynchronous sampler, on the shared arena and its kernels' shared-memory variants.
import {
  exactSampler,
  meanFieldSampler,
  recordConvergence,
  tapSampler,
  transferMatrixSampler,
} from '@boltzmann/ising-core';
import type { ConvergenceSummary, Sampler } from '@boltzmann/ising-core';
import { codeOf } from '@boltzmann/ising-core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { createTransformer } from '../index.js';
import type { TransformerConfig } from '../index.js';
import { createDelayedSampler, createReferenceSampler } from '../testing/referenceSampler.js';
import { gpt, randomTokens } from '../testing/testUtils.js';
import { createEngine } from './engine.js';
import { planCausalOp } from './parallel/causalPlacement.js';
import type { Engine } from './engineApi.js';
import { testEngineBackend } from '../testing/engineBackend.js';

const engines: Engine[] = [];
afterAll(async () => {
  await Promise.all(engines.map((e) => e.dispose()));
});

/** Loss and every gradient on `threads` threads, from the model's initial weights scaled up. */
async function run(config: TransformerConfig, threads: number, b: number, step?: number) {
  const model = createTransformer({ jInitStd: 0.5, ...config });
  const engine = createEngine(model.config, {
    backend: testEngineBackend(),
    sampler: model.sampler,
    threads,
  });
  engines.push(engine);
  for (const p of model.parameters) {
    const values = Float32Array.from(p.variable.dataSync());
    const scale = p.name.endsWith('/kernel') || p.name.startsWith('embedding/') ? 15 : 1;
    engine.view(p.name).set(values.map((x) => x * scale));
  }
  const t = model.config.maxLength;
  const inputs = randomTokens(b * t, model.config.vocabSize, 21);
  const targets = randomTokens(b * t, model.config.outputSize, 22);
  const mask = Float32Array.from({ length: b * t }, (_, i) => (i % 7 === 3 ? 0 : 1));
  const loss = await engine.lossAndGradients({ inputs, batchSize: b, step }, targets, mask);
  const placement = engine.causalPlacement;
  const grads = Object.fromEntries(
    model.parameters.map((p) => [p.name, Float32Array.from(engine.view(p.name, 'grads'))]),
  );
  model.dispose();
  return { loss, grads, placement };
}

async function compare(config: TransformerConfig, b: number, step?: number) {
  const one = await run(config, 1, b, step);
  const two = await run(config, 2, b, step);
  expect(Math.abs(two.loss - one.loss)).toBeLessThan(1e-5 * Math.max(1, one.loss));
  for (const [name, want] of Object.entries(one.grads)) {
    const got = two.grads[name]!;
    const scale = Math.max(1e-3, ...want.map(Math.abs));
    const worst = Math.max(...want.map((x, i) => Math.abs(x - got[i]!)));
    expect(worst / scale, name).toBeLessThan(1e-5);
  }
}

describe('engine on two threads', () => {
  const base = { ...gpt, sampler: createReferenceSampler() };
  for (const variant of ['softmax', 'sigmoid', 'boltzmann', 'coupling'] as const)
    it(`${variant}: one thread's loss and gradients, odd batch`, async () => {
      await compare({ ...base, variant }, 5);
    });

  it('repeats itself bit for bit on a given thread count', async () => {
    const config = { ...base, variant: 'boltzmann' as const, dropout: 0.1 };
    const [a, b] = [await run(config, 2, 5, 4), await run(config, 2, 5, 4)];
    expect(b.loss).toBe(a.loss);
    for (const [name, grad] of Object.entries(a.grads)) expect(b.grads[name], name).toEqual(grad);
  });

  it('with dropout: each shard draws its part of the same masks', async () => {
    await compare({ ...base, variant: 'boltzmann', dropout: 0.2 }, 4, 9);
  });

  it('a batch of one runs on the calling thread alone', async () => {
    await compare({ ...base, variant: 'softmax' }, 1);
  });

  it('an asynchronous sampler is awaited on the calling thread while the workers wait', async () => {
    const sampler = createDelayedSampler(createReferenceSampler());
    await compare({ ...base, variant: 'boltzmann', sampler }, 4);
  });

  it('a sampler that fails stops the workers and rethrows its error; the engine runs on', async () => {
    let fail = true;
    const inner = createReferenceSampler();
    const sampler: Sampler = {
      ...inner,
      name: 'flaky',
      estimate(batch) {
        if (fail) throw new Error('hardware gone');
        return inner.estimate!(batch);
      },
    };
    const model = createTransformer({ ...gpt, variant: 'boltzmann', sampler });
    const engine = createEngine(model.config, {
      backend: testEngineBackend(),
      sampler: model.sampler,
      threads: 2,
    });
    engines.push(engine);
    const inputs = randomTokens(4 * 6, 7, 1);
    const pass = { inputs, batchSize: 4 };
    const mask = new Float32Array(24).fill(1);
    await expect(engine.lossAndGradients(pass, inputs, mask)).rejects.toThrow('hardware gone');
    fail = false;
    expect(Number.isFinite(await engine.lossAndGradients(pass, inputs, mask))).toBe(true);
    model.dispose();
  });

  // The built-in deterministic samplers run on every shard, rebuilt on each thread from their recipe.
  const shardable: [string, Sampler][] = [
    ['exact', exactSampler.create({ threads: 2 })],
    ['mean-field', meanFieldSampler.create({ tolerance: 1e-12 })],
    ['tap', tapSampler.create({ tolerance: 1e-12 })],
    ['transfer-matrix', transferMatrixSampler.create({ bandwidth: 2, precision: 'float32' })],
  ];
  for (const [name, sampler] of shardable)
    it(`${name}: the op on each shard gives one thread's loss and gradients`, async () => {
      const config = { ...base, variant: 'boltzmann' as const, sampler };
      if (name === 'transfer-matrix') Object.assign(config, { couplingForm: 'banded:2' });
      expect((await run(config, 2, 5)).placement).toBe('shards');
      await compare(config, 5);
    });

  it('a sampler error on the shards keeps its code, and the engine runs on', async () => {
    const model = createTransformer({
      ...gpt,
      variant: 'boltzmann',
      sampler: exactSampler.create({ maxSpins: 4 }),
    });
    const engine = createEngine(model.config, {
      backend: testEngineBackend(),
      sampler: model.sampler,
      threads: 2,
    });
    engines.push(engine);
    expect(engine.causalPlacement).toBe('shards');
    const mask = new Float32Array(4 * 6).fill(1);
    const long = { inputs: randomTokens(4 * 6, 7, 3), batchSize: 4 };
    await expect(engine.lossAndGradients(long, long.inputs, mask)).rejects.toMatchObject({
      code: 'ISING_TOO_MANY_SPINS',
    });
    // Four queries of at most four keys each: within the sampler's limit.
    const short = { inputs: randomTokens(4 * 4, 7, 4), batchSize: 4 };
    const loss = await engine.lossAndGradients(short, short.inputs, mask.subarray(0, 16));
    expect(Number.isFinite(loss)).toBe(true);
    model.dispose();
  });

  it('places the op per shard only where the shards give the one op: closed forms and recipes', () => {
    const exact = exactSampler.create();
    const place = (variant: 'softmax' | 'sigmoid' | 'boltzmann', sampler?: Sampler) =>
      planCausalOp(variant, sampler).placement;
    expect(place('softmax')).toBe('shards');
    expect(place('sigmoid')).toBe('shards');
    expect(place('boltzmann', exact)).toBe('shards');
    expect(place('boltzmann', { ...exact })).toBe('calling-thread');
    expect(place('boltzmann', createReferenceSampler())).toBe('calling-thread');
    expect(place('boltzmann', createDelayedSampler(exact))).toBe('calling-thread');
  });

  it('a sampler without a recipe sees the calls and batches of one thread: once per head and layer, every sequence', async () => {
    const sizes: number[][] = [];
    for (const threads of [1, 2]) {
      const inner = createReferenceSampler();
      const seen: number[] = [];
      const sampler: Sampler = {
        ...inner,
        estimate(batch) {
          seen.push(batch.size);
          return inner.estimate!(batch);
        },
      };
      const model = createTransformer({ ...gpt, variant: 'boltzmann', sampler });
      const engine = createEngine(model.config, {
        backend: testEngineBackend(),
        sampler: model.sampler,
        threads,
      });
      engines.push(engine);
      expect(engine.causalPlacement).toBe('calling-thread');
      const inputs = randomTokens(5 * 6, 7, 2);
      await engine.lossAndGradients({ inputs, batchSize: 5 }, inputs, new Float32Array(30).fill(1));
      sizes.push(seen);
      model.dispose();
    }
    expect(sizes[1]).toEqual(sizes[0]);
    expect(sizes[0]).toEqual([30, 30, 30, 30]); // 2 layers × 2 heads, 5 sequences × 6 queries
  });

  it('a recording sampler runs on the shards, and its recorder gets every thread’s figures', async () => {
    const figures = [];
    for (const threads of [1, 2]) {
      const inner = tapSampler.create({ onNonConvergence: 'return', maxIterations: 12 });
      const sampler = recordConvergence(inner);
      const model = createTransformer({ ...gpt, variant: 'boltzmann', sampler, jInitStd: 0.8 });
      const engine = createEngine(model.config, {
        backend: testEngineBackend(),
        sampler: model.sampler,
        threads,
      });
      engines.push(engine);
      expect(engine.causalPlacement).toBe('shards');
      for (const p of model.parameters) engine.view(p.name).set(p.variable.dataSync());
      const inputs = randomTokens(5 * 6, 7, 3);
      const mask = new Float32Array(30).fill(1);
      await engine.lossAndGradients({ inputs, batchSize: 5 }, inputs, mask);
      figures.push(sampler.drain()!);
      model.dispose();
    }
    const [one, two] = figures as [ConvergenceSummary, ConvergenceSummary];
    expect(one.calls).toBe(4); // 2 layers × 2 heads
    expect(two.calls).toBe(8); // … on each of the two shards
    for (const key of ['problems', 'missed', 'maxIterations', 'maxResidual'] as const)
      expect(two[key], key).toBe(one[key]);
    expect(two.meanIterations).toBeCloseTo(one.meanIterations, 12);
    expect(one.problems).toBe(5 * 6 * 4);
  });

  it('a larger batch after a smaller one grows the shared arena, and the workers see it', async () => {
    const model = createTransformer({ ...gpt, variant: 'softmax' });
    const results: number[][] = [];
    for (const threads of [1, 2]) {
      const engine = createEngine(model.config, { backend: testEngineBackend(), threads });
      engines.push(engine);
      for (const p of model.parameters) engine.view(p.name).set(p.variable.dataSync());
      const losses: number[] = [];
      for (const b of [3, 40, 7]) {
        const inputs = randomTokens(b * 6, 7, b);
        const mask = new Float32Array(b * 6).fill(1);
        losses.push(await engine.lossAndGradients({ inputs, batchSize: b }, inputs, mask));
      }
      results.push(losses);
    }
    model.dispose();
    results[1]!.forEach((loss, i) => expect(loss).toBeCloseTo(results[0]![i]!, 5));
  });

  it('refuses a bad thread count with a code', () => {
    const config = createTransformer({ ...gpt, variant: 'softmax' });
    for (const threads of [0, 1.5, 65])
      expect(
        codeOf(() => createEngine(config.config, { threads, backend: testEngineBackend() })),
      ).toBe('ATTENTION_INVALID_ARGUMENT');
    config.dispose();
  });
});
