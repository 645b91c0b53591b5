import * as tf from '@tensorflow/tfjs';

/** LayerNorm over the last axis (biased variance, ε = 1e-5, as in PyTorch). */
export function layerNorm(x: tf.Tensor, gamma: tf.Tensor, beta: tf.Tensor): tf.Tensor {
  const { mean, variance } = tf.moments(x, -1, true);
  return tf.add(tf.mul(tf.div(tf.sub(x, mean), tf.sqrt(tf.add(variance, 1e-5))), gamma), beta);
}

/** Exact GELU, `x Φ(x) = ½ x (1 + erf(x/√2))`. */
export function gelu(x: tf.Tensor): tf.Tensor {
  return tf.mul(tf.mul(x, 0.5), tf.add(1, tf.erf(tf.mul(x, Math.SQRT1_2))));
}

/** `x W + b` applied to the last axis of an `…×in` tensor. */
export function linear(x: tf.Tensor, kernel: tf.Tensor, bias: tf.Tensor): tf.Tensor {
  const [inDim, outDim] = kernel.shape as [number, number];
  const lead = x.shape.slice(0, -1);
  const flat = tf.reshape(x, [-1, inDim]) as tf.Tensor2D;
  return tf.reshape(tf.add(tf.matMul(flat, kernel as tf.Tensor2D), bias), [...lead, outDim]);
}
