import { threadInfo } from '@boltzmann/ising-core';
import { codeOf } from '@boltzmann/ising-core/testing';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTrainer, createTransformer, engineModelOf, initBackend } from '../index.js';
import type { Transformer, TransformerConfig } from '../index.js';
import { checkLrScale } from '../testing/lrScaleChecks.js';
import { createDelayedSampler, createReferenceSampler } from '../testing/referenceSampler.js';
import { gpt, patternBatch } from '../testing/testUtils.js';
import { createEngineTrainer } from './engineTrainer.js';
import type { EngineTrainerOptions } from './engineTrainer.js';
import { testEngineBackend } from '../testing/engineBackend.js';

/** The engine's trainer of a tfjs model, in createTrainer's shape. */
const onEngine = (model: Transformer, options: EngineTrainerOptions) =>
  createEngineTrainer(engineModelOf(model), { backend: testEngineBackend(), ...options });

/**
 * The losses of `steps` steps of the tfjs trainer and of the engine's, from the same model, the
 * learning rate scaled by `scale` from step `scaleFrom` on.
 */
async function losses(config: TransformerConfig, steps: number, scaleFrom = steps, scale = 1) {
  const run = async (engine: boolean) => {
    const model = createTransformer(config);
    const options = { totalSteps: steps, lr: 1e-2, warmupSteps: 2 };
    const trainer = engine ? onEngine(model, options) : createTrainer(model, options);
    const out: number[] = [];
    for (let s = 0; s < steps; s++) {
      if (s === scaleFrom) trainer.lrScale = scale;
      out.push((await trainer.step(patternBatch(4, 50 + s))).loss);
    }
    const weights = model.toJSON().weights;
    model.dispose();
    return { out, weights };
  };
  return { tfjs: await run(false), engine: await run(true) };
}

describe('the engine trainer', () => {
  beforeAll(async () => {
    await initBackend('cpu', { log: () => {} });
  });

  for (const variant of ['softmax', 'boltzmann'] as const)
    it(`${variant}: the tfjs trainer's losses and final weights over 8 steps (with dropout)`, async () => {
      const config = { ...gpt, variant, sampler: createReferenceSampler(), dropout: 0.1 };
      const { tfjs, engine } = await losses(config, 8);
      for (let s = 0; s < 8; s++) expect(engine.out[s]).toBeCloseTo(tfjs.out[s]!, 4);
      for (const [name, { data }] of Object.entries(tfjs.weights)) {
        const got = engine.weights[name]!.data;
        const worst = Math.max(...data.map((x, i) => Math.abs(x - got[i]!)));
        expect(worst, name).toBeLessThan(1e-4);
      }
    });

  it("a lowered lrScale takes effect in the engine's AdamW as in the tfjs trainer's", async () => {
    const config = { ...gpt, variant: 'softmax' as const };
    const { tfjs, engine } = await losses(config, 8, 3, 0.05);
    const plain = await losses(config, 8);
    for (let s = 0; s < 8; s++) expect(engine.out[s]).toBeCloseTo(tfjs.out[s]!, 4);
    // Steps 0–3 see the same weights either way; from step 4 on the lowered rate shows.
    expect(engine.out.slice(0, 4)).toEqual(plain.engine.out.slice(0, 4));
    expect(Math.abs(engine.out[7]! - plain.engine.out[7]!)).toBeGreaterThan(1e-3);
    const model = createTransformer(config);
    await checkLrScale(
      () => onEngine(model, { totalSteps: 10, warmupSteps: 2 }),
      patternBatch(4, 9),
    );
    model.dispose();
  });

  // Issue 40: a run is deterministic for a given backend (BOLTZMANN_ENGINE_BACKEND) and thread count.
  const counts = threadInfo().cores >= 2 ? [1, 2] : [1];
  for (const threads of counts)
    it(`a run repeats itself bit for bit on ${threads} thread${threads > 1 ? 's' : ''}: losses, norms, weights`, async () => {
      const config = {
        ...gpt,
        variant: 'boltzmann' as const,
        sampler: createReferenceSampler(),
        dropout: 0.1,
      };
      const run = async () => {
        const model = createTransformer(config);
        const trainer = onEngine(model, { totalSteps: 4, lr: 1e-2, threads });
        try {
          const steps = [];
          for (let s = 0; s < 4; s++) steps.push(await trainer.step(patternBatch(4, 50 + s)));
          return { steps: steps.map((r) => [r.loss, r.gradNorm]), weights: trainer.weights() };
        } finally {
          trainer.dispose();
          model.dispose();
        }
      };
      const [a, b] = [await run(), await run()];
      expect(b.steps).toEqual(a.steps);
      for (const [name, w] of Object.entries(a.weights)) expect(b.weights[name], name).toEqual(w);
    });

  it('an asynchronous sampler is awaited in the middle of the pass', async () => {
    const config = { ...gpt, variant: 'boltzmann' as const, sampler: createReferenceSampler() };
    const sync = await losses(config, 3);
    const delayed = await losses(
      { ...config, sampler: createDelayedSampler(createReferenceSampler()) },
      3,
    );
    expect(delayed.engine.out).toEqual(sync.engine.out);
  });

  it('state and restore continue a run exactly; a bad state is refused with a code', async () => {
    const config = { ...gpt, variant: 'softmax' as const };
    const model = createTransformer(config);
    const trainer = onEngine(model, { totalSteps: 6 });
    for (let s = 0; s < 3; s++) await trainer.step(patternBatch(4, s));
    const state = trainer.state();
    const saved = model.toJSON();
    const next = (await trainer.step(patternBatch(4, 3))).loss;
    const resumedModel = createTransformer(config);
    for (const p of resumedModel.parameters)
      p.variable.assign(tf.tensor(saved.weights[p.name]!.data as number[], p.variable.shape));
    const resumed = onEngine(resumedModel, { totalSteps: 6 });
    resumed.restore(state);
    expect(resumed.stepCount).toBe(3);
    expect((await resumed.step(patternBatch(4, 3))).loss).toBe(next);
    expect(codeOf(() => resumed.restore({ ...state, moments: {} }))).toBe(
      'ATTENTION_INVALID_CHECKPOINT',
    );
    for (const m of [model, resumedModel]) m.dispose();
  });

  it('takes a model as its config and weights: the losses of the tfjs model they came from, weights() and onSync hand back the trained weights, and weights that do not fit are refused', async () => {
    const model = createTransformer({ ...gpt, variant: 'softmax' });
    const json = model.toJSON();
    const weights = Object.fromEntries(
      Object.entries(json.weights).map(([name, w]) => [name, Float32Array.from(w.data)]),
    );
    let synced: Readonly<Record<string, Float32Array>> = {};
    const onSync = (w: typeof synced) => {
      synced = w;
    };
    const plain = createEngineTrainer(
      { config: json.config, weights, onSync },
      { totalSteps: 4, backend: testEngineBackend() },
    );
    const viaTfjs = onEngine(model, { totalSteps: 4 });
    for (let s = 0; s < 2; s++) {
      const { loss } = await plain.step(patternBatch(4, s));
      expect(loss).toBe((await viaTfjs.step(patternBatch(4, s))).loss);
    }
    const trained = model.toJSON().weights;
    for (const [name, w] of Object.entries(plain.weights())) {
      expect(Array.from(w), name).toEqual(trained[name]!.data);
      expect(synced[name], name).toEqual(w);
    }
    const refused = (w: Record<string, ArrayLike<number>>) =>
      codeOf(() =>
        createEngineTrainer(
          { config: json.config, weights: w },
          { totalSteps: 1, backend: testEngineBackend() },
        ),
      );
    expect(refused({ ...weights, extra: [1] })).toBe('ATTENTION_INVALID_ARGUMENT');
    const [first] = Object.keys(weights);
    expect(refused({ ...weights, [first!]: [1] })).toBe('ATTENTION_INVALID_ARGUMENT');
    const missing = { ...weights };
    delete missing[first!];
    expect(refused(missing)).toBe('ATTENTION_INVALID_ARGUMENT');
    for (const t of [plain, viaTfjs]) t.dispose();
    model.dispose();
  });

  it('a tfjs checkpoint resumes on the engine and an engine checkpoint on tfjs, to float32 rounding', async () => {
    const config = { ...gpt, variant: 'softmax' as const };
    const options = { totalSteps: 8, lr: 1e-2 };
    for (const [first, second] of [
      [createTrainer, onEngine],
      [onEngine, createTrainer],
    ] as const) {
      const model = createTransformer(config);
      const trainer = first(model, options);
      for (let s = 0; s < 3; s++) await trainer.step(patternBatch(4, s));
      const saved = { model: model.toJSON(), state: trainer.state() };
      const reference = (await trainer.step(patternBatch(4, 3))).loss;
      const resumedModel = createTransformer(config);
      for (const p of resumedModel.parameters)
        p.variable.assign(
          tf.tensor(saved.model.weights[p.name]!.data as number[], p.variable.shape),
        );
      const resumed = second(resumedModel, options);
      resumed.restore(saved.state);
      expect((await resumed.step(patternBatch(4, 3))).loss).toBeCloseTo(reference, 5);
      for (const t of [trainer, resumed]) t.dispose();
      for (const m of [model, resumedModel]) m.dispose();
    }
  });
});
