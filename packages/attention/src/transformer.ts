import * as tf from '@tensorflow/tfjs';
import { createRng } from '@boltzmann/ising-core';
import type { Sampler } from '@boltzmann/ising-core';
import { attentionWeights } from './attentionWeights.js';
import { AttentionError } from './errors.js';
import { prepareEstimates } from './preparedEstimates.js';
import type { PreparedEstimates } from './preparedEstimates.js';
import { hash, initialValues } from './internal/init.js';
import type { ParamSpec } from './internal/init.js';
import { sequenceLength } from './internal/inputs.js';
import { embeddingLookup, gelu, headProduct, layerNorm, linear } from './internal/layers.js';
import { COUPLINGS, RELATIVE_COUPLINGS, layerName, paramSpecs } from './internal/paramSpecs.js';
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

/**
 * What {@link Transformer.prepare} returns: the estimates of every layer. A one-layer model
 * returns the plain {@link PreparedEstimates} (`layers` absent); a model with `L > 1` layers
 * sets `layers` (one per layer, in order) and `heads` to layer 0's heads.
 */
export interface TransformerPrepared extends PreparedEstimates {
  readonly layers?: readonly PreparedEstimates[];
}

/** Options of one pass: {@link Transformer.prepare} and {@link Transformer.logits} of a training step. */
export interface PassOptions {
  /**
   * The 0-based training step; when set and `config.dropout > 0`, dropout is active with masks
   * drawn from the model seed and this step (the same in `prepare` and `logits` of the step).
   * Unset (the default): no dropout.
   */
  readonly dropoutStep?: number;
}

/** The JSON form of a model's weights: `{ config, weights }`, see {@link Transformer.toJSON}. */
export interface TransformerJSON {
  readonly format: 'boltzmann-attention/transformer';
  readonly version: 1;
  readonly config: ResolvedTransformerConfig;
  readonly weights: Readonly<
    Record<string, { readonly shape: readonly number[]; readonly data: readonly number[] }>
  >;
}

/**
 * The decoder-only Transformer of METHOD.md §5/§7: token + learned positional embedding,
 * `layers` pre-LayerNorm blocks (attention with residual; optional GELU FFN with residual), final
 * LayerNorm, linear head (optionally tied to the token embedding).
 */
export interface Transformer {
  /** The resolved configuration (the sampler by name). */
  readonly config: ResolvedTransformerConfig;
  /** The Ising sampler of `boltzmann`/`coupling`; `undefined` for `softmax`/`sigmoid`. */
  readonly sampler: Sampler | undefined;
  /** Trainable parameters in canonical order. */
  readonly parameters: readonly TransformerParameter[];
  /**
   * Phase 1 of a step: computes the attention fields and awaits the sampler (sync or async),
   * layer by layer (layer ℓ's fields need layer ℓ − 1's output, computed with its estimates).
   * Returns `undefined` for variants without a sampler.
   */
  prepare(
    inputs: ArrayLike<number>,
    batchSize: number,
    options?: PassOptions,
  ): Promise<TransformerPrepared | undefined>;
  /**
   * Differentiable logits `B×T×outputSize` (the caller disposes them). Without `prepared`,
   * a sampler variant calls its sampler synchronously.
   */
  logits(
    inputs: ArrayLike<number>,
    batchSize: number,
    prepared?: TransformerPrepared,
    options?: PassOptions,
  ): tf.Tensor3D;
  /** `logits` after `prepare` when the sampler is asynchronous: works with every sampler. */
  forward(inputs: ArrayLike<number>, batchSize: number): Promise<tf.Tensor3D>;
  /**
   * The attention weights `B×H×T×T` (row-major, rows sum to 1 over `j ≤ i`), for inspection;
   * with `L` layers, `L×B×H×T×T` (layer-major).
   */
  attention(inputs: ArrayLike<number>, batchSize: number): Promise<Float32Array>;
  /**
   * The learned `J` of each (layer, head) as a `maxLength × maxLength` row-major matrix,
   * layer-major (`[ℓ·heads + h]`); `[]` when the variant has no `J`.
   */
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

function dropoutStepOf(options: PassOptions): number | undefined {
  const step = options?.dropoutStep;
  if (step !== undefined && (!Number.isInteger(step) || step < 0)) {
    throw new AttentionError(
      'ATTENTION_INVALID_ARGUMENT',
      `dropoutStep must be a non-negative integer, got ${String(step)}`,
    );
  }
  return step;
}

/** Builds the model around initial parameter values. */
export function buildTransformer(
  config: ResolvedTransformerConfig,
  sampler: Sampler | undefined,
  values: (spec: ParamSpec) => Float32Array,
  ownsSampler = false,
): Transformer {
  const scope = `boltzmann-transformer-${++modelCount}`;
  const parameters: TransformerParameter[] = paramSpecs(config).map((spec) => {
    const initial = tf.tensor(values(spec), [...spec.shape]);
    const variable = tf.variable(initial, true, `${scope}/${spec.name}`);
    initial.dispose(); // the variable holds its own reference to the data
    return { name: spec.name, decay: spec.decay, variable };
  });
  const byName = new Map(parameters.map((p) => [p.name, p.variable]));
  const { dModel: d, heads, variant, beta, maxLength } = config;
  const layers = config.layers ?? 1;
  const dh = d / heads;
  let disposed = false;
  const p = (name: string): tf.Variable => byName.get(name)!;
  /** A bias or LayerNorm shift: `undefined` in a `bias: false` model. */
  const optional = (name: string): tf.Variable | undefined => byName.get(name);
  const alive = (): void => {
    if (disposed)
      throw new AttentionError('ATTENTION_DISPOSED', 'this Transformer has been disposed');
  };
  const lengthOf = (inputs: ArrayLike<number>, batchSize: number): number => {
    alive();
    return sequenceLength(inputs, batchSize, maxLength, config.vocabSize);
  };

  const splitHeads = (x: tf.Tensor, b: number, t: number): tf.Tensor4D =>
    tf.transpose(tf.reshape(x, [b, t, heads, dh]), [0, 2, 1, 3]) as tf.Tensor4D;
  const form = parseCouplingForm(config.couplingForm ?? 'full', maxLength);
  const couplingBuilder = createCouplingBuilder(form, heads);
  const couplingSlice = (layer: number, t: number): tf.Tensor3D =>
    couplingBuilder.couplings(
      p(layerName(layer, form.kind === 'relative' ? RELATIVE_COUPLINGS : COUPLINGS)),
      t,
    );
  const rate = config.dropout ?? 0;
  /**
   * Inverted dropout of `x` at `site` of block `layer` in training step `step` (identity when
   * `step` is undefined or the rate is 0): the mask is a pure function of (seed, step, layer, site).
   */
  const drop = (x: tf.Tensor, step: number | undefined, layer: number, site: string): tf.Tensor => {
    if (step === undefined || rate === 0) return x;
    const rng = createRng(
      hash(`${config.seed}/dropout/${step}/${layer}/${site}`) + config.seed * 2 ** 32,
    );
    const keep = 1 / (1 - rate);
    const mask = Float32Array.from({ length: x.size }, () => (rng.next() < rate ? 0 : keep));
    return tf.mul(x, tf.tensor(mask, x.shape));
  };
  const embed = (inputs: ArrayLike<number>, b: number, t: number, step?: number): tf.Tensor => {
    const tokens = tf.reshape(
      embeddingLookup(Int32Array.from(inputs), p('embedding/token') as tf.Tensor2D),
      [b, t, d],
    );
    const withPositions =
      config.positions === 'none'
        ? tokens
        : tf.add(tokens, tf.slice(p('embedding/position'), [0, 0], [t, d]));
    return drop(withPositions, step, 0, 'embedding');
  };
  /** A linear map of block `layer` (or of the model when `layer` is undefined), with its bias if the model has biases. */
  const dense = (x: tf.Tensor, name: string, layer?: number): tf.Tensor => {
    const full = layer === undefined ? name : layerName(layer, name);
    return linear(x, p(`${full}/kernel`), optional(`${full}/bias`));
  };
  const norm = (x: tf.Tensor, name: string): tf.Tensor =>
    layerNorm(x, p(`${name}/gamma`), optional(`${name}/beta`));
  const fields = (normed: tf.Tensor, layer: number, b: number, t: number): tf.Tensor4D => {
    if (variant === 'coupling') return tf.zeros([b, heads, t, t]);
    const q = splitHeads(dense(normed, 'attention/query', layer), b, t);
    const k = splitHeads(dense(normed, 'attention/key', layer), b, t);
    return headProduct(q, k, { transposeB: true, scale: 1 / Math.sqrt(dh) });
  };
  const norm1 = (x: tf.Tensor, layer: number): tf.Tensor =>
    norm(x, layerName(layer, 'block/norm1'));
  const weights = (
    normed: tf.Tensor,
    layer: number,
    b: number,
    t: number,
    prepared?: PreparedEstimates,
  ): tf.Tensor4D => {
    const h = fields(normed, layer, b, t);
    const withJ = usesSampler(variant)
      ? { couplings: couplingSlice(layer, t), sampler: sampler! }
      : {};
    return attentionWeights(h, { variant, beta, prepared, ...withJ });
  };
  /** Block `layer` on the residual stream `x`: the new stream and the block's attention weights. */
  const block = (
    x: tf.Tensor,
    layer: number,
    b: number,
    t: number,
    prepared: PreparedEstimates | undefined,
    step: number | undefined,
  ): { x: tf.Tensor; w: tf.Tensor4D } => {
    const a = norm1(x, layer);
    const w = weights(a, layer, b, t, prepared);
    const v = splitHeads(dense(a, 'attention/value', layer), b, t);
    const o = tf.reshape(
      tf.transpose(headProduct(drop(w, step, layer, 'attention') as tf.Tensor4D, v), [0, 2, 1, 3]),
      [b, t, d],
    );
    let out = tf.add(
      x,
      drop(dense(o, 'attention/output', layer), step, layer, 'attention/residual'),
    );
    if (config.ffn) {
      const n2 = norm(out, layerName(layer, 'block/norm2'));
      out = tf.add(
        out,
        drop(
          dense(gelu(dense(n2, 'ffn/hidden', layer)), 'ffn/output', layer),
          step,
          layer,
          'ffn/residual',
        ),
      );
    }
    return { x: out, w };
  };
  /** Layer `layer`'s estimates: `prepared.layers[ℓ]`, or `prepared` itself for layer 0 (the one-layer form). */
  const estimatesOf = (
    prepared: TransformerPrepared | undefined,
    layer: number,
  ): PreparedEstimates | undefined =>
    prepared === undefined
      ? undefined
      : (prepared.layers?.[layer] ?? (layer === 0 ? prepared : undefined));
  const head = (x: tf.Tensor): tf.Tensor3D => {
    const out = norm(x, 'final/norm');
    if (!config.tieEmbeddings) return dense(out, 'head') as tf.Tensor3D;
    return linear(out, tf.transpose(p('embedding/token')), optional('head/bias')) as tf.Tensor3D;
  };

  /** Phase 1 for an asynchronous sampler only: a synchronous one is called in the same pass. */
  const prepareIfAsync = (
    inputs: ArrayLike<number>,
    batchSize: number,
  ): Promise<TransformerPrepared | undefined> =>
    sampler?.capabilities.async === true
      ? model.prepare(inputs, batchSize)
      : Promise.resolve(undefined);

  const model: Transformer = {
    config,
    sampler,
    parameters,
    async prepare(inputs, batchSize, options = {}) {
      const t = lengthOf(inputs, batchSize);
      const step = dropoutStepOf(options);
      if (!usesSampler(variant)) return undefined;
      // Layer ℓ's fields depend on layer ℓ − 1's output, which needs layer ℓ − 1's estimates:
      // the layers are prepared one after another.
      let x = tf.tidy(() => embed(inputs, batchSize, t, step));
      const estimates: PreparedEstimates[] = [];
      try {
        for (let layer = 0; layer < layers; layer++) {
          const stream = x;
          const { h, j } = tf.tidy(() => ({
            h: Float32Array.from(fields(norm1(stream, layer), layer, batchSize, t).dataSync()),
            j: Float32Array.from(couplingSlice(layer, t).dataSync()),
          }));
          const prepared = await prepareEstimates(
            h,
            j,
            { batch: batchSize, heads, length: t },
            sampler!,
            beta,
          );
          estimates.push(prepared);
          if (layer + 1 < layers) {
            alive();
            x = tf.tidy(() => block(stream, layer, batchSize, t, prepared, step).x);
            stream.dispose();
          }
        }
      } finally {
        x.dispose();
      }
      return layers === 1 ? estimates[0]! : { heads: estimates[0]!.heads, layers: estimates };
    },
    logits(inputs, batchSize, prepared, options = {}) {
      const t = lengthOf(inputs, batchSize);
      const step = dropoutStepOf(options);
      return tf.tidy(() => {
        let x = embed(inputs, batchSize, t, step);
        for (let layer = 0; layer < layers; layer++)
          x = block(x, layer, batchSize, t, estimatesOf(prepared, layer), step).x;
        return head(x);
      });
    },
    async forward(inputs, batchSize) {
      return model.logits(inputs, batchSize, await prepareIfAsync(inputs, batchSize));
    },
    async attention(inputs, batchSize) {
      const t = lengthOf(inputs, batchSize);
      const prepared = await prepareIfAsync(inputs, batchSize);
      alive();
      return tf.tidy(() => {
        let x = embed(inputs, batchSize, t);
        const all: tf.Tensor4D[] = [];
        for (let layer = 0; layer < layers; layer++) {
          const out = block(x, layer, batchSize, t, estimatesOf(prepared, layer), undefined);
          all.push(out.w);
          x = out.x;
        }
        return Float32Array.from((layers === 1 ? all[0]! : tf.concat(all, 0)).dataSync());
      });
    },
    couplings() {
      alive();
      if (!usesSampler(variant)) return [];
      // The effective J (relative: Toeplitz; banded: masked), not the raw parameter; layer-major.
      const size = maxLength * maxLength;
      const out: Float64Array[] = [];
      for (let layer = 0; layer < layers; layer++) {
        const data = tf.tidy(() => couplingSlice(layer, maxLength).dataSync());
        for (let hd = 0; hd < heads; hd++)
          out.push(Float64Array.from(data.subarray(hd * size, (hd + 1) * size)));
      }
      return out;
    },
    toJSON() {
      alive();
      const out: Record<string, { shape: number[]; data: number[] }> = {};
      for (const { name, variable } of parameters)
        out[name] = { shape: [...variable.shape], data: Array.from(variable.dataSync()) };
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
  return buildTransformer(
    resolved,
    sampler,
    (spec) => initialValues(spec, resolved.seed),
    typeof config.sampler !== 'object',
  );
}
