import * as tf from '@tensorflow/tfjs';
import { batchedMatMul } from '@boltzmann/ising-core';
import { AttentionError } from '../core/errors.js';
import { onHostMemory } from './tensorData.js';

/**
 * LayerNorm over the last axis (biased variance, ε = 1e-5, as in PyTorch), with its analytic
 * gradient: for `x̂ = (x − μ)/σ`, `dx = (g − mean(g) − x̂ mean(g x̂))/σ` with `g = dy γ`,
 * `dγ = Σ dy x̂`, `dβ = Σ dy` over the rows. tfjs' automatic gradient of the same forward
 * takes about four times as many kernels, and each wasm kernel costs ~15–20 µs however small.
 */
const layerNormWith = (withBeta: boolean): ((...args: tf.Tensor[]) => tf.Tensor) =>
  tf.customGrad((...args: (tf.Tensor | tf.GradSaveFunc)[]) => {
    const [x, gamma] = args as [tf.Tensor, tf.Tensor];
    const beta = withBeta ? (args[2] as tf.Tensor) : undefined;
    const save = args[withBeta ? 3 : 2] as tf.GradSaveFunc;
    const { mean, variance } = tf.moments(x, -1, true);
    const sigma = tf.sqrt(tf.add(variance, 1e-5));
    const normed = tf.div(tf.sub(x, mean), sigma);
    save([normed, sigma, gamma]);
    const gradFunc = (dy: tf.Tensor, saved: tf.Tensor[]): tf.Tensor[] => {
      const [xHat, sd, g0] = saved as [tf.Tensor, tf.Tensor, tf.Tensor];
      const width = g0.size;
      const g = tf.mul(dy, g0);
      const centred = tf.sub(g, tf.mean(g, -1, true));
      const dx = tf.div(tf.sub(centred, tf.mul(xHat, tf.mean(tf.mul(g, xHat), -1, true))), sd);
      const rowsOf = (t: tf.Tensor): tf.Tensor =>
        tf.reshape(tf.sum(tf.reshape(t, [-1, width]), 0), g0.shape);
      return withBeta ? [dx, rowsOf(tf.mul(dy, xHat)), rowsOf(dy)] : [dx, rowsOf(tf.mul(dy, xHat))];
    };
    const scaled = tf.mul(normed, gamma);
    return { value: beta === undefined ? scaled : tf.add(scaled, beta), gradFunc };
  }) as (...args: tf.Tensor[]) => tf.Tensor;
const layerNormShifted = layerNormWith(true);
const layerNormScaled = layerNormWith(false);

/**
 * LayerNorm over the last axis (biased variance, ε = 1e-5, as in PyTorch), with its analytic
 * gradient: for `x̂ = (x − μ)/σ`, `dx = (g − mean(g) − x̂ mean(g x̂))/σ` with `g = dy γ`,
 * `dγ = Σ dy x̂`, `dβ = Σ dy` over the rows. tfjs' automatic gradient of the same forward
 * takes about four times as many kernels, and each wasm kernel costs ~15–20 µs however small.
 * Without `beta` (the `bias: false` model) the output is `x̂ γ`.
 */
export function layerNorm(x: tf.Tensor, gamma: tf.Tensor, beta?: tf.Tensor): tf.Tensor {
  return beta === undefined ? layerNormScaled(x, gamma) : layerNormShifted(x, gamma, beta);
}

/**
 * Exact GELU, `x Φ(x) = ½ x (1 + erf(x/√2))`, with the analytic gradient
 * `Φ(x) + x φ(x)`, `φ(x) = exp(−x²/2)/√(2π)` (fewer kernels and saved copies than tfjs'
 * automatic gradient of the same forward).
 */
export const gelu: (x: tf.Tensor) => tf.Tensor = tf.customGrad(
  (...args: (tf.Tensor | tf.GradSaveFunc)[]) => {
    const x = args[0] as tf.Tensor;
    const save = args[1] as tf.GradSaveFunc;
    const onePlusErf = tf.add(1, tf.erf(tf.mul(x, Math.SQRT1_2)));
    save([x, onePlusErf]);
    const gradFunc = (dy: tf.Tensor, saved: tf.Tensor[]): tf.Tensor => {
      const [sx, b] = saved as [tf.Tensor, tf.Tensor];
      const density = tf.mul(tf.exp(tf.mul(tf.square(sx), -0.5)), 1 / Math.sqrt(2 * Math.PI));
      return tf.mul(dy, tf.add(tf.mul(b, 0.5), tf.mul(sx, density)));
    };
    return { value: tf.mul(tf.mul(x, 0.5), onePlusErf), gradFunc };
  },
) as (x: tf.Tensor) => tf.Tensor;

/** `x W + b` (or `x W` without a bias) applied to the last axis of an `…×in` tensor. */
export function linear(x: tf.Tensor, kernel: tf.Tensor, bias?: tf.Tensor): tf.Tensor {
  const [inDim, outDim] = kernel.shape as [number, number];
  const lead = x.shape.slice(0, -1);
  const flat = tf.reshape(x, [-1, inDim]) as tf.Tensor2D;
  return tf.reshape(bias === undefined ? matMul(flat, kernel) : dense(flat, kernel, bias), [
    ...lead,
    outDim,
  ]);
}

/**
 * `x W + b` on a matrix, as one op whose gradient is `[dy Wᵀ, xᵀ dy, Σ_rows dy]` with explicit
 * transposes: a tape of matMul + add saves four tensor copies and runs the broadcast
 * reductions of add's gradient; this saves two and runs the three products and one sum.
 */
const dense: (x: tf.Tensor, kernel: tf.Tensor, bias: tf.Tensor) => tf.Tensor = tf.customGrad(
  (...args: (tf.Tensor | tf.GradSaveFunc)[]) => {
    const [x, kernel, bias] = args as [tf.Tensor, tf.Tensor, tf.Tensor];
    const save = args[3] as tf.GradSaveFunc;
    save([x, kernel]);
    const gradFunc = (dy: tf.Tensor, saved: tf.Tensor[]): tf.Tensor[] => {
      const [sx, sk] = saved as [tf.Tensor, tf.Tensor];
      return [tf.matMul(dy, tf.transpose(sk)), tf.matMul(tf.transpose(sx), dy), tf.sum(dy, 0)];
    };
    return { value: tf.add(tf.matMul(x, kernel), bias), gradFunc };
  },
) as (x: tf.Tensor, kernel: tf.Tensor, bias: tf.Tensor) => tf.Tensor;

/** Swaps the last two axes. */
function swapLast(x: tf.Tensor): tf.Tensor {
  const perm = x.shape.map((_, i) => i);
  const r = perm.length;
  [perm[r - 2], perm[r - 1]] = [perm[r - 1]!, perm[r - 2]!];
  return tf.transpose(x, perm);
}

/**
 * `a @ b` (rank 2, or batched over equal leading axes) whose gradient uses explicit
 * transposes. The wasm backend's matmul is several times slower with `transposeA`/`transposeB`
 * set than on a transposed copy, and tfjs' own matmul gradient sets them.
 */
export const matMul: (a: tf.Tensor, b: tf.Tensor) => tf.Tensor = tf.customGrad(
  (...args: (tf.Tensor | tf.GradSaveFunc)[]) => {
    const a = args[0] as tf.Tensor;
    const b = args[1] as tf.Tensor;
    const save = args[2] as tf.GradSaveFunc;
    save([a, b]);
    const gradFunc = (dy: tf.Tensor, saved: tf.Tensor[]): tf.Tensor[] => {
      const [sa, sb] = saved as [tf.Tensor, tf.Tensor];
      return [tf.matMul(dy, swapLast(sb)), tf.matMul(swapLast(sa), dy)];
    };
    return { value: tf.matMul(a, b), gradFunc };
  },
) as (a: tf.Tensor, b: tf.Tensor) => tf.Tensor;

function scaled(x: Float32Array, scale: number): Float32Array {
  if (scale !== 1) for (let i = 0; i < x.length; i++) x[i] = x[i]! * scale;
  return x;
}

/**
 * `scale · a @ b`, or `scale · a @ bᵀ` with `transposeB`, per head: `a` is `B×H×m×k`, `b` is
 * `B×H×k×n` (`B×H×n×k` transposed). The products run in ising-core's batched SIMD kernel on the
 * tensors' data: tfjs-backend-wasm's batched matmul is a scalar loop, 6× slower at the attention
 * shapes (`scripts/profileStep.ts`). The gradient is the same kernel on the saved operands:
 * `dA = s·dC op(B)ᵀ`, `dB = s·Aᵀ dC` (transposed back for `transposeB`). Eager only. On a GPU
 * backend (webgl, webgpu) it is tfjs's batched `matMul`, on the device.
 */
export function headProduct(
  a: tf.Tensor4D,
  b: tf.Tensor4D,
  options: { transposeB?: boolean; scale?: number } = {},
): tf.Tensor4D {
  const tB = options.transposeB === true;
  const scale = options.scale ?? 1;
  const [B, H, m, k] = a.shape;
  const n = tB ? b.shape[2] : b.shape[3];
  if (b.shape[0] !== B || b.shape[1] !== H || (tB ? b.shape[3] : b.shape[2]) !== k) {
    throw new AttentionError(
      'ATTENTION_SHAPE_MISMATCH',
      `headProduct: [${a.shape}] by [${b.shape}]${tB ? 'ᵀ' : ''} do not fit`,
    );
  }
  // On a GPU backend the product stays there: reading the operands would be a round trip.
  if (!onHostMemory())
    return tf.tidy(() => {
      const product = tf.matMul(a, b, false, tB);
      return scale === 1 ? product : tf.mul(product, scale);
    }) as tf.Tensor4D;
  const batch = B * H;
  const op = tf.customGrad((...args: (tf.Tensor | tf.GradSaveFunc)[]) => {
    const left = (args[0] as tf.Tensor).dataSync() as Float32Array;
    const right = (args[1] as tf.Tensor).dataSync() as Float32Array;
    const value = scaled(batchedMatMul(left, right, { batch, m, k, n, transposeB: tB }), scale);
    const gradFunc = (dy: tf.Tensor): tf.Tensor[] => {
      const g = dy.dataSync() as Float32Array;
      const da = tB
        ? batchedMatMul(g, right, { batch, m, k: n, n: k })
        : batchedMatMul(g, right, { batch, m, k: n, n: k, transposeB: true });
      const db = tB
        ? batchedMatMul(g, left, { batch, m: n, k: m, n: k, transposeA: true })
        : batchedMatMul(left, g, { batch, m: k, k: m, n, transposeA: true });
      return [tf.tensor(scaled(da, scale), a.shape), tf.tensor(scaled(db, scale), b.shape)];
    };
    return { value: tf.tensor(value, [B, H, m, n]), gradFunc };
  });
  return op(a, b) as tf.Tensor4D;
}

/**
 * Rows `table[ids[k]]` as an `ids.length × dim` tensor, by `tf.gather`, with the gradient
 * `oneHot(ids)ᵀ dy`. This equals a one-hot matrix product bit for bit in both directions
 * (each output is one product by 1 plus zeros) while skipping two of its three matrix
 * products; gather's own gradient (UnsortedSegmentSum) has no wasm kernel. The one-hot is made
 * as int32 and cast: the wasm OneHot kernel writes integer bits into a float32 output.
 */
export function embeddingLookup(ids: Int32Array, table: tf.Tensor2D): tf.Tensor2D {
  const [rows] = table.shape;
  const lookup = tf.customGrad((...args: (tf.Tensor | tf.GradSaveFunc)[]) => {
    const t = args[0] as tf.Tensor2D;
    const gradFunc = (dy: tf.Tensor): tf.Tensor =>
      tf.tidy(() =>
        tf.matMul(tf.transpose(tf.cast(tf.oneHot(tf.tensor1d(ids, 'int32'), rows), 'float32')), dy),
      );
    return { value: tf.gather(t, tf.tensor1d(ids, 'int32')), gradFunc };
  }) as (t: tf.Tensor2D) => tf.Tensor2D;
  return lookup(table);
}
