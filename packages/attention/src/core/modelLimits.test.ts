// A model file is data from anywhere: its sizes are bounded (MODEL_LIMITS) before anything is
// allocated, and every float it holds must fit in float32.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  MODEL_LIMITS,
  createTransformer,
  initBackend,
  isAttentionError,
  loadTransformer,
  resolveTransformerConfig,
  withMaxLength,
} from '../index.js';
import type { TransformerConfig, TransformerJSON } from '../index.js';
import { tiny } from '../testing/testUtils.js';

function thrown(f: () => unknown): { code: string; message: string } {
  try {
    f();
  } catch (e) {
    if (isAttentionError(e)) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('expected an AttentionError');
}

const small: TransformerConfig = { vocabSize: 5, maxLength: 4, dModel: 8, ffnHidden: 8 };

/** A valid model file of `small`, with `config` fields replaced (as a hostile file would). */
function fileWith(config: Record<string, unknown>): TransformerJSON {
  const model = createTransformer(small);
  const json = model.toJSON();
  model.dispose();
  return { ...json, config: { ...json.config, ...config } as TransformerJSON['config'] };
}

describe('MODEL_LIMITS: the sizes a model may have', () => {
  beforeAll(async () => {
    await initBackend('wasm', { log: () => {} });
  });

  it('are documented constants, generous enough for a GPT-2-sized model', () => {
    expect(MODEL_LIMITS).toEqual({
      layers: 64,
      heads: 64,
      dModel: 4096,
      maxLength: 8192,
      vocabSize: 1_048_576,
      outputSize: 1_048_576,
      ffnHidden: 16_384,
      parameters: 1e9,
    });
    const gpt2 = { vocabSize: 50_257, maxLength: 1024, dModel: 768, heads: 12, layers: 12 };
    expect(resolveTransformerConfig({ ...gpt2, couplingForm: 'relative' }).layers).toBe(12);
  });

  it('refuses each field over its limit with ATTENTION_INVALID_CONFIG naming the field and the limit', () => {
    const over: [keyof typeof MODEL_LIMITS, Partial<TransformerConfig>][] = [
      ['layers', { layers: 65 }],
      ['heads', { dModel: 128, heads: 128 }],
      ['dModel', { dModel: 4097 }],
      ['maxLength', { maxLength: 8193 }],
      ['vocabSize', { vocabSize: 1_048_577 }],
      ['outputSize', { outputSize: 1_048_577 }],
      ['ffnHidden', { ffnHidden: 16_385 }],
    ];
    for (const [field, change] of over) {
      const { code, message } = thrown(() => resolveTransformerConfig({ ...small, ...change }));
      expect(code).toBe('ATTENTION_INVALID_CONFIG');
      expect(message).toContain(
        `${field} must be a positive integer ≤ ${MODEL_LIMITS[field]} (MODEL_LIMITS.${field})`,
      );
    }
  });

  it('refuses a model of more than MODEL_LIMITS.parameters parameters, before allocating it', () => {
    for (const config of [
      { vocabSize: 1_048_576, maxLength: 8, dModel: 4096 }, // a 4.3e9-parameter embedding
      { vocabSize: 5, maxLength: 8192, dModel: 64, heads: 64 }, // a full J of 64 × 8192²
      { vocabSize: 5, maxLength: 8, dModel: 4096, layers: 64 }, // 64 blocks of 8 d² weights
    ]) {
      const { code, message } = thrown(() => createTransformer(config));
      expect(code).toBe('ATTENTION_INVALID_CONFIG');
      expect(message).toMatch(
        /has [\d,]+ parameters, more than MODEL_LIMITS\.parameters = 1,000,000,000/,
      );
    }
  });

  it('checks a model file against the same limits before building anything', () => {
    for (const [field, value] of [
      ['layers', 65],
      ['layers', 1e7], // was a fatal out-of-memory: one parameter list entry per layer
      ['maxLength', 1e9],
      ['vocabSize', 2 ** 40],
      ['dModel', 2 ** 30],
      ['ffnHidden', 1e12],
    ] as const) {
      const { code, message } = thrown(() => loadTransformer(fileWith({ [field]: value })));
      expect(code).toBe('ATTENTION_INVALID_CONFIG');
      expect(message).toContain(
        `${field} must be a positive integer ≤ ${MODEL_LIMITS[field]} (MODEL_LIMITS.${field})`,
      );
    }
    const huge = 'x'.repeat(100_000);
    const { message } = thrown(() => loadTransformer(fileWith({ vocabSize: huge })));
    expect(message.length).toBeLessThan(300);
  });

  it('refuses a weight entry that is not an object with a coded error, not a TypeError', () => {
    const json = createTransformer(tiny).toJSON();
    for (const entry of [null, 3, 'weights']) {
      const weights = {
        ...json.weights,
        'head/bias': entry,
      } as unknown as TransformerJSON['weights'];
      const { code, message } = thrown(() => loadTransformer({ ...json, weights }));
      expect(code).toBe('ATTENTION_INVALID_CHECKPOINT');
      expect(message).toContain('"head/bias"');
    }
  });

  it('refuses a weight beyond the largest float32 (1e39 is finite in float64, Infinity in float32), naming the weight and index', () => {
    const json = createTransformer(tiny).toJSON();
    const FLT_MAX = 3.4028234663852886e38;
    for (const big of [1e39, -1e39, FLT_MAX * (1 + 2 ** -52)]) {
      const kernel = json.weights['attention/query/kernel']!;
      const data = kernel.data.map((v, i) => (i === 7 ? big : v));
      const weights = { ...json.weights, 'attention/query/kernel': { ...kernel, data } };
      const { code, message } = thrown(() => loadTransformer({ ...json, weights }));
      expect(code).toBe('ATTENTION_INVALID_CHECKPOINT');
      expect(message).toContain('weight "attention/query/kernel" value 7');
      expect(message).toContain('float32');
    }
    const coupling = json.weights['attention/couplings']!;
    const edge = coupling.data.map((v, i) => (i === 1 ? -FLT_MAX : v));
    const ok = { ...json.weights, 'attention/couplings': { ...coupling, data: edge } };
    loadTransformer({ ...json, weights: ok }).dispose();
    const over = coupling.data.map((v, i) => (i === 1 ? 2 * FLT_MAX : v));
    const bad = { ...json.weights, 'attention/couplings': { ...coupling, data: over } };
    expect(thrown(() => loadTransformer({ ...json, weights: bad })).message).toContain(
      'weight "attention/couplings" value 1',
    );
  });

  it('refuses config floats that overflow float32 (beta, jInitStd)', () => {
    for (const change of [{ beta: 1e39 }, { jInitStd: 1e39 }]) {
      const { code, message } = thrown(() => resolveTransformerConfig({ ...small, ...change }));
      expect(code).toBe('ATTENTION_INVALID_CONFIG');
      expect(message).toContain(Object.keys(change)[0]!);
      expect(message).toContain('3.4028234663852886e+38');
    }
  });

  it('withMaxLength stays within maxLength ≤ MODEL_LIMITS.maxLength and checks the weight it extends', () => {
    const model = createTransformer({
      ...small,
      positions: 'none',
      couplingForm: 'relative',
      heads: 2,
    });
    const json = model.toJSON();
    model.dispose();
    expect(thrown(() => withMaxLength(json, 8193)).code).toBe('ATTENTION_INVALID_CONFIG');
    const name = 'attention/relativeCouplings';
    const hostile = { shape: [100_000, 1], data: [0.5] };
    const { code, message } = thrown(() =>
      withMaxLength({ ...json, weights: { ...json.weights, [name]: hostile } }, 16),
    );
    expect(code).toBe('ATTENTION_INVALID_CHECKPOINT');
    expect(message).toContain(`"${name}"`);
  });
});
