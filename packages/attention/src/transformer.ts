import * as tf from '@tensorflow/tfjs';
import type { Sampler } from '@boltzmann/ising-core';
import { attentionWeights } from './attentionWeights.js';
import { AttentionError } from './errors.js';
import { prepareEstimates } from './isingMagnetization.js';
import type { PreparedEstimates } from './isingMagnetization.js';
import { initialValues } from './internal/init.js';
import type { ParamSpec } from './internal/init.js';
import { sequenceLength } from './internal/inputs.js';
import { embeddingLookup, gelu, layerNorm, linear, matMul, matMulTransposeB } from './internal/layers.js';
import { COUPLINGS, RELATIVE_COUPLINGS, paramSpecs } from './internal/paramSpecs.js';
import { createCouplingBuilder, parseCouplingForm } from './couplingForm.js';
import { samplerFor } from './internal/resolveSampler.js';
import { resolveTransformerConfig } from './transformerConfig.js';
import type { ResolvedTransformerConfig, TransformerConfig } from './transformerConfig.js';
import { usesSampler } from './variants.js';

/** A model parameter: its canonical name, the variable, and whether weight decay applies. */
export interface TransformerParameter {
  readonly name: string;
  readonly variable: tf.Variable;
  readonly decay: boolean;
}

/** The JSON form of a model's weights: `{ config, weights }`, see {@link Transformer.toJSON}. */
export interface TransformerJSON {
  readonly format: 'boltzmann-attention/transformer';
  readonly version: 1;
  readonly config: ResolvedTransformerConfig;
  readonly weights: Readonly<Record<string, { readonly shape: readonly number[]; readonly data: readonly number[] }>>;
}

/**
 * The small decoder-only Transformer of METHOD.md §5: token + learned positional embedding,
 * one pre-LayerNorm block (attention with residual; optional GELU FFN with residual), final
 * LayerNorm, linear head.
 */
export interface Transformer {
  /** The resolved configuration (the sampler by name). */
  readonly config: ResolvedTransformerConfig;
  /** The Ising sampler of `boltzmann`/`coupling`; `undefined` for `softmax`/`sigmoid`. */
  readonly sampler: Sampler | undefined;
  /** Trainable parameters in canonical order. */
  readonly parameters: readonly TransformerParameter[];
  /**
   * Phase 1 of a step: computes the attention fields and awaits the sampler (sync or async).
   * Returns `undefined` for variants without a sampler.
   */
  prepare(inputs: ArrayLike<number>, batchSize: number): Promise<PreparedEstimates | undefined>;
  /**
   * Differentiable logits `B×T×outputSize` (the caller disposes them). Without `prepared`,
   * a sampler variant calls its sampler synchronously.
   */
  logits(inputs: ArrayLike<number>, batchSize: number, prepared?: PreparedEstimates): tf.Tensor3D;
  /** `prepare` then `logits`: works with asynchronous samplers. */
  forward(inputs: ArrayLike<number>, batchSize: number): Promise<tf.Tensor3D>;
  /** The attention weights `B×H×T×T` (row-major, rows sum to 1 over `j ≤ i`), for inspection. */
  attention(inputs: ArrayLike<number>, batchSize: number): Promise<Float32Array>;
  /** The learned `J` of each head as a `maxLength × maxLength` row-major matrix; `[]` when the variant has no `J`. */
  couplings(): Float64Array[];
  /** All weights and the configuration as a JSON-serializable object. */
  toJSON(): TransformerJSON;
  /**
   * Frees every variable (and a sampler the model created from a name; a sampler instance
   * passed in stays the caller's). The model is unusable afterwards. Safe to call twice.
   */
  dispose(): void;
}

let modelCount = 0;

/** Builds the model around initial parameter values. */
export function buildTransformer(
  config: ResolvedTransformerConfig,
  sampler: Sampler | undefined,
  values: (spec: ParamSpec) => Float32Array,
  ownsSampler = false,
): Transformer {
  const scope = `boltzmann-transformer-${++modelCount}`;
  const parameters: TransformerParameter[] = paramSpecs(config).map((spec) => ({
    name: spec.name,
    decay: spec.decay,
    variable: tf.variable(tf.tensor(values(spec), [...spec.shape]), true, `${scope}/${spec.name}`),
  }));
  const byName = new Map(parameters.map((p) => [p.name, p.variable]));
  const { dModel: d, heads, variant, beta, maxLength } = config;
  const dh = d / heads;
  let disposed = false;
  const p = (name: string): tf.Variable => byName.get(name)!;
  const alive = (): void => {
    if (disposed) throw new AttentionError('ATTENTION_DISPOSED', 'this Transformer has been disposed');
  };
  const lengthOf = (inputs: ArrayLike<number>, batchSize: number): number => {
    alive();
    return sequenceLength(inputs, batchSize, maxLength, config.vocabSize);
  };

  const splitHeads = (x: tf.Tensor, b: number, t: number): tf.Tensor4D =>
    tf.transpose(tf.reshape(x, [b, t, heads, dh]), [0, 2, 1, 3]) as tf.Tensor4D;
  const form = parseCouplingForm(config.couplingForm ?? 'full', maxLength);
  const couplingBuilder = createCouplingBuilder(form, heads);
  const couplingParam = (): tf.Variable => p(form.kind === 'relative' ? RELATIVE_COUPLINGS : COUPLINGS);
  const couplingSlice = (t: number): tf.Tensor3D => couplingBuilder.couplings(couplingParam(), t);
  const embed = (inputs: ArrayLike<number>, b: number, t: number): tf.Tensor => {
    const tokens = tf.reshape(embeddingLookup(Int32Array.from(inputs), p('embedding/token') as tf.Tensor2D), [b, t, d]);
    return tf.add(tokens, tf.slice(p('embedding/position'), [0, 0], [t, d]));
  };
  const fields = (normed: tf.Tensor, b: number, t: number): tf.Tensor4D => {
    if (variant === 'coupling') return tf.zeros([b, heads, t, t]);
    const q = splitHeads(linear(normed, p('attention/query/kernel'), p('attention/query/bias')), b, t);
    const k = splitHeads(linear(normed, p('attention/key/kernel'), p('attention/key/bias')), b, t);
    return tf.div(matMulTransposeB(q, k), Math.sqrt(dh)) as tf.Tensor4D;
  };
  const norm1 = (x: tf.Tensor): tf.Tensor => layerNorm(x, p('block/norm1/gamma'), p('block/norm1/beta'));
  const weights = (normed: tf.Tensor, b: number, t: number, prepared?: PreparedEstimates): tf.Tensor4D => {
    const h = fields(normed, b, t);
    const withJ = usesSampler(variant) ? { couplings: couplingSlice(t), sampler: sampler! } : {};
    return attentionWeights(h, { variant, beta, prepared, ...withJ });
  };

  const model: Transformer = {
    config,
    sampler,
    parameters,
    async prepare(inputs, batchSize) {
      const t = lengthOf(inputs, batchSize);
      if (!usesSampler(variant)) return undefined;
      const { h, j } = tf.tidy(() => {
        const x = embed(inputs, batchSize, t);
        const hs = fields(norm1(x), batchSize, t);
        return { h: Float32Array.from(hs.dataSync()), j: Float32Array.from(couplingSlice(t).dataSync()) };
      });
      return prepareEstimates(h, j, { batch: batchSize, heads, length: t }, sampler!, beta);
    },
    logits(inputs, batchSize, prepared) {
      const t = lengthOf(inputs, batchSize);
      return tf.tidy(() => {
        let x = embed(inputs, batchSize, t);
        const a = norm1(x);
        const w = weights(a, batchSize, t, prepared);
        const v = splitHeads(linear(a, p('attention/value/kernel'), p('attention/value/bias')), batchSize, t);
        const o = tf.reshape(tf.transpose(matMul(w, v), [0, 2, 1, 3]), [batchSize, t, d]);
        x = tf.add(x, linear(o, p('attention/output/kernel'), p('attention/output/bias')));
        if (config.ffn) {
          const n2 = layerNorm(x, p('block/norm2/gamma'), p('block/norm2/beta'));
          const hidden = gelu(linear(n2, p('ffn/hidden/kernel'), p('ffn/hidden/bias')));
          x = tf.add(x, linear(hidden, p('ffn/output/kernel'), p('ffn/output/bias')));
        }
        const out = layerNorm(x, p('final/norm/gamma'), p('final/norm/beta'));
        return linear(out, p('head/kernel'), p('head/bias')) as tf.Tensor3D;
      });
    },
    async forward(inputs, batchSize) {
      const prepared = await model.prepare(inputs, batchSize);
      return model.logits(inputs, batchSize, prepared);
    },
    async attention(inputs, batchSize) {
      const t = lengthOf(inputs, batchSize);
      const prepared = await model.prepare(inputs, batchSize);
      return tf.tidy(() => Float32Array.from(weights(norm1(embed(inputs, batchSize, t)), batchSize, t, prepared).dataSync()));
    },
    couplings() {
      alive();
      if (!usesSampler(variant)) return [];
      // The effective J (relative: Toeplitz; banded: masked), not the raw parameter.
      const data = tf.tidy(() => couplingSlice(maxLength).dataSync());
      const size = maxLength * maxLength;
      return Array.from({ length: heads }, (_, hd) => Float64Array.from(data.subarray(hd * size, (hd + 1) * size)));
    },
    toJSON() {
      alive();
      const out: Record<string, { shape: number[]; data: number[] }> = {};
      for (const { name, variable } of parameters) out[name] = { shape: [...variable.shape], data: Array.from(variable.dataSync()) };
      return { format: 'boltzmann-attention/transformer', version: 1, config, weights: out };
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      for (const { variable } of parameters) variable.dispose();
      couplingBuilder.dispose();
      // A sampler created from a name belongs to the model; an instance passed in belongs to the caller.
      if (ownsSampler && sampler?.dispose !== undefined) {
        void Promise.resolve()
          .then(() => sampler.dispose?.())
          .catch(() => undefined);
      }
    },
  };
  return model;
}

/**
 * Creates the Transformer with deterministic initial weights (given `config.seed`):
 * embeddings and linear kernels N(0, 0.02²), biases 0, LayerNorm gains 1, `J` per `jInit`.
 *
 * @param config see {@link TransformerConfig}; only `vocabSize` and `maxLength` are required.
 * @returns a model whose variables live until `dispose()`.
 * @throws {AttentionError} ATTENTION_INVALID_CONFIG, ATTENTION_SAMPLER_NOT_FOUND.
 * @example
 * import { createTransformer, initBackend } from '@boltzmann/attention';
 * await initBackend();
 * const model = createTransformer({ vocabSize: 65, maxLength: 8, variant: 'boltzmann' });
 * const logits = await model.forward(new Int32Array(16), 2); // 2 sequences of 8 tokens
 * logits.dispose(); model.dispose();
 */
export function createTransformer(config: TransformerConfig): Transformer {
  const resolved = resolveTransformerConfig(config);
  const sampler = samplerFor(resolved, config);
  return buildTransformer(resolved, sampler, (spec) => initialValues(spec, resolved.seed), typeof config.sampler !== 'object');
}
