import * as tf from '@tensorflow/tfjs';
import type { Sampler } from '@boltzmann/ising-core';
import { AttentionError } from '../core/errors.js';
import { causalAttentionWeights } from './causalAttentionWeights.js';
import type { PreparedEstimates } from '../model/headEstimates.js';
import type { AttentionVariant } from '../core/variants.js';

/**
 * Options of {@link attentionWeights}.
 *
 * @category Attention
 */
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

/**
 * Lower-triangular `T×T` 0/1 mask: query `i` sees keys `0..i`.
 *
 * @example
 * import { causalMask, initBackend } from '@boltzmann/attention';
 *
 * await initBackend();
 * console.log(causalMask(3).arraySync()); // [[1,0,0],[1,1,0],[1,1,1]]
 * @category Attention
 */
export function causalMask(length: number): tf.Tensor2D {
  return tf.linalg.bandPart(tf.ones([length, length]), -1, 0) as tf.Tensor2D;
}

/**
 * Causal attention weights `w_ij` (`B×H×T×T`, rows sum to 1 over `j ≤ i`, zero above the
 * diagonal) for one of the four variants (METHOD.md §1):
 * - `softmax`: `softmax_j(β h_ij)` over `j ≤ i`;
 * - `boltzmann`: `α = (m+1)/2 = P(s_j = +1)` of the Ising model of `(h, J)` from the sampler, normalized;
 * - `sigmoid`: `α = σ(2βh)`, i.e. `m = tanh(βh)` (independent spins, equal to `boltzmann` at `J = 0`), normalized;
 * - `coupling`: the Ising magnetizations at `h = 0` (J only; exactly uniform with an exact sampler).
 *
 * @summary Causal attention weights `w_ij` (`B×H×T×T`, rows sum to 1 over `j ≤ i`, zero above the diagonal) for one of the four variants (METHOD.md §1).
 * @param scores `B×H×T×T` fields `h_ij = q_i·k_j/√d_k`.
 * @returns differentiable weights with respect to `scores` and `options.couplings`.
 * @throws {AttentionError} ATTENTION_INVALID_ARGUMENT when a sampler variant lacks couplings or a sampler;
 *   see {@link causalAttentionWeights} for the shape and sampler errors.
 * @example
 * import * as tf from '@tensorflow/tfjs';
 * import { attentionWeights, initBackend } from '@boltzmann/attention';
 *
 * await initBackend();
 * const h = tf.randomNormal([1, 1, 4, 4], 0, 1, 'float32', 1) as tf.Tensor4D;
 * const w = attentionWeights(h, { variant: 'sigmoid' });
 * console.log(w.arraySync());
 * @category Attention
 */
export function attentionWeights(
  scores: tf.Tensor4D,
  options: AttentionWeightsOptions,
): tf.Tensor4D {
  const beta = options.beta ?? 1;
  const length = scores.shape[2];
  return tf.tidy(() => {
    switch (options.variant) {
      case 'softmax': {
        const mask = causalMask(length);
        const masked = tf.add(tf.mul(scores, beta), tf.mul(tf.sub(1, mask), -1e9));
        return tf.mul(tf.softmax(masked, -1), mask) as tf.Tensor4D;
      }
      case 'sigmoid':
        // σ(2βh) = (tanh(βh) + 1)/2 in closed form, normalized by ising-core's causal op.
        return causalAttentionWeights(scores, undefined, { variant: 'sigmoid', beta });
      case 'boltzmann':
      case 'coupling': {
        const { couplings, sampler } = options;
        if (couplings === undefined || sampler === undefined) {
          throw new AttentionError(
            'ATTENTION_INVALID_ARGUMENT',
            `variant "${options.variant}" needs both couplings and a sampler`,
          );
        }
        return causalAttentionWeights(scores, couplings, {
          variant: options.variant,
          beta,
          sampler,
          prepared: options.prepared,
        });
      }
      default:
        throw new AttentionError(
          'ATTENTION_INVALID_ARGUMENT',
          `unknown variant ${JSON.stringify(options.variant)}`,
        );
    }
  });
}
