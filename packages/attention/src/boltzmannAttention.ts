import * as tf from '@tensorflow/tfjs';
import { exactSampler } from '@boltzmann/ising-core';
import type { Sampler } from '@boltzmann/ising-core';
import { attentionWeights } from './attentionWeights.js';
import { AttentionError } from './errors.js';
import { headProduct } from './internal/layers.js';
import { assertAttentionVariant, usesSampler } from './variants.js';
import type { AttentionVariant } from './variants.js';

/** Options of {@link boltzmannAttention}. */
export interface BoltzmannAttentionOptions {
  /** Attention variant (default `'boltzmann'`). */
  readonly variant?: AttentionVariant;
  /** `H × T × T` couplings (your `tf.variable`; strict upper triangle used), or `H × L × L` with `L ≥ T` (its top-left block is used). Required by `boltzmann` and `coupling`. */
  readonly couplings?: tf.Tensor3D;
  /** A synchronous sampler of the Ising moments (default: ising-core's exact sampler). */
  readonly sampler?: Sampler;
  /** Inverse temperature β (default 1). */
  readonly beta?: number;
}

let defaultSampler: Sampler | undefined;
/** ising-core's exact sampler, created on first use and shared by every call that names none. */
const sharedExactSampler = (): Sampler => {
  defaultSampler ??= exactSampler.create();
  return defaultSampler;
};

const shapeError = (message: string): AttentionError =>
  new AttentionError('ATTENTION_SHAPE_MISMATCH', message);

/**
 * Causal multi-head attention whose weights are Boltzmann attention (or any of the paper's other
 * variants), as a differentiable TensorFlow.js tensor function to drop into your own model:
 * scores `h = q kᵀ / √d_head`, weights `α_ij ∝ (⟨s_j⟩ + 1)/2` over keys `j ≤ i` from the Ising
 * model with fields `h_i·` and couplings `J`, output `α v`. Gradients reach `query`, `key`, `value`
 * and `couplings` (through the sampler's VJP), so `J` trains with any tfjs optimizer.
 *
 * @param query `B × H × T × d` (heads already split).
 * @param key `B × H × T × d`.
 * @param value `B × H × T × d_v`.
 * @param options variant, couplings, sampler, beta.
 * @returns `B × H × T × d_v`.
 * @throws {AttentionError} ATTENTION_SHAPE_MISMATCH for inconsistent shapes; ATTENTION_INVALID_CONFIG
 *   for an unknown variant or missing couplings; ATTENTION_ASYNC_SAMPLER for an asynchronous
 *   sampler; the sampler's IsingError codes (e.g. ISING_TOO_MANY_SPINS past its limit).
 * @example
 * const J = tf.variable(tf.zeros([heads, T, T]));
 * const out = boltzmannAttention(q, k, v, { couplings: J }); // B × H × T × d_v
 */
export function boltzmannAttention(
  query: tf.Tensor4D,
  key: tf.Tensor4D,
  value: tf.Tensor4D,
  options: BoltzmannAttentionOptions = {},
): tf.Tensor4D {
  const variant = options.variant ?? 'boltzmann';
  assertAttentionVariant(variant);
  if (query.rank !== 4 || key.rank !== 4 || value.rank !== 4) {
    throw shapeError(
      `query, key and value must be B × H × T × d tensors, got ranks ${query.rank}, ${key.rank}, ${value.rank}`,
    );
  }
  const [b, h, t, d] = query.shape;
  if (key.shape.join() !== query.shape.join())
    throw shapeError(`key has shape [${key.shape}], query [${query.shape}]: they must match`);
  if (value.shape[0] !== b || value.shape[1] !== h || value.shape[2] !== t) {
    throw shapeError(`value has shape [${value.shape}]; it needs [${b}, ${h}, ${t}, d_v]`);
  }
  const J = options.couplings;
  if (usesSampler(variant)) {
    if (J === undefined)
      throw new AttentionError(
        'ATTENTION_INVALID_CONFIG',
        `variant '${variant}' needs couplings (an H × T × T tensor)`,
      );
    if (J.rank !== 3 || J.shape[0] !== h || J.shape[1] !== J.shape[2] || J.shape[1] < t) {
      throw shapeError(
        `couplings have shape [${J.shape}]; ${h} heads at length ${t} need [${h}, L, L] with L ≥ ${t}`,
      );
    }
  }
  return tf.tidy(() => {
    const scores = headProduct(query, key, { transposeB: true, scale: 1 / Math.sqrt(d) });
    const couplings =
      J === undefined || J.shape[1] === t ? J : (tf.slice(J, [0, 0, 0], [h, t, t]) as tf.Tensor3D);
    const sampler = usesSampler(variant) ? (options.sampler ?? sharedExactSampler()) : undefined;
    const weights = attentionWeights(scores, {
      variant,
      ...(options.beta === undefined ? {} : { beta: options.beta }),
      ...(couplings === undefined ? {} : { couplings }),
      ...(sampler === undefined ? {} : { sampler }),
    });
    return headProduct(weights, value);
  });
}
