import * as tf from '@tensorflow/tfjs';
import { checkTargets } from '../model/tokenBatch.js';

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
 * import { createTransformer, initBackend, maskedCrossEntropy } from '@boltzmann/attention';
 *
 * await initBackend();
 * const model = createTransformer({ vocabSize: 8, maxLength: 4, dModel: 8, heads: 1 });
 * const targets = Int32Array.of(2, 3, 4, 5);
 * const loss = maskedCrossEntropy(model.logits(Int32Array.of(1, 2, 3, 4), 1), targets, new Float32Array(targets.length).fill(1));
 * console.log(loss.dataSync()[0]); // about log(8) for an untrained model
 * model.dispose();
 * @category Evaluation
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
