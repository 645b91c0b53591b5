import * as tf from '@tensorflow/tfjs';
import { AttentionError } from './core/errors.js';

/**
 * Masked mean cross-entropy `Σ mask·(−log softmax(logits)[target]) / Σ mask`.
 * Targets at positions with mask 0 are ignored (any integer is accepted there).
 *
 * @param logits `B×T×C` tensor.
 * @param targets `B×T` class indices in `[0, C)` where the mask is positive.
 * @param mask `B×T` non-negative weights (validated by the caller; not all zero).
 * @returns a scalar tensor (differentiable with respect to `logits`).
 * @throws {AttentionError} ATTENTION_SHAPE_MISMATCH, ATTENTION_INVALID_TOKEN naming the bad target.
 * @example
 * const loss = maskedCrossEntropy(logits, targets, new Float32Array(targets.length).fill(1));
 */
export function maskedCrossEntropy(
  logits: tf.Tensor3D,
  targets: ArrayLike<number>,
  mask: Float32Array,
): tf.Scalar {
  const [b, t, classes] = logits.shape;
  const clean = checkTargets(targets, mask, b * t, classes);
  // The analytic gradient `(softmax − onehot)·w/Σw` replaces tfjs' tape through logSoftmax,
  // the one-hot product and the sums (fewer kernels and saved copies); the forward is unchanged.
  const loss = tf.customGrad((...args: (tf.Tensor | tf.GradSaveFunc)[]) => {
    const x = args[0] as tf.Tensor3D;
    const save = args[1] as tf.GradSaveFunc;
    const logp = tf.logSoftmax(tf.reshape(x, [b * t, classes]));
    const oneHot = tf.cast(tf.oneHot(tf.tensor1d(clean, 'int32'), classes), 'float32');
    const picked = tf.sum(tf.mul(logp, oneHot), -1);
    const w = tf.tensor1d(mask);
    const total = tf.sum(w);
    save([logp, oneHot, tf.reshape(tf.div(w, total), [b * t, 1])]);
    const gradFunc = (dy: tf.Tensor, saved: tf.Tensor[]): tf.Tensor => {
      const [lp, hot, weight] = saved as [tf.Tensor, tf.Tensor, tf.Tensor];
      return tf.reshape(tf.mul(tf.sub(tf.exp(lp), hot), tf.mul(weight, dy)), [b, t, classes]);
    };
    return { value: tf.div(tf.neg(tf.sum(tf.mul(picked, w))), total) as tf.Scalar, gradFunc };
  }) as (x: tf.Tensor3D) => tf.Scalar;
  return loss(logits);
}

/** Validates targets where the mask is positive; returns them with masked-out entries set to 0. */
export function checkTargets(
  targets: ArrayLike<number>,
  mask: Float32Array,
  size: number,
  classes: number,
): Int32Array {
  if (targets.length !== size || mask.length !== size) {
    throw new AttentionError(
      'ATTENTION_SHAPE_MISMATCH',
      `targets (${targets.length}) and mask (${mask.length}) must both have ${size} entries`,
    );
  }
  const clean = new Int32Array(size);
  for (let i = 0; i < size; i++) {
    if (mask[i] === 0) continue;
    const c = targets[i]!;
    if (!Number.isInteger(c) || c < 0 || c >= classes) {
      throw new AttentionError(
        'ATTENTION_INVALID_TOKEN',
        `targets[${i}] is ${String(c)}; classes are integers in [0, ${classes})`,
      );
    }
    clean[i] = c;
  }
  return clean;
}
