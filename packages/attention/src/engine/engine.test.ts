// The engine against the tfjs model it replaces: from the same weights, the same loss and every
// parameter's gradient (float32 tolerance), for every variant, coupling form and model option.
import {
  exactSampler,
  gibbsSampler,
  meanFieldSampler,
  tapSampler,
  threadInfo,
  transferMatrixSampler,
} from '@boltzmann/ising-core';
import type { Sampler } from '@boltzmann/ising-core';
import { codeOf } from '@boltzmann/ising-core/testing';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTransformer, initBackend, maskedCrossEntropy } from '../index.js';
import type { TransformerConfig } from '../index.js';
import { createReferenceSampler } from '../testing/referenceSampler.js';
import { gpt, randomNormal, randomTokens } from '../testing/testUtils.js';
import { createEngine } from './engine.js';
import { gradientErrors, scaleWeights } from '../testing/engineAgainstTfjs.js';
import { testEngineBackend } from '../testing/engineBackend.js';

/** Loss and gradients of tfjs and of the engine on one batch of `b` sequences of length `t`. */
async function compare(
  config: TransformerConfig,
  b: number,
  t: number,
  step?: number,
  /** A fresh sampler for the engine (a seeded stochastic one must start from the same state as the model's). */
  engineSampler?: () => Sampler,
) {
  const model = createTransformer({ jInitStd: 0.5, ...config });
  try {
    // Larger weights than at initialization, so that the attention branch reaches the loss.
    scaleWeights(model, 15);
    const engine = createEngine(model.config, {
      backend: testEngineBackend(),
      sampler: engineSampler?.() ?? model.sampler,
    });
    for (const p of model.parameters) engine.view(p.name).set(p.variable.dataSync());
    const inputs = randomTokens(b * t, model.config.vocabSize, 11);
    const targets = randomTokens(b * t, model.config.outputSize, 12);
    const mask = Float32Array.from({ length: b * t }, (_, i) => (i % 5 === 1 ? 0 : 1 + (i % 3)));
    const pass = step === undefined ? {} : { dropoutStep: step };
    const { value, grads } = tf.variableGrads(
      () => maskedCrossEntropy(model.logits(inputs, b, undefined, pass), targets, mask),
      model.parameters.map((p) => p.variable),
    );
    const loss = await engine.lossAndGradients({ inputs, batchSize: b, step }, targets, mask);
    const reference = value.dataSync()[0]!;
    expect(Math.abs(loss - reference)).toBeLessThan(1e-5 * Math.max(1, Math.abs(reference)));
    const worst = gradientErrors(model, grads, (name) => engine.view(name, 'grads'));
    tf.dispose([value, ...Object.values(grads)]);
    for (const [name, relative] of worst) expect(relative, name).toBeLessThan(5e-5);
  } finally {
    model.dispose();
  }
}

describe('engine against the tfjs model', () => {
  beforeAll(async () => {
    await initBackend('cpu', { log: () => {} });
  });
  const base = { ...gpt, sampler: createReferenceSampler() };

  for (const variant of ['softmax', 'sigmoid', 'boltzmann', 'coupling'] as const)
    it(`${variant}: loss and every gradient, 2 layers × 2 heads, T < maxLength`, async () => {
      await compare({ ...base, variant }, 3, 5);
    });

  // Every deterministic sampler family through the one causal op, in both paths.
  const families: [string, () => Sampler][] = [
    ['exact', () => exactSampler.create({})],
    ['transfer-matrix', () => transferMatrixSampler.create({ bandwidth: 5 })],
    ['tap', () => tapSampler.create({})],
    ['mean-field', () => meanFieldSampler.create({})],
  ];
  for (const [name, create] of families)
    it(`boltzmann with the ${name} sampler`, async () => {
      await compare({ ...base, variant: 'boltzmann', sampler: create() }, 2, 6);
    });

  it('boltzmann with a seeded stochastic sampler (Gibbs): the same draws, the same gradients', async () => {
    const gibbs = () => gibbsSampler.create({ seed: 3, chains: 2, samples: 200 });
    await compare({ ...base, variant: 'boltzmann', sampler: gibbs() }, 2, 5, undefined, gibbs);
  });

  for (const couplingForm of ['relative', 'banded:2'] as const)
    it(`boltzmann with ${couplingForm} couplings`, async () => {
      await compare({ ...base, variant: 'boltzmann', couplingForm }, 2, 6);
    });

  it('without biases, with a tied head and no positions', async () => {
    await compare(
      { ...base, variant: 'softmax', bias: false, tieEmbeddings: true, positions: 'none' },
      2,
      6,
    );
  });

  it('a tied head with biases, without FFN, one layer and head', async () => {
    await compare(
      { ...base, variant: 'boltzmann', tieEmbeddings: true, ffn: false, layers: 1, heads: 1 },
      2,
      4,
    );
  });

  for (const variant of ['softmax', 'boltzmann'] as const)
    it(`${variant} with dropout: the same masks in a training step`, async () => {
      await compare({ ...base, variant, dropout: 0.2 }, 2, 6, 7);
    });

  it('the bracket pointer task shape: outputSize = maxLength, masked targets', async () => {
    await compare({ ...base, variant: 'softmax', outputSize: 6, layers: 1 }, 4, 6);
  });
});

describe('engine gradients against central differences', () => {
  for (const variant of ['softmax', 'boltzmann'] as const)
    it(`${variant}: every parameter's directional derivative`, async () => {
      const model = createTransformer({
        ...gpt,
        variant,
        sampler: createReferenceSampler(),
        jInitStd: 0.5,
      });
      const engine = createEngine(model.config, {
        backend: testEngineBackend(),
        sampler: model.sampler,
      });
      for (const p of model.parameters) engine.view(p.name).set(p.variable.dataSync());
      model.dispose();
      for (const s of engine.params.slots)
        if (s.name.endsWith('/kernel') || s.name.startsWith('embedding/'))
          engine.view(s.name).forEach((x, i, a) => {
            a[i] = 15 * x;
          });
      const inputs = randomTokens(12, 7, 3);
      const targets = randomTokens(12, 7, 4);
      const mask = new Float32Array(12).fill(1);
      const pass = { inputs, batchSize: 2 };
      await engine.lossAndGradients(pass, targets, mask);
      const grads = engine.params.slots.map((s) => Float64Array.from(engine.view(s.name, 'grads')));
      for (const [n, s] of engine.params.slots.entries()) {
        const direction = randomNormal(s.size, s.offset + 1);
        const grad = grads[n]!;
        const analytic = grad.reduce((sum, g, i) => sum + g * direction[i]!, 0);
        const base = Float32Array.from(engine.view(s.name));
        const at = async (eps: number) => {
          engine.view(s.name).set(base.map((x, i) => x + eps * direction[i]!));
          return engine.lossAndGradients(pass, targets, mask);
        };
        const eps = 1e-3;
        const numeric = ((await at(eps)) - (await at(-eps))) / (2 * eps);
        engine.view(s.name).set(base);
        expect(Math.abs(numeric - analytic), s.name).toBeLessThan(2e-3 * Math.abs(analytic) + 2e-4);
      }
    });
});

describe('engine threads', () => {
  it('refuses more threads than the cores available at once, naming the count', () => {
    // Issue 38: 64 threads on 2 cores started 138 OS threads, then failed 60 s later.
    const cores = threadInfo().cores;
    const model = createTransformer({ ...gpt, variant: 'softmax' });
    try {
      const threads = Math.min(64, cores + 1);
      if (threads <= cores) return; // a machine of 64 cores or more: nothing to refuse below 64
      const start = () => createEngine(model.config, { backend: testEngineBackend(), threads });
      expect(codeOf(start)).toBe('ATTENTION_INVALID_ARGUMENT');
      expect(start).toThrow(`more than the ${cores} cores available`);
    } finally {
      model.dispose();
    }
  });
});
