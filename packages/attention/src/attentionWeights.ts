import * as tf from '@tensorflow/tfjs';
import type { Sampler } from '@boltzmann/ising-core';
import { AttentionError } from './errors.js';
import { isingMagnetization } from './isingMagnetization.js';
import type { PreparedEstimates } from './isingMagnetization.js';
import type { AttentionVariant } from './variants.js';

/** Options of {@link attentionWeights}. */
export interface AttentionWeightsOptions {
  readonly variant: AttentionVariant;
  /** Inverse temperature β (default 1): `softmax(βh)`, `tanh(βh)`, `p ∝ exp(-βE)`. */
  readonly beta?: number;
  /** `H×T×T` couplings; required by `boltzmann` and `coupling`. */
  readonly couplings?: tf.Tensor3D;
  /** Sampler of the Ising moments; required by `boltzmann` and `coupling`. */
  readonly sampler?: Sampler;
  /** Estimates prepared for these exact fields/couplings (async samplers). */
  readonly prepared?: PreparedEstimates | undefined;
}

/** Lower-triangular `T×T` 0/1 mask: query `i` sees keys `0..i`. */
export function causalMask(length: number): tf.Tensor2D {
  return tf.linalg.bandPart(tf.ones([length, length]), -1, 0) as tf.Tensor2D;
}

/** `α = (m + 1)/2` on the causal prefix, normalized to sum 1 per query. */
function normalizedFromMagnetization(m: tf.Tensor4D, mask: tf.Tensor2D): tf.Tensor4D {
  const alpha = tf.mul(tf.mul(tf.add(m, 1), 0.5), mask);
  // Every α is in (0, 1) for finite fields, so the sum is positive; the floor guards float32 underflow.
  const total = tf.maximum(tf.sum(alpha, -1, true), 1e-30);
  return tf.div(alpha, total) as tf.Tensor4D;
}

/**
 * Causal attention weights `w_ij` (`B×H×T×T`, rows sum to 1 over `j ≤ i`, zero above the
 * diagonal) for one of the four variants (METHOD.md §1):
 * - `softmax`: `softmax_j(β h_ij)` over `j ≤ i`;
 * - `boltzmann`: `α = (m+1)/2`, `m` = Ising magnetizations of `(h, J)` from the sampler, normalized;
 * - `sigmoid`: `m = tanh(β h)` (independent spins, equal to `boltzmann` at `J = 0`), normalized;
 * - `coupling`: the Ising magnetizations at `h = 0` (J only; exactly uniform with an exact sampler).
 *
 * @param scores `B×H×T×T` fields `h_ij = q_i·k_j/√d_k`.
 * @returns differentiable weights with respect to `scores` and `options.couplings`.
 * @throws {AttentionError} ATTENTION_INVALID_ARGUMENT when a sampler variant lacks couplings or a sampler;
 *   see {@link isingMagnetization} for the sampler errors.
 * @example
 * const w = attentionWeights(h, { variant: 'sigmoid' });
 */
export function attentionWeights(scores: tf.Tensor4D, options: AttentionWeightsOptions): tf.Tensor4D {
  const beta = options.beta ?? 1;
  const length = scores.shape[2];
  return tf.tidy(() => {
    const mask = causalMask(length);
    switch (options.variant) {
      case 'softmax': {
        const masked = tf.add(tf.mul(scores, beta), tf.mul(tf.sub(1, mask), -1e9));
        return tf.mul(tf.softmax(masked, -1), mask) as tf.Tensor4D;
      }
      case 'sigmoid':
        return normalizedFromMagnetization(tf.tanh(tf.mul(scores, beta)) as tf.Tensor4D, mask);
      case 'boltzmann':
      case 'coupling': {
        const { couplings, sampler } = options;
        if (couplings === undefined || sampler === undefined) {
          throw new AttentionError('ATTENTION_INVALID_ARGUMENT', `variant "${options.variant}" needs both couplings and a sampler`);
        }
        const fields = options.variant === 'boltzmann' ? scores : tf.zerosLike(scores);
        const m = isingMagnetization(fields, couplings, { sampler, beta, prepared: options.prepared });
        return normalizedFromMagnetization(m, mask);
      }
      default:
        throw new AttentionError('ATTENTION_INVALID_ARGUMENT', `unknown variant ${JSON.stringify(options.variant)}`);
    }
  });
}
