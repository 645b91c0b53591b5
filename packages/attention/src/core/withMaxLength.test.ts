import { beforeAll, describe, expect, it } from 'vitest';
import {
  createTransformer,
  initBackend,
  isAttentionError,
  loadTransformer,
  withMaxLength,
} from '../index.js';
import type { TransformerConfig } from '../index.js';
import { randomTokens } from '../testing/testUtils.js';

const base: TransformerConfig = {
  vocabSize: 11,
  maxLength: 4,
  dModel: 8,
  heads: 2,
  layers: 2,
  positions: 'none',
  seed: 3,
  jInitStd: 0.5,
};

async function logits(
  model: ReturnType<typeof createTransformer>,
  inputs: Int32Array,
  batch: number,
): Promise<Float32Array> {
  const t = await model.forward(inputs, batch);
  const out = Float32Array.from(t.dataSync());
  t.dispose();
  return out;
}

describe("positions: 'none' and withMaxLength", () => {
  beforeAll(async () => {
    await initBackend('wasm', { log: () => {} });
  });

  it("a positions: 'none' model has no positional embedding and records the option", () => {
    const model = createTransformer({ ...base, variant: 'softmax' });
    expect(model.parameters.map((p) => p.name)).not.toContain('embedding/position');
    expect(model.config.positions).toBe('none');
    expect(
      createTransformer({ ...base, positions: undefined, variant: 'softmax' }).config,
    ).not.toHaveProperty('positions');
    model.dispose();
  });

  it('runs a relative-J boltzmann model at twice its length: the first T outputs are unchanged (causal), the rest are defined', async () => {
    for (const variant of ['boltzmann', 'softmax', 'sigmoid'] as const) {
      const model = createTransformer({
        ...base,
        variant,
        couplingForm: variant === 'boltzmann' ? 'relative' : 'full',
      });
      const long = loadTransformer(withMaxLength(model.toJSON(), 8));
      expect(long.config.maxLength).toBe(8);
      const tokens = randomTokens(8, 11, 5);
      const short = await logits(model, tokens.slice(0, 4), 1);
      const extended = await logits(long, tokens, 1);
      const prefix = extended.slice(0, 4 * 11);
      for (let k = 0; k < short.length; k++) expect(prefix[k]).toBeCloseTo(short[k]!, 5);
      expect(extended.every(Number.isFinite)).toBe(true);
      if (variant === 'boltzmann') {
        // Learned distances 1..3 kept, distances 4..7 are 0.
        const J = long.couplings()[0]!;
        const J0 = model.couplings()[0]!;
        expect(J[0 * 8 + 3]).toBeCloseTo(J0[0 * 4 + 3]!, 7);
        expect(J[0 * 8 + 5]).toBe(0);
        expect(J[2 * 8 + 7]).toBe(0);
      }
      model.dispose();
      long.dispose();
    }
  });

  it('refuses learned positions, a full or banded J, and a shorter length, saying why', () => {
    const refuse = (config: TransformerConfig, to: number): string => {
      const model = createTransformer(config);
      try {
        withMaxLength(model.toJSON(), to);
        return 'accepted';
      } catch (error) {
        expect(isAttentionError(error, 'ATTENTION_INVALID_CONFIG')).toBe(true);
        return (error as Error).message;
      } finally {
        model.dispose();
      }
    };
    expect(refuse({ ...base, positions: 'learned', variant: 'softmax' }, 8)).toContain(
      'learned positional embedding',
    );
    expect(refuse({ ...base, variant: 'boltzmann' }, 8)).toContain('full J');
    expect(refuse({ ...base, variant: 'boltzmann', couplingForm: 'banded:2' }, 8)).toContain(
      'banded:2 J',
    );
    expect(refuse({ ...base, variant: 'softmax' }, 3)).toContain('≥ the model');
  });
});
