// The model itself: parameters, embedding, blocks and head as closures over the variables.
import * as tf from '@tensorflow/tfjs';
import { createRng } from '@boltzmann/ising-core';
import type { Sampler } from '@boltzmann/ising-core';
import { attentionWeights } from './attentionWeights.js';
import { AttentionError } from './errors.js';
import { prepareEstimates } from './preparedEstimates.js';
import type { PreparedEstimates } from './preparedEstimates.js';
import { hash } from './internal/init.js';
import type { ParamSpec } from './internal/init.js';
import { sequenceLength } from './internal/inputs.js';
import { readOutsideTidy } from './internal/tensorData.js';
import { embeddingLookup, gelu, headProduct, layerNorm, linear } from './internal/layers.js';
import { COUPLINGS, RELATIVE_COUPLINGS, layerName, paramSpecs } from './internal/paramSpecs.js';
import { createCouplingBuilder, parseCouplingForm } from './couplingForm.js';
import type { ResolvedTransformerConfig } from './transformerConfig.js';
import type {
  PassOptions,
  Transformer,
  TransformerParameter,
  TransformerPrepared,
} from './modelTypes.js';
import { usesSampler } from './variants.js';

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

/** How the model holds its sampler: whether it disposes it, and how long it awaits one answer (checked). */
export interface SamplerHold {
  readonly ownsSampler: boolean;
  readonly samplerTimeoutMs: number;
}

/** Builds the model around initial parameter values. */
export function buildTransformer(
  config: ResolvedTransformerConfig,
  sampler: Sampler | undefined,
  values: (spec: ParamSpec) => Float32Array,
  hold: SamplerHold,
): Transformer {
  const { ownsSampler, samplerTimeoutMs } = hold;
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
          const h = readOutsideTidy(() => fields(norm1(stream, layer), layer, batchSize, t));
          const j = readOutsideTidy(() => couplingSlice(layer, t));
          const prepared = await prepareEstimates(
            h,
            j,
            { batch: batchSize, heads, length: t },
            sampler!,
            beta,
            { timeoutMs: samplerTimeoutMs },
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
      return readOutsideTidy(() => {
        let x = embed(inputs, batchSize, t);
        const all: tf.Tensor4D[] = [];
        for (let layer = 0; layer < layers; layer++) {
          const out = block(x, layer, batchSize, t, estimatesOf(prepared, layer), undefined);
          all.push(out.w);
          x = out.x;
        }
        return layers === 1 ? all[0]! : tf.concat(all, 0);
      });
    },
    couplings() {
      alive();
      if (!usesSampler(variant)) return [];
      // The effective J (relative: Toeplitz; banded: masked), not the raw parameter; layer-major.
      const size = maxLength * maxLength;
      const out: Float64Array[] = [];
      for (let layer = 0; layer < layers; layer++) {
        const data = readOutsideTidy(() => couplingSlice(layer, maxLength));
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
