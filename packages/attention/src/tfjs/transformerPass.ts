// One pass through the model's layers over its variables: embedding, attention blocks and head.
import * as tf from '@tensorflow/tfjs';
import type { Sampler } from '@boltzmann/ising-core';
import { attentionWeights } from './attentionWeights.js';
import type { PreparedEstimates } from '../model/headEstimates.js';
import { fillDropoutMask } from '../model/dropout.js';
import { embeddingLookup, gelu, headProduct, layerNorm, linear } from './layers.js';
import { layerName } from '../core/paramSpecs.js';
import type { ResolvedTransformerConfig } from '../core/transformerConfigTypes.js';
import { usesSampler } from '../core/variants.js';

/** What a pass reads: the configuration, the sampler, the variables and the effective couplings. */
export interface ModelParts {
  readonly config: ResolvedTransformerConfig;
  readonly sampler: Sampler | undefined;
  /** The variable called `name` (one the model has). */
  readonly p: (name: string) => tf.Variable;
  /** A bias or LayerNorm shift: `undefined` in a `bias: false` model. */
  readonly optional: (name: string) => tf.Variable | undefined;
  /** Block `layer`'s effective couplings `[heads, t, t]` (relative: Toeplitz; banded: masked). */
  readonly couplingSlice: (layer: number, t: number) => tf.Tensor3D;
}

/** A block's output: the new residual stream and the block's attention weights. */
export interface BlockOutput {
  readonly x: tf.Tensor;
  readonly w: tf.Tensor4D;
}

function splitHeads(parts: ModelParts, x: tf.Tensor, b: number, t: number): tf.Tensor4D {
  const { dModel: d, heads } = parts.config;
  return tf.transpose(tf.reshape(x, [b, t, heads, d / heads]), [0, 2, 1, 3]) as tf.Tensor4D;
}

/**
 * Inverted dropout of `x` at `site` of block `layer` in training step `step` (identity when
 * `step` is undefined or the rate is 0): the mask is a pure function of (seed, step, layer, site).
 */
function drop(
  parts: ModelParts,
  x: tf.Tensor,
  step: number | undefined,
  layer: number,
  site: string,
): tf.Tensor {
  const rate = parts.config.dropout ?? 0;
  if (step === undefined || rate === 0) return x;
  const mask = fillDropoutMask(new Float32Array(x.size), rate, {
    seed: parts.config.seed,
    step,
    layer,
    site,
  });
  return tf.mul(x, tf.tensor(mask, x.shape));
}

/** A linear map of block `layer` (or of the model when `layer` is undefined), with its bias if the model has biases. */
function dense(parts: ModelParts, x: tf.Tensor, name: string, layer?: number): tf.Tensor {
  const full = layer === undefined ? name : layerName(layer, name);
  return linear(x, parts.p(`${full}/kernel`), parts.optional(`${full}/bias`));
}

function norm(parts: ModelParts, x: tf.Tensor, name: string): tf.Tensor {
  return layerNorm(x, parts.p(`${name}/gamma`), parts.optional(`${name}/beta`));
}

/** The token (and position) embedding of a batch, with its dropout in training step `step`. */
export function embed(
  parts: ModelParts,
  inputs: ArrayLike<number>,
  b: number,
  t: number,
  step?: number,
): tf.Tensor {
  const d = parts.config.dModel;
  const tokens = tf.reshape(
    embeddingLookup(Int32Array.from(inputs), parts.p('embedding/token') as tf.Tensor2D),
    [b, t, d],
  );
  const withPositions =
    parts.config.positions === 'none'
      ? tokens
      : tf.add(tokens, tf.slice(parts.p('embedding/position'), [0, 0], [t, d]));
  return drop(parts, withPositions, step, 0, 'embedding');
}

/** Block `layer`'s first LayerNorm, the input of its attention. */
export function norm1(parts: ModelParts, x: tf.Tensor, layer: number): tf.Tensor {
  return norm(parts, x, layerName(layer, 'block/norm1'));
}

/** Block `layer`'s fields `[b, heads, t, t]`: scaled q·k, or zeros in the coupling-only variant. */
export function fields(
  parts: ModelParts,
  normed: tf.Tensor,
  layer: number,
  b: number,
  t: number,
): tf.Tensor4D {
  const { variant, heads, dModel } = parts.config;
  if (variant === 'coupling') return tf.zeros([b, heads, t, t]);
  const q = splitHeads(parts, dense(parts, normed, 'attention/query', layer), b, t);
  const k = splitHeads(parts, dense(parts, normed, 'attention/key', layer), b, t);
  return headProduct(q, k, { transposeB: true, scale: 1 / Math.sqrt(dModel / heads) });
}

function weights(
  parts: ModelParts,
  normed: tf.Tensor,
  layer: number,
  b: number,
  t: number,
  prepared?: PreparedEstimates,
): tf.Tensor4D {
  const { variant, beta } = parts.config;
  const h = fields(parts, normed, layer, b, t);
  const withJ = usesSampler(variant)
    ? { couplings: parts.couplingSlice(layer, t), sampler: parts.sampler! }
    : {};
  return attentionWeights(h, { variant, beta, prepared, ...withJ });
}

/** Block `layer` on the residual stream `x`: the new stream and the block's attention weights. */
export function block(
  parts: ModelParts,
  x: tf.Tensor,
  layer: number,
  b: number,
  t: number,
  prepared: PreparedEstimates | undefined,
  step: number | undefined,
): BlockOutput {
  const a = norm1(parts, x, layer);
  const w = weights(parts, a, layer, b, t, prepared);
  const v = splitHeads(parts, dense(parts, a, 'attention/value', layer), b, t);
  const dropped = drop(parts, w, step, layer, 'attention') as tf.Tensor4D;
  const o = tf.reshape(tf.transpose(headProduct(dropped, v), [0, 2, 1, 3]), [
    b,
    t,
    parts.config.dModel,
  ]);
  let out = tf.add(
    x,
    drop(parts, dense(parts, o, 'attention/output', layer), step, layer, 'attention/residual'),
  );
  if (parts.config.ffn) {
    const n2 = norm(parts, out, layerName(layer, 'block/norm2'));
    const hidden = gelu(dense(parts, n2, 'ffn/hidden', layer));
    out = tf.add(
      out,
      drop(parts, dense(parts, hidden, 'ffn/output', layer), step, layer, 'ffn/residual'),
    );
  }
  return { x: out, w };
}

/** The final LayerNorm and the head: logits `[b, t, vocab]` (tied to the token embedding or not). */
export function head(parts: ModelParts, x: tf.Tensor): tf.Tensor3D {
  const out = norm(parts, x, 'final/norm');
  if (!parts.config.tieEmbeddings) return dense(parts, out, 'head') as tf.Tensor3D;
  return linear(
    out,
    tf.transpose(parts.p('embedding/token')),
    parts.optional('head/bias'),
  ) as tf.Tensor3D;
}
