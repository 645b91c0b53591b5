import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { initBackend } from '../index.js';
import { embeddingLookup, gelu, headProduct, layerNorm, linear } from './layers.js';
import { maxAbsDiff, randomNormal, tensorOf } from '../testing/testUtils.js';

/**
 * The hand-written ops against references: tfjs' own automatic gradient of the plain forward
 * (an independent implementation of the same math) and, for the products, float64 central
 * differences.
 */
describe('custom-gradient layers', () => {
  beforeAll(async () => {
    await initBackend('wasm', { log: () => {} });
  });

  const gradsOf = (
    f: (...x: tf.Tensor[]) => tf.Tensor,
    inputs: tf.Tensor[],
    upstream: tf.Tensor,
  ): Float32Array[] =>
    tf
      .grads((...x: tf.Tensor[]) => tf.sum(tf.mul(f(...x), upstream)))(inputs)
      .map((g) => Float32Array.from(g.dataSync()));

  it('headProduct equals tf.matMul (plain and with bᵀ, scaled) in value and gradient', () => {
    const [B, H, m, k, n] = [2, 3, 5, 7, 6];
    const a = tensorOf<tf.Rank.R4>(randomNormal(B * H * m * k, 1), [B, H, m, k]);
    const b = tensorOf<tf.Rank.R4>(randomNormal(B * H * k * n, 2), [B, H, k, n]);
    const bt = tensorOf<tf.Rank.R4>(randomNormal(B * H * n * k, 3), [B, H, n, k]);
    const up = tensorOf(randomNormal(B * H * m * n, 4), [B, H, m, n]);
    const cases = [
      {
        ours: (x: tf.Tensor, y: tf.Tensor) => headProduct(x as tf.Tensor4D, y as tf.Tensor4D),
        theirs: (x: tf.Tensor, y: tf.Tensor) => tf.matMul(x, y),
        right: b,
      },
      {
        ours: (x: tf.Tensor, y: tf.Tensor) =>
          headProduct(x as tf.Tensor4D, y as tf.Tensor4D, { transposeB: true, scale: 0.25 }),
        theirs: (x: tf.Tensor, y: tf.Tensor) => tf.mul(tf.matMul(x, y, false, true), 0.25),
        right: bt,
      },
    ];
    for (const { ours, theirs, right } of cases) {
      expect(maxAbsDiff(ours(a, right).dataSync(), theirs(a, right).dataSync())).toBeLessThan(1e-5);
      const [ga, gb] = gradsOf(ours, [a, right], up);
      const [ra, rb] = gradsOf(theirs, [a, right], up);
      expect(maxAbsDiff(ga!, ra!)).toBeLessThan(1e-5);
      expect(maxAbsDiff(gb!, rb!)).toBeLessThan(1e-5);
    }
  });

  it('headProduct gradient matches float64 central differences of Σ c·(a bᵀ)', () => {
    const [B, H, m, k, n] = [1, 2, 3, 4, 3];
    const av = randomNormal(B * H * m * k, 5);
    const bv = randomNormal(B * H * n * k, 6);
    const c = randomNormal(B * H * m * n, 7);
    const objective = (x: Float64Array, y: Float64Array): number => {
      let s = 0;
      for (let p = 0; p < B * H; p++)
        for (let i = 0; i < m; i++)
          for (let j = 0; j < n; j++) {
            let d = 0;
            for (let q = 0; q < k; q++) d += x[(p * m + i) * k + q]! * y[(p * n + j) * k + q]!;
            s += c[(p * m + i) * n + j]! * d;
          }
      return s;
    };
    const [ga] = gradsOf(
      (x, y) => headProduct(x as tf.Tensor4D, y as tf.Tensor4D, { transposeB: true }),
      [tensorOf(av, [B, H, m, k]), tensorOf(bv, [B, H, n, k])],
      tensorOf(c, [B, H, m, n]),
    );
    const a32 = Float64Array.from(Float32Array.from(av));
    const b32 = Float64Array.from(Float32Array.from(bv));
    for (let i = 0; i < a32.length; i++) {
      const plus = Float64Array.from(a32);
      const minus = Float64Array.from(a32);
      plus[i]! += 1e-6;
      minus[i]! -= 1e-6;
      expect(
        Math.abs(ga![i]! - (objective(plus, b32) - objective(minus, b32)) / 2e-6),
      ).toBeLessThan(1e-4);
    }
  });

  it('layerNorm, gelu, linear and embeddingLookup have tfjs autodiff gradients of their forwards', () => {
    const x = tensorOf(randomNormal(6 * 8, 8), [6, 8]);
    const gamma = tensorOf(randomNormal(8, 9, 0.5), [8]);
    const beta = tensorOf(randomNormal(8, 10), [8]);
    const plainNorm = (v: tf.Tensor, g: tf.Tensor, bb?: tf.Tensor): tf.Tensor => {
      const { mean, variance } = tf.moments(v, -1, true);
      const y = tf.mul(tf.div(tf.sub(v, mean), tf.sqrt(tf.add(variance, 1e-5))), g);
      return bb === undefined ? y : tf.add(y, bb);
    };
    const up = tensorOf(randomNormal(6 * 8, 11), [6, 8]);
    const pairs: [
      (...t: tf.Tensor[]) => tf.Tensor,
      (...t: tf.Tensor[]) => tf.Tensor,
      tf.Tensor[],
    ][] = [
      [(v, g, bb) => layerNorm(v!, g!, bb), plainNorm, [x, gamma, beta]],
      [(v, g) => layerNorm(v!, g!), (v, g) => plainNorm(v!, g!), [x, gamma]],
      [
        (v) => gelu(v!),
        (v) => tf.mul(tf.mul(v!, 0.5), tf.add(1, tf.erf(tf.mul(v!, Math.SQRT1_2)))),
        [x],
      ],
    ];
    for (const [ours, plain, inputs] of pairs) {
      const a = gradsOf(ours, inputs, up);
      const b = gradsOf(plain, inputs, up);
      a.forEach((g, i) => expect(maxAbsDiff(g, b[i]!)).toBeLessThan(2e-5));
    }
    const kernel = tensorOf(randomNormal(8 * 5, 12), [8, 5]);
    const bias = tensorOf(randomNormal(5, 13), [5]);
    const up5 = tensorOf(randomNormal(6 * 5, 14), [6, 5]);
    const a = gradsOf((v, w, bb) => linear(v!, w!, bb), [x, kernel, bias], up5);
    const b = gradsOf((v, w, bb) => tf.add(tf.matMul(v!, w!), bb!), [x, kernel, bias], up5);
    a.forEach((g, i) => expect(maxAbsDiff(g, b[i]!)).toBeLessThan(1e-5));
    const ids = Int32Array.from([3, 0, 3, 5, 1, 1]);
    const table = tensorOf(randomNormal(7 * 4, 15), [7, 4]);
    const up4 = tensorOf(randomNormal(6 * 4, 16), [6, 4]);
    const [ge] = gradsOf((t) => embeddingLookup(ids, t as tf.Tensor2D), [table], up4);
    const [gr] = gradsOf(
      (t) => tf.matMul(tf.oneHot(tf.tensor1d(ids, 'int32'), 7).toFloat(), t!),
      [table],
      up4,
    );
    expect(maxAbsDiff(ge!, gr!)).toBe(0);
  });
});
