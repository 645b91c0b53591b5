import * as tf from '@tensorflow/tfjs';
import { exactSampler } from '@boltzmann/ising-core';
import type { Sampler } from '@boltzmann/ising-core';
import { attentionWeights } from './attentionWeights.js';
import { AttentionError } from '../core/errors.js';
import { headProduct } from './layers.js';
import { readAsync } from './tensorData.js';
import { prepareEstimates } from './prepareEstimates.js';
import type { PreparedEstimates } from '../model/preparedTypes.js';
import { assertAttentionVariant, usesSampler } from '../core/variants.js';
import type { AttentionVariant } from '../core/variants.js';

/**
 * Options of {@link boltzmannAttention}.
 *
 * @category Attention
 */
export interface BoltzmannAttentionOptions {
  /** Attention variant (default `'boltzmann'`). */
  readonly variant?: AttentionVariant;
  /** `H × T × T` couplings (your `tf.variable`; strict upper triangle used), or `H × L × L` with `L ≥ T` (its top-left block is used). Required by `boltzmann` and `coupling`. */
  readonly couplings?: tf.Tensor3D;
  /** A synchronous sampler of the Ising moments (default: ising-core's exact sampler). */
  readonly sampler?: Sampler;
  /** Inverse temperature β (default 1). */
  readonly beta?: number;
  /**
   * Estimates made for exactly these inputs by {@link prepareBoltzmannAttention}: for an
   * asynchronous sampler, and on webgpu (no synchronous reads), where they are required.
   */
  readonly prepared?: PreparedEstimates | undefined;
}

let defaultSampler: Sampler | undefined;
/** ising-core's exact sampler, created on first use and shared by every call that names none. */
const sharedExactSampler = (): Sampler => {
  defaultSampler ??= exactSampler.create();
  return defaultSampler;
};

const shapeError = (message: string): AttentionError =>
  new AttentionError('ATTENTION_SHAPE_MISMATCH', message);

/** The variant, sizes and couplings of a call, each checked. */
function checkInputs(query: tf.Tensor4D, key: tf.Tensor4D, options: BoltzmannAttentionOptions) {
  const variant = options.variant ?? 'boltzmann';
  assertAttentionVariant(variant);
  if (query.rank !== 4 || key.rank !== 4) {
    throw shapeError(
      `query and key must be B × H × T × d tensors, got ranks ${query.rank}, ${key.rank}`,
    );
  }
  const [, h, t] = query.shape;
  if (key.shape.join() !== query.shape.join())
    throw shapeError(`key has shape [${key.shape}], query [${query.shape}]: they must match`);
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
  return { variant, h, t, J };
}

/** The scores `q kᵀ / √d` and the couplings' top-left `T × T` block. */
function scoresAndCouplings(
  query: tf.Tensor4D,
  key: tf.Tensor4D,
  J: tf.Tensor3D | undefined,
): { scores: tf.Tensor4D; couplings: tf.Tensor3D | undefined } {
  const [, h, t, d] = query.shape;
  const scores = headProduct(query, key, { transposeB: true, scale: 1 / Math.sqrt(d) });
  const couplings =
    J === undefined || J.shape[1] === t ? J : (tf.slice(J, [0, 0, 0], [h, t, t]) as tf.Tensor3D);
  return { scores, couplings };
}

/**
 * Causal multi-head attention whose weights are Boltzmann attention (or any of the paper's other
 * variants), as a differentiable TensorFlow.js tensor function to drop into your own model:
 * scores `h = q kᵀ / √d_head`, weights `α_ij ∝ (⟨s_j⟩ + 1)/2` over keys `j ≤ i` from the Ising
 * model with fields `h_i·` and couplings `J`, output `α v`. Gradients reach `query`, `key`, `value`
 * and `couplings` (through the sampler's VJP), so `J` trains with any tfjs optimizer.
 *
 * @summary Causal multi-head attention whose weights are Boltzmann attention (or another variant), differentiable.
 * @param query `B × H × T × d` (heads already split).
 * @param key `B × H × T × d`.
 * @param value `B × H × T × d_v`.
 * @param options variant, couplings, sampler, beta.
 * @returns `B × H × T × d_v`.
 * @throws {AttentionError} ATTENTION_SHAPE_MISMATCH for inconsistent shapes; ATTENTION_INVALID_CONFIG
 *   for an unknown variant or missing couplings; ATTENTION_ASYNC_SAMPLER for an asynchronous
 *   sampler; the sampler's IsingError codes (e.g. ISING_TOO_MANY_SPINS past its limit).
 * @example
 * import * as tf from '@tensorflow/tfjs';
 * import { boltzmannAttention, initBackend } from '@boltzmann/attention';
 *
 * await initBackend();
 * const [B, H, T, d] = [1, 2, 4, 8];
 * const [q, k, v] = [1, 2, 3].map((seed) => tf.randomNormal([B, H, T, d], 0, 1, 'float32', seed) as tf.Tensor4D);
 * const J = tf.variable(tf.zeros([H, T, T]));
 * const out = boltzmannAttention(q!, k!, v!, { couplings: J as tf.Tensor3D });
 * console.log(out.shape); // B × H × T × d_v
 * @category Attention
 */
export function boltzmannAttention(
  query: tf.Tensor4D,
  key: tf.Tensor4D,
  value: tf.Tensor4D,
  options: BoltzmannAttentionOptions = {},
): tf.Tensor4D {
  if (query.rank !== 4 || key.rank !== 4 || value.rank !== 4) {
    throw shapeError(
      `query, key and value must be B × H × T × d tensors, got ranks ${query.rank}, ${key.rank}, ${value.rank}`,
    );
  }
  const { variant, h, t, J } = checkInputs(query, key, options);
  const [b] = query.shape;
  if (value.shape[0] !== b || value.shape[1] !== h || value.shape[2] !== t) {
    throw shapeError(`value has shape [${value.shape}]; it needs [${b}, ${h}, ${t}, d_v]`);
  }
  return tf.tidy(() => {
    const { scores, couplings } = scoresAndCouplings(query, key, J);
    const sampler = usesSampler(variant) ? (options.sampler ?? sharedExactSampler()) : undefined;
    const weights = attentionWeights(scores, {
      variant,
      ...(options.beta === undefined ? {} : { beta: options.beta }),
      ...(couplings === undefined ? {} : { couplings }),
      ...(sampler === undefined ? {} : { sampler }),
      ...(options.prepared === undefined ? {} : { prepared: options.prepared }),
    });
    return headProduct(weights, value);
  });
}

/**
 * Phase 1 of {@link boltzmannAttention} for the same `query`, `key` and options: the scores and
 * couplings read asynchronously and the sampler awaited, per head.
 *
 * Pass the result as `prepared` to run the layer with an asynchronous (remote) sampler, or on
 * webgpu, which cannot read tensors synchronously (there it also holds the weights and their
 * Jacobians, so the layer is tensor ops only). Prepare again whenever the inputs or `J` change.
 *
 * @param query `B × H × T × d`.
 * @param key `B × H × T × d`.
 * @param options as for {@link boltzmannAttention} (variant, couplings, sampler, beta).
 * @returns the estimates, or `undefined` for `softmax` and `sigmoid` (no sampler).
 * @throws {AttentionError} as {@link boltzmannAttention}; ATTENTION_SAMPLER_TIMEOUT.
 * @example
 * import * as tf from '@tensorflow/tfjs';
 * import { gibbsSampler } from '@boltzmann/ising-core';
 * import { boltzmannAttention, initBackend, prepareBoltzmannAttention } from '@boltzmann/attention';
 *
 * await initBackend();
 * const [B, H, T, d] = [1, 1, 4, 8];
 * const [q, k, v] = [1, 2, 3].map((seed) => tf.randomNormal([B, H, T, d], 0, 1, 'float32', seed) as tf.Tensor4D);
 * const J = tf.zeros([H, T, T]) as tf.Tensor3D;
 * const sampler = gibbsSampler.create({ seed: 1 }); // asynchronous samplers are awaited here, not in the op
 * const prepared = await prepareBoltzmannAttention(q!, k!, { couplings: J, sampler });
 * const out = boltzmannAttention(q!, k!, v!, { couplings: J, sampler, prepared });
 * console.log(out.shape);
 * @category Attention
 */
export async function prepareBoltzmannAttention(
  query: tf.Tensor4D,
  key: tf.Tensor4D,
  options: BoltzmannAttentionOptions = {},
): Promise<PreparedEstimates | undefined> {
  const { variant, h, t, J } = checkInputs(query, key, options);
  if (!usesSampler(variant)) return undefined;
  const [b] = query.shape;
  const fields = await readAsync(() => scoresAndCouplings(query, key, undefined).scores);
  // A slice, never J itself: the read disposes what it reads.
  const couplings = await readAsync(() => tf.slice(J!, [0, 0, 0], [h, t, t]));
  const sampler = options.sampler ?? sharedExactSampler();
  return prepareEstimates(
    fields,
    couplings,
    { batch: b, heads: h, length: t },
    sampler,
    options.beta ?? 1,
    {
      variant: variant as 'boltzmann' | 'coupling',
    },
  );
}
