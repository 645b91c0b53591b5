import * as tf from '@tensorflow/tfjs';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createTrainer,
  createTransformer,
  initBackend,
  loadTransformer,
  maskedCrossEntropy,
} from '../index.js';
import type { Transformer, TransformerConfig, TransformerJSON } from '../index.js';
import { gpt, logitsOf, patternBatch, randomTokens, take } from '../testing/testUtils.js';

// Training a multi-layer model (learning, gradients, async samplers, dropout):
// gptLayersTraining.test.ts.

const here = dirname(fileURLToPath(import.meta.url));

const names = (model: Transformer): string[] => model.parameters.map((p) => p.name);
const sizeOf = (model: Transformer): number =>
  model.parameters.reduce((a, p) => a + p.variable.size, 0);

describe('multi-layer GPT', () => {
  beforeAll(async () => {
    await initBackend('wasm', { log: () => {} });
  });

  it('loads a model saved by the one-layer code unchanged: same names, order, weights, logits and couplings', async () => {
    const fixture = JSON.parse(
      readFileSync(join(here, '..', 'fixtures', 'legacy-one-layer.json'), 'utf8'),
    ) as {
      model: TransformerJSON;
      inputs: number[];
      batchSize: number;
      logits: number[];
      couplings: number[][];
      parameterNames: string[];
    };
    expect(fixture.model.config).not.toHaveProperty('layers');
    const model = loadTransformer(fixture.model);
    expect(names(model)).toEqual(fixture.parameterNames);
    // Equal to float32 rounding: the causal normalization now runs in float64 in ising-core (it
    // ran in float32 on the tfjs backend when the fixture was made), so the last bits differ.
    const logits = await logitsOf(model, Int32Array.from(fixture.inputs), fixture.batchSize);
    expect(logits).toHaveLength(fixture.logits.length);
    fixture.logits.forEach((x, k) =>
      expect(Math.abs(logits[k]! - x)).toBeLessThan(1e-6 * Math.max(1, Math.abs(x))),
    );
    expect(model.couplings().map((c) => Array.from(c))).toEqual(fixture.couplings);
    expect(model.config).toMatchObject({ layers: 1, bias: true, tieEmbeddings: false, dropout: 0 });
    // The initialization of a one-layer model is today's too.
    const { vocabSize, maxLength, dModel, ffnHidden, heads, jInitStd, seed } = fixture.model.config;
    const fresh = createTransformer({
      vocabSize,
      maxLength,
      dModel,
      ffnHidden,
      heads,
      jInitStd,
      seed,
    });
    expect(fresh.toJSON().weights).toEqual(fixture.model.weights);
    model.dispose();
    fresh.dispose();
  });

  it('loads the committed Shakespeare models with their parameter names, as one-layer models', async () => {
    const dir = join(here, '..', '..', '..', '..', 'docs', 'results', 'shakespeare', 'models');
    const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThan(0);
    // A bench result file: { id, config, model: TransformerJSON }.
    const json = (
      JSON.parse(readFileSync(join(dir, files[0]!), 'utf8')) as { model: TransformerJSON }
    ).model;
    const model = loadTransformer(json);
    expect(names(model)).toEqual(Object.keys(json.weights));
    expect(model.config).toMatchObject({ layers: 1, bias: true, tieEmbeddings: false, dropout: 0 });
    const t = model.config.maxLength;
    expect(
      (await logitsOf(model, randomTokens(t, model.config.vocabSize, 1), 1)).every(Number.isFinite),
    ).toBe(true);
    model.dispose();
  });

  it('names layer ℓ ≥ 1 block{ℓ}/…, keeps layer 0 on the one-layer names, and returns J per (layer, head), layer-major', () => {
    const one = createTransformer({ ...gpt, layers: 1 });
    const two = createTransformer(gpt);
    const n = names(two);
    const block0 = names(one).filter(
      (x) => !x.startsWith('embedding/') && !x.startsWith('final/') && !x.startsWith('head/'),
    );
    expect(n).toEqual([
      'embedding/token',
      'embedding/position',
      ...block0,
      ...block0.map((x) => `block1/${x.replace(/^block\//, '')}`),
      'final/norm/gamma',
      'final/norm/beta',
      'head/kernel',
      'head/bias',
    ]);
    expect(n).toContain('block1/norm1/gamma');
    expect(n).toContain('block1/attention/couplings');
    expect(n).toContain('block1/ffn/output/kernel');
    // Layer 0 starts exactly as the one-layer model (each parameter has its own seeded stream).
    const w1 = one.toJSON().weights;
    const w2 = two.toJSON().weights;
    for (const name of names(one)) expect(w2[name]).toEqual(w1[name]);
    const js = two.couplings();
    expect(js).toHaveLength(4);
    const raw = (name: string): Float32Array =>
      Float32Array.from(two.parameters.find((p) => p.name === name)!.variable.dataSync());
    const size = 36;
    for (const [layer, name] of [
      [0, 'attention/couplings'],
      [1, 'block1/attention/couplings'],
    ] as const) {
      for (let h = 0; h < 2; h++)
        expect(Array.from(js[layer * 2 + h]!)).toEqual(
          Array.from(raw(name).subarray(h * size, (h + 1) * size)),
        );
    }
    expect(js[2]).not.toEqual(js[0]);
    one.dispose();
    two.dispose();
  });

  it('bias: false has no bias or LayerNorm beta parameters and still runs', async () => {
    const withBias = createTransformer(gpt);
    const model = createTransformer({ ...gpt, bias: false });
    expect(names(model).filter((n) => n.endsWith('/bias') || n.endsWith('/beta'))).toEqual([]);
    expect(names(model)).toEqual(
      names(withBias).filter((n) => !n.endsWith('/bias') && !n.endsWith('/beta')),
    );
    const logits = await logitsOf(model, randomTokens(12, 7, 1), 2);
    expect(logits.every(Number.isFinite)).toBe(true);
    const copy = loadTransformer(JSON.parse(JSON.stringify(model.toJSON())) as TransformerJSON);
    expect(await logitsOf(copy, randomTokens(12, 7, 1), 2)).toEqual(logits);
    for (const m of [withBias, model, copy]) m.dispose();
  });

  it('tieEmbeddings shares the token embedding with the head: vocab·d fewer parameters, the head gradient reaches the embedding', () => {
    const untied = createTransformer({ ...gpt, variant: 'softmax' });
    const tied = createTransformer({ ...gpt, variant: 'softmax', tieEmbeddings: true });
    expect(names(tied)).not.toContain('head/kernel');
    expect(sizeOf(untied) - sizeOf(tied)).toBe(7 * 8);
    // Make the untied model equal to the tied one: head kernel := embeddingᵀ.
    const byName = (m: Transformer, n: string): tf.Variable =>
      m.parameters.find((p) => p.name === n)!.variable;
    for (const { name, variable } of tied.parameters) byName(untied, name).assign(variable);
    byName(untied, 'head/kernel').assign(
      tf.tidy(() => tf.transpose(byName(tied, 'embedding/token'))),
    );
    const inputs = randomTokens(12, 7, 8);
    const targets = randomTokens(12, 7, 9);
    const lossOf = (m: Transformer) => (): tf.Scalar =>
      maskedCrossEntropy(m.logits(inputs, 2), targets, new Float32Array(12).fill(1));
    const a = tf.variableGrads(
      lossOf(untied),
      untied.parameters.map((p) => p.variable),
    );
    const b = tf.variableGrads(
      lossOf(tied),
      tied.parameters.map((p) => p.variable),
    );
    expect(Math.abs(a.value.dataSync()[0]! - b.value.dataSync()[0]!)).toBeLessThan(1e-6);
    const expected = tf.tidy(() =>
      tf.add(
        a.grads[byName(untied, 'embedding/token').name]!,
        tf.transpose(a.grads[byName(untied, 'head/kernel').name]!),
      ),
    );
    const got = b.grads[byName(tied, 'embedding/token').name]!;
    const headPart = take(
      tf.tidy(() => tf.max(tf.abs(a.grads[byName(untied, 'head/kernel').name]!))),
    )[0]!;
    expect(headPart).toBeGreaterThan(1e-2);
    expect(take(tf.tidy(() => tf.max(tf.abs(tf.sub(expected, got)))))[0]!).toBeLessThan(1e-5);
    tf.dispose([a.value, b.value, expected, ...Object.values(a.grads), ...Object.values(b.grads)]);
    untied.dispose();
    tied.dispose();
  });

  it('bad configs give ATTENTION_INVALID_CONFIG with clear messages', () => {
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ layers: 0 }, /layers must be a positive integer/],
      [{ layers: 1.5 }, /layers must be a positive integer/],
      [{ layers: '2' }, /layers must be a positive integer/],
      [{ bias: 'no' }, /bias must be a boolean/],
      [{ tieEmbeddings: 1 }, /tieEmbeddings must be a boolean/],
      [{ tieEmbeddings: true, outputSize: 6 }, /tieEmbeddings needs outputSize === vocabSize/],
      [{ dropout: 1 }, /dropout must be a number in \[0, 1\)/],
      [{ dropout: -0.1 }, /dropout must be a number/],
      [{ dropout: Number.NaN }, /dropout must be a number/],
      [{ heads: 3 }, /dModel 8 is not divisible by heads 3/],
    ];
    for (const [patch, message] of bad) {
      expect(
        () => createTransformer({ ...gpt, ...patch } as TransformerConfig),
        JSON.stringify(patch),
      ).toThrow(
        expect.objectContaining({
          code: 'ATTENTION_INVALID_CONFIG',
          message: expect.stringMatching(message),
        }),
      );
    }
  });

  it('toJSON/loadTransformer round-trips a 2-layer model exactly (full, relative and banded J; tied, no bias)', async () => {
    for (const extra of [
      {},
      { couplingForm: 'relative' as const, tieEmbeddings: true, bias: false },
      { couplingForm: 'banded:2' as const, ffn: false },
    ]) {
      const model = createTransformer({ ...gpt, jInitStd: 0.3, ...extra });
      const trainer = createTrainer(model, { totalSteps: 3 });
      for (let s = 0; s < 3; s++) await trainer.step(patternBatch(4, s));
      const json = model.toJSON();
      const copy = loadTransformer(JSON.parse(JSON.stringify(json)) as TransformerJSON);
      expect(copy.toJSON()).toEqual(json);
      const inputs = randomTokens(12, 7, 3);
      expect(await logitsOf(copy, inputs, 2)).toEqual(await logitsOf(model, inputs, 2));
      expect(copy.couplings()).toEqual(model.couplings());
      expect(copy.couplings()).toHaveLength(4);
      for (const m of [copy, model]) m.dispose();
      trainer.dispose();
    }
  });
});
