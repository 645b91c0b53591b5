import { beforeAll, describe, expect, it } from 'vitest';
import {
  createSamplerRegistry,
  exactSampler,
  gibbsSampler,
  meanFieldSampler,
} from '@boltzmann/ising-core';
import {
  createTrainer,
  createTransformer,
  initBackend,
  isAttentionError,
  loadTransformer,
} from '../index.js';
import type { TransformerJSON } from '../index.js';
import { maxAbsDiff, randomTokens } from '../testing/testUtils.js';

const registry = createSamplerRegistry()
  .register(exactSampler)
  .register(gibbsSampler)
  .register(meanFieldSampler)
  .freeze();
const config = { vocabSize: 6, maxLength: 5, dModel: 16, seed: 4, jInitStd: 0.05 };

describe('samplers chosen by name from a registry', () => {
  beforeAll(async () => {
    await initBackend('wasm', { log: () => {} });
  });

  it('mean-field and Gibbs approximate the exact attention of the same weights; all of them train', async () => {
    const base = createTransformer({ ...config, registry, jInitStd: 0.3 });
    // Scale the query map so the fields are O(1) and the attention is far from uniform.
    const raw = base.toJSON();
    const query = raw.weights['attention/query/kernel']!;
    const json: TransformerJSON = {
      ...raw,
      weights: {
        ...raw.weights,
        'attention/query/kernel': { ...query, data: query.data.map((x) => 60 * x) },
      },
    };
    base.dispose();
    const exact = loadTransformer(json, { registry });
    const meanField = loadTransformer(json, { sampler: 'mean-field', registry });
    const gibbs = loadTransformer(json, {
      sampler: 'gibbs',
      samplerOptions: { seed: 3, chains: 8, samples: 400 },
      registry,
    });
    expect([meanField.sampler?.name, gibbs.sampler?.name]).toEqual(['mean-field', 'gibbs']);
    const inputs = randomTokens(2 * 5, 6, 1);
    const reference = await exact.attention(inputs, 2);
    const uniform = Float32Array.from(reference, (_, k) =>
      k % 5 <= Math.floor(k / 5) % 5 ? 1 / ((Math.floor(k / 5) % 5) + 1) : 0,
    );
    expect(maxAbsDiff(reference, uniform)).toBeGreaterThan(0.1);
    // J ~ N(0, 0.3²): mean field errs at second order in J (measured 0.008).
    expect(maxAbsDiff(await meanField.attention(inputs, 2), reference)).toBeLessThan(0.02);
    // 3,200 Gibbs samples per query (measured 0.016).
    expect(maxAbsDiff(await gibbs.attention(inputs, 2), reference)).toBeLessThan(0.05);
    // Independent spins (J = 0): mean field is exact.
    const j = json.weights['attention/couplings']!;
    const independent = {
      ...json,
      weights: { ...json.weights, 'attention/couplings': { ...j, data: j.data.map(() => 0) } },
    };
    const [exact0, meanField0] = [
      loadTransformer(independent),
      loadTransformer(independent, { sampler: 'mean-field', registry }),
    ];
    expect(
      maxAbsDiff(await meanField0.attention(inputs, 2), await exact0.attention(inputs, 2)),
    ).toBeLessThan(1e-6);
    exact0.dispose();
    meanField0.dispose();
    for (const model of [exact, meanField, gibbs]) {
      const trainer = createTrainer(model, { totalSteps: 3 });
      for (let s = 0; s < 3; s++) {
        const { loss, gradNorm } = await trainer.step({
          inputs,
          targets: randomTokens(10, 6, 2 + s),
          batchSize: 2,
        });
        expect(Number.isFinite(loss) && Number.isFinite(gradNorm) && gradNorm > 0).toBe(true);
      }
      trainer.dispose();
      model.dispose();
    }
  });

  it('a checkpoint of a registry sampler needs the registry to load', () => {
    const model = createTransformer({ ...config, sampler: 'mean-field', registry });
    const json = JSON.parse(JSON.stringify(model.toJSON()));
    let error: unknown;
    try {
      loadTransformer(json);
    } catch (e) {
      error = e;
    }
    expect(isAttentionError(error, 'ATTENTION_SAMPLER_NOT_FOUND')).toBe(true);
    expect(String(error)).toContain('"mean-field"');
    const again = loadTransformer(json, { registry });
    expect(again.sampler?.name).toBe('mean-field');
    model.dispose();
    again.dispose();
  });
});
