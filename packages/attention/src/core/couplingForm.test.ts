import { createSamplerRegistry, exactSampler, transferMatrixSampler } from '@boltzmann/ising-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createTrainer,
  createTransformer,
  initBackend,
  isAttentionError,
  loadTransformer,
  parseCouplingForm,
} from '../index.js';
import type { TransformerJSON } from '../index.js';
import { randomTokens } from '../testing/testUtils.js';

const T = 10;
const base = { vocabSize: 7, maxLength: T, dModel: 8, jInitStd: 0.3, seed: 3 } as const;
const registry = createSamplerRegistry()
  .register(exactSampler)
  .register(transferMatrixSampler)
  .freeze();

async function trainSteps(
  model: ReturnType<typeof createTransformer>,
  steps: number,
): Promise<number[]> {
  const trainer = createTrainer(model, { lr: 1e-2, totalSteps: steps });
  const losses: number[] = [];
  for (let s = 0; s < steps; s++) {
    const inputs = randomTokens(4 * T, 7, s + 1);
    losses.push(
      (await trainer.step({ inputs, targets: randomTokens(4 * T, 7, s + 100), batchSize: 4 })).loss,
    );
  }
  trainer.dispose();
  return losses;
}

describe('coupling forms', () => {
  beforeAll(async () => {
    await initBackend('wasm', { log: () => {} });
  });

  it('banded:w keeps J exactly zero beyond the band, before and after training, and trains with the transfer-matrix sampler', async () => {
    const model = createTransformer({
      ...base,
      couplingForm: 'banded:3',
      sampler: 'transfer-matrix',
      samplerOptions: { bandwidth: 3 },
      registry,
    });
    const check = (): void => {
      const J = model.couplings()[0]!;
      for (let j = 0; j < T; j++)
        for (let k = 0; k < T; k++)
          if (k <= j || k - j > 3) expect(Math.abs(J[j * T + k]!)).toBe(0);
      expect(J.some((v) => v !== 0)).toBe(true);
    };
    check();
    const losses = await trainSteps(model, 3);
    expect(losses.every(Number.isFinite)).toBe(true);
    check();
    // The exact sampler on the same banded model gives the same attention (the transfer matrix is exact).
    const exact = loadTransformer(model.toJSON(), {
      sampler: 'exact',
      samplerOptions: {},
      registry,
    });
    const inputs = randomTokens(2 * T, 7, 9);
    const a = await model.attention(inputs, 2);
    const b = await exact.attention(inputs, 2);
    expect(Math.max(...a.map((v, i) => Math.abs(v - b[i]!)))).toBeLessThan(1e-6);
    model.dispose();
    exact.dispose();
  });

  it('relative has one parameter per distance (a Toeplitz J), O(T) parameters, and trains', async () => {
    const model = createTransformer({ ...base, couplingForm: 'relative' });
    const param = model.parameters.find((p) => p.name === 'attention/relativeCouplings')!;
    expect(param.variable.shape).toEqual([1, T]);
    expect(model.parameters.some((p) => p.name === 'attention/couplings')).toBe(false);
    const toeplitz = (J: Float64Array): void => {
      for (let j = 0; j < T; j++) {
        for (let k = 0; k < T; k++) {
          if (k <= j) expect(Math.abs(J[j * T + k]!)).toBe(0);
          else expect(J[j * T + k]).toBe(J[k - j]!);
        }
      }
    };
    toeplitz(model.couplings()[0]!);
    const before = Array.from(model.couplings()[0]!);
    await trainSteps(model, 3);
    toeplitz(model.couplings()[0]!);
    expect(Array.from(model.couplings()[0]!)).not.toEqual(before);
    const again = loadTransformer(model.toJSON());
    expect(again.couplings()[0]).toEqual(model.couplings()[0]);
    model.dispose();
    again.dispose();
  });

  it('existing configs and saved models (no couplingForm) load unchanged as full', () => {
    const model = createTransformer(base);
    const json = model.toJSON();
    expect(json.config.couplingForm).toBe('full');
    const { couplingForm: _dropped, ...oldConfig } = json.config;
    const old: TransformerJSON = { ...json, config: oldConfig as TransformerJSON['config'] };
    const loaded = loadTransformer(old);
    expect(loaded.couplings()).toEqual(model.couplings());
    model.dispose();
    loaded.dispose();
  });

  it('refuses malformed forms with ATTENTION_INVALID_CONFIG', () => {
    for (const bad of ['banded', 'banded:-1', `banded:${T}`, 'relative:2', 7]) {
      let error: unknown;
      try {
        createTransformer({ ...base, couplingForm: bad as never });
      } catch (e) {
        error = e;
      }
      expect(isAttentionError(error) && error.code === 'ATTENTION_INVALID_CONFIG').toBe(true);
    }
    expect(parseCouplingForm('banded:0', 4)).toEqual({ kind: 'banded', bandwidth: 0 });
  });
});
