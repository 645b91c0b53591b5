import { codeOf } from '@boltzmann/ising-core/testing';
import * as tf from '@tensorflow/tfjs';
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ATTENTION_VARIANTS,
  createTransformer,
  initBackend,
  loadTransformer,
  maskedCrossEntropy,
  readTransformer,
  saveTransformer,
} from '../index.js';
import type { AttentionVariant, Transformer } from '../index.js';
import { createReferenceSampler } from '../testing/referenceSampler.js';
import { maxAbsDiff, randomNormal, randomTokens, take, tensorOf } from '../testing/testUtils.js';

const tiny = { vocabSize: 7, maxLength: 5, dModel: 8, ffnHidden: 12, seed: 3 };

async function logitsOf(model: Transformer, inputs: Int32Array, b: number): Promise<Float32Array> {
  return take(await model.forward(inputs, b));
}

describe('Transformer', () => {
  beforeAll(async () => {
    await initBackend('wasm', { log: () => {} });
  });

  it('is causal for every variant: changing a later token never changes an earlier output', async () => {
    for (const variant of ATTENTION_VARIANTS) {
      const model = createTransformer({ ...tiny, variant, heads: 2, jInitStd: 0.5 });
      const inputs = randomTokens(2 * 5, 7, 1);
      const base = await logitsOf(model, inputs, 2);
      for (const pos of [2, 4]) {
        const changed = Int32Array.from(inputs);
        changed[5 + pos] = (changed[5 + pos]! + 3) % 7;
        const out = await logitsOf(model, changed, 2);
        const v = model.config.outputSize;
        expect(
          maxAbsDiff(out.subarray(0, 5 * v), base.subarray(0, 5 * v)),
          `${variant}: other sequence`,
        ).toBe(0);
        expect(
          maxAbsDiff(out.subarray(5 * v, (5 + pos) * v), base.subarray(5 * v, (5 + pos) * v)),
          `${variant}: earlier positions`,
        ).toBe(0);
        expect(
          maxAbsDiff(out.subarray((5 + pos) * v), base.subarray((5 + pos) * v)),
          `${variant}: changed position`,
        ).toBeGreaterThan(0);
      }
      model.dispose();
    }
  });

  it('initializes deterministically from the seed; J is N(0, std²) on the strict upper triangle only', () => {
    const a = createTransformer({ ...tiny, heads: 2, maxLength: 40, jInitStd: 0.1 });
    const b = createTransformer({ ...tiny, heads: 2, maxLength: 40, jInitStd: 0.1 });
    const c = createTransformer({ ...tiny, heads: 2, maxLength: 40, jInitStd: 0.1, seed: 4 });
    expect(a.toJSON().weights).toEqual(b.toJSON().weights);
    expect(a.toJSON().weights['head/kernel']).not.toEqual(c.toJSON().weights['head/kernel']);
    const js = a.couplings();
    expect(js).toHaveLength(2);
    const upper: number[] = [];
    for (const j of js) {
      expect(j).toBeInstanceOf(Float64Array);
      expect(j.length).toBe(40 * 40);
      j.forEach((v, k) => (Math.floor(k / 40) < k % 40 ? upper.push(v) : expect(v).toBe(0)));
    }
    const mean = upper.reduce((s, v) => s + v, 0) / upper.length;
    const std = Math.sqrt(upper.reduce((s, v) => s + (v - mean) ** 2, 0) / upper.length);
    expect(Math.abs(mean)).toBeLessThan(0.01);
    expect(Math.abs(std - 0.1)).toBeLessThan(0.01);
    expect(
      createTransformer({ ...tiny, jInit: 'zeros' })
        .couplings()[0]!
        .every((v) => v === 0),
    ).toBe(true);
    const softmax = createTransformer({ ...tiny, heads: 2, maxLength: 40, variant: 'softmax' });
    expect(softmax.couplings()).toEqual([]);
    // Each parameter draws from its own seeded stream: variants with one seed share every common weight.
    const shared = softmax.toJSON().weights;
    for (const [name, w] of Object.entries(a.toJSON().weights))
      if (name !== 'attention/couplings') expect(shared[name], name).toEqual(w);
    softmax.dispose();
    for (const m of [a, b, c]) m.dispose();
  });

  it('round-trips through JSON and through an atomically written file with identical outputs', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'attention-'));
    for (const variant of ['boltzmann', 'softmax'] as const) {
      const model = createTransformer({ ...tiny, variant, outputSize: 5, ffn: false });
      const inputs = randomTokens(3 * 5, 7, 9);
      const before = await logitsOf(model, inputs, 3);
      const copy = loadTransformer(JSON.parse(JSON.stringify(model.toJSON())));
      expect(await logitsOf(copy, inputs, 3)).toEqual(before);
      const path = join(dir, `${variant}.json`);
      await saveTransformer(model, path);
      const fromFile = await readTransformer(path);
      expect(fromFile.config).toEqual(model.config);
      expect(await logitsOf(fromFile, inputs, 3)).toEqual(before);
      for (const m of [model, copy, fromFile]) m.dispose();
    }
    expect((await readdir(dir)).sort()).toEqual(['boltzmann.json', 'softmax.json']);
    await writeFile(join(dir, 'corrupt.json'), '{"format": "boltzmann-attention/transf');
    await expect(readTransformer(join(dir, 'corrupt.json'))).rejects.toMatchObject({
      code: 'ATTENTION_INVALID_CHECKPOINT',
    });
  });

  it('rejects malformed checkpoints, configs and inputs with coded errors', () => {
    const model = createTransformer(tiny);
    const json = model.toJSON();
    const shape = { ...json.weights['head/bias']!, shape: [3] };
    expect(
      codeOf(() => loadTransformer({ ...json, weights: { ...json.weights, 'head/bias': shape } })),
    ).toBe('ATTENTION_INVALID_CHECKPOINT');
    const nan = {
      ...json.weights['head/bias']!,
      data: json.weights['head/bias']!.data.map(() => Number.NaN),
    };
    expect(
      codeOf(() => loadTransformer({ ...json, weights: { ...json.weights, 'head/bias': nan } })),
    ).toBe('ATTENTION_INVALID_CHECKPOINT');
    expect(codeOf(() => loadTransformer({ ...json, format: 'other' } as never))).toBe(
      'ATTENTION_INVALID_CHECKPOINT',
    );
    expect(codeOf(() => createTransformer({ ...tiny, dModel: 9, heads: 2 }))).toBe(
      'ATTENTION_INVALID_CONFIG',
    );
    expect(codeOf(() => createTransformer({ ...tiny, variant: 'relu' as AttentionVariant }))).toBe(
      'ATTENTION_INVALID_CONFIG',
    );
    expect(codeOf(() => createTransformer({ ...tiny, beta: Number.NaN }))).toBe(
      'ATTENTION_INVALID_CONFIG',
    );
    expect(codeOf(() => createTransformer({ ...tiny, sampler: 'gibbs' }))).toBe(
      'ATTENTION_SAMPLER_NOT_FOUND',
    );
    expect(codeOf(() => model.logits(Int32Array.of(1, 2, 7), 1))).toBe('ATTENTION_INVALID_TOKEN');
    expect(codeOf(() => model.logits(new Int32Array(12), 2))).toBe('ATTENTION_SHAPE_MISMATCH');
    expect(codeOf(() => model.logits(new Int32Array(7), 2))).toBe('ATTENTION_SHAPE_MISMATCH');
    model.dispose();
    expect(codeOf(() => model.couplings())).toBe('ATTENTION_DISPOSED');
  });

  it('exposes the attention weights B×H×T×T (causal rows summing to 1)', async () => {
    const model = createTransformer({ ...tiny, heads: 2 });
    const w = await model.attention(randomTokens(3 * 4, 7, 8), 3);
    expect(w.length).toBe(3 * 2 * 4 * 4);
    for (let row = 0; row < 3 * 2 * 4; row++) {
      const i = row % 4;
      const cells = Array.from(w.subarray(row * 4, row * 4 + 4));
      cells.forEach((v, k) => (k > i ? expect(v).toBe(0) : expect(v).toBeGreaterThan(0)));
      expect(Math.abs(cells.reduce((a, c) => a + c, 0) - 1)).toBeLessThan(1e-6);
    }
    model.dispose();
  });

  it('accepts sequences shorter than maxLength (J restricted to the top-left block)', async () => {
    const model = createTransformer({ ...tiny, jInitStd: 0.5 });
    const inputs = randomTokens(5, 7, 2);
    const full = await logitsOf(model, inputs, 1);
    const short = await logitsOf(model, inputs.subarray(0, 3), 1);
    expect(maxAbsDiff(short, full.subarray(0, 3 * 7))).toBeLessThan(1e-6);
    model.dispose();
  });

  it('gradients through the whole model match central differences along random directions (every variant)', () => {
    const reference = createReferenceSampler();
    for (const variant of ATTENTION_VARIANTS) {
      const model = createTransformer({
        ...tiny,
        variant,
        heads: 2,
        sampler: reference,
        jInitStd: 0.3,
        seed: 5,
      });
      const inputs = randomTokens(2 * 5, 7, 4);
      const targets = randomTokens(2 * 5, 7, 5);
      const mask = Float32Array.from({ length: 10 }, (_, i) => (i % 3 === 0 ? 0 : 1));
      const loss = (): tf.Scalar => maskedCrossEntropy(model.logits(inputs, 2), targets, mask);
      const lossValue = (): number => take(tf.tidy(loss))[0]!;
      const { grads } = tf.variableGrads(
        loss,
        model.parameters.map((p) => p.variable),
      );
      for (const [k, { name, variable }] of model.parameters.entries()) {
        const grad = grads[variable.name];
        const d = randomNormal(variable.size, 100 + k);
        const norm = Math.hypot(...d);
        const direction = tensorOf(
          d.map((x) => x / norm),
          variable.shape,
        );
        const analytic = grad === undefined ? 0 : take(tf.sum(tf.mul(grad, direction)))[0]!;
        const original = variable.clone();
        const at = (eps: number): number => {
          variable.assign(tf.tidy(() => tf.add(original, tf.mul(direction, eps))));
          return lossValue();
        };
        // Richardson extrapolation cancels the O(ε²) curvature error of the central difference
        // (the final LayerNorm of a width-8 model is strongly curved).
        const central = (eps: number): number => (at(eps) - at(-eps)) / (2 * eps);
        const fd = (4 * central(1e-2) - central(2e-2)) / 3;
        variable.assign(original);
        expect(
          Math.abs(analytic - fd),
          `${variant} ${name}: analytic ${analytic} vs fd ${fd}`,
        ).toBeLessThan(3e-4 + 2e-2 * Math.abs(fd));
        tf.dispose([original, direction]);
      }
      if (variant === 'coupling') {
        const gj =
          grads[model.parameters.find((p) => p.name === 'attention/couplings')!.variable.name];
        expect(gj === undefined || Math.max(...gj.dataSync().map(Math.abs)) < 1e-9).toBe(true);
      }
      tf.dispose(Object.values(grads));
      model.dispose();
    }
  });
});
