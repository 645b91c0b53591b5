import * as tf from '@tensorflow/tfjs';

/** Hyper-parameters of one AdamW update. */
export interface AdamWHyper {
  readonly lr: number;
  readonly beta1: number;
  readonly beta2: number;
  readonly epsilon: number;
  /** Decoupled decay rate for this parameter (0 for J, biases, LayerNorm). */
  readonly weightDecay: number;
  /** 1-based step number, for the bias corrections. */
  readonly step: number;
}

/**
 * One decoupled-weight-decay Adam update (Loshchilov & Hutter; PyTorch's `AdamW`):
 * `m ← β1 m + (1-β1) g`, `v ← β2 v + (1-β2) g²`,
 * `p ← p (1 - lr λ) - lr m̂ / (√v̂ + ε)` with `m̂ = m/(1-β1^t)`, `v̂ = v/(1-β2^t)`.
 * Mutates `param`, `m`, `v`; creates no lasting tensors.
 */
export function adamWUpdate(param: tf.Variable, grad: tf.Tensor, m: tf.Variable, v: tf.Variable, hyper: AdamWHyper): void {
  const { lr, beta1, beta2, epsilon, weightDecay, step } = hyper;
  tf.tidy(() => {
    const m1 = tf.add(tf.mul(m, beta1), tf.mul(grad, 1 - beta1));
    const v1 = tf.add(tf.mul(v, beta2), tf.mul(tf.square(grad), 1 - beta2));
    const mHat = tf.div(m1, 1 - beta1 ** step);
    const vHat = tf.div(v1, 1 - beta2 ** step);
    const decayed = weightDecay > 0 ? tf.mul(param, 1 - lr * weightDecay) : param;
    const next = tf.sub(decayed, tf.mul(tf.div(mHat, tf.add(tf.sqrt(vHat), epsilon)), lr));
    m.assign(m1);
    v.assign(v1);
    param.assign(next);
  });
}

/** `√Σ‖g‖²` over every gradient. */
export function globalNorm(grads: readonly tf.Tensor[]): tf.Scalar {
  return tf.tidy(() => tf.sqrt(tf.addN(grads.map((g) => tf.sum(tf.square(g))))) as tf.Scalar);
}

/**
 * The factor PyTorch's `clip_grad_norm_` multiplies every gradient by: `clip/(norm + 1e-6)`
 * when that is below 1, else 1. A clip of 0 or `Infinity` disables clipping.
 */
export function clipScale(norm: tf.Scalar, clipNorm: number): tf.Scalar {
  if (!(clipNorm > 0 && Number.isFinite(clipNorm))) return tf.scalar(1);
  return tf.tidy(() => tf.minimum(1, tf.div(clipNorm, tf.add(norm, 1e-6))) as tf.Scalar);
}
