import * as tf from '@tensorflow/tfjs';
import { causalBatch, createRng, exactSampler } from '@boltzmann/ising-core';
import { bruteForceEstimate, codeOf } from '@boltzmann/ising-core/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { boltzmannAttention, initBackend, prepareBoltzmannAttention } from '../index.js';
import { createDelayedSampler } from '../testing/referenceSampler.js';

const [B, H, T, D] = [2, 2, 4, 3];
const rng = createRng(5);
const rand = (shape: number[], scale = 1): tf.Tensor =>
  tf.tensor(
    Array.from({ length: shape.reduce((a, b) => a * b, 1) }, () => scale * rng.normal()),
    shape,
  );

describe('boltzmannAttention, the drop-in tensor function', () => {
  let q: tf.Tensor4D;
  let k: tf.Tensor4D;
  let v: tf.Tensor4D;
  let J: tf.Variable;
  beforeAll(async () => {
    await initBackend('wasm', { log: () => {} });
    q = rand([B, H, T, D], 1.2) as tf.Tensor4D;
    k = rand([B, H, T, D], 1.2) as tf.Tensor4D;
    v = rand([B, H, T, D]) as tf.Tensor4D;
    const upper = tf.linalg.bandPart(tf.ones([T, T]), 0, -1).sub(tf.eye(T));
    J = tf.variable(tf.mul(rand([H, T, T], 0.5), upper));
  });

  it('softmax equals plain causal softmax attention', () => {
    const out = boltzmannAttention(q, k, v, { variant: 'softmax' });
    const scores = tf.div(tf.matMul(q, k, false, true), Math.sqrt(D));
    const mask = tf.linalg.bandPart(tf.ones([T, T]), -1, 0);
    const reference = tf.matMul(tf.softmax(tf.add(scores, tf.mul(tf.sub(1, mask), -1e9))), v);
    expect(Math.max(...Array.from(tf.abs(tf.sub(out, reference)).dataSync()))).toBeLessThan(1e-6);
  });

  it('boltzmann equals α v with α from brute-force enumeration of the same fields and J', () => {
    const out = boltzmannAttention(q, k, v, {
      couplings: J as tf.Tensor3D,
    }).arraySync() as number[][][][];
    const scores = Float64Array.from(tf.div(tf.matMul(q, k, false, true), Math.sqrt(D)).dataSync());
    const Jdata = Float64Array.from(J.dataSync());
    const values = v.arraySync() as number[][][][];
    for (let head = 0; head < H; head++) {
      const fields = new Float64Array(B * T * T);
      for (let b = 0; b < B; b++)
        fields.set(scores.subarray((b * H + head) * T * T, (b * H + head + 1) * T * T), b * T * T);
      const m = bruteForceEstimate(
        causalBatch(fields, Jdata.subarray(head * T * T, (head + 1) * T * T), {
          batch: B,
          length: T,
        }),
      ).magnetization;
      for (let b = 0; b < B; b++) {
        for (let i = 0; i < T; i++) {
          const row = Array.from({ length: i + 1 }, (_, j) => (m[(b * T + i) * T + j]! + 1) / 2);
          const total = row.reduce((s, x) => s + x, 0);
          for (let c = 0; c < D; c++) {
            const want = row.reduce((s, a, j) => s + (a / total) * values[b]![head]![j]![c]!, 0);
            expect(Math.abs(out[b]![head]![i]![c]! - want)).toBeLessThan(2e-6);
          }
        }
      }
    }
  });

  it('its gradients in J and q match central finite differences', () => {
    const R = rand([B, H, T, D]);
    const loss = (qq: tf.Tensor4D, jj: tf.Tensor3D): tf.Scalar =>
      tf.sum(tf.mul(boltzmannAttention(qq, k, v, { couplings: jj }), R));
    const { grads } = tf.variableGrads(() => loss(q, J as tf.Tensor3D), [J]);
    const gJ = grads[J.name]!.dataSync();
    const gQ = tf
      .grad((qq: tf.Tensor) => loss(qq as tf.Tensor4D, J as tf.Tensor3D))(q)
      .dataSync();
    const eps = 1e-2;
    const bump = (t: tf.Tensor, i: number, d: number): tf.Tensor => {
      const data = Float32Array.from(t.dataSync());
      data[i]! += d;
      return tf.tensor(data, t.shape);
    };
    const sizes: number[] = [];
    for (const i of [1, 2, 3, 6, 7, 11, 16 + 2, 16 + 7]) {
      const fd =
        (loss(q, bump(J, i, eps) as tf.Tensor3D).dataSync()[0]! -
          loss(q, bump(J, i, -eps) as tf.Tensor3D).dataSync()[0]!) /
        (2 * eps);
      expect(Math.abs(gJ[i]! - fd), `∂L/∂J[${i}]`).toBeLessThan(2e-3 + 2e-2 * Math.abs(fd));
      sizes.push(Math.abs(fd));
    }
    // The check has teeth: the gradients compared are well above its absolute tolerance.
    expect(Math.max(...sizes)).toBeGreaterThan(0.05);
    for (const i of [0, 5, 13, 29, 40, 47]) {
      const fd =
        (loss(bump(q, i, eps) as tf.Tensor4D, J as tf.Tensor3D).dataSync()[0]! -
          loss(bump(q, i, -eps) as tf.Tensor4D, J as tf.Tensor3D).dataSync()[0]!) /
        (2 * eps);
      expect(Math.abs(gQ[i]! - fd), `∂L/∂q[${i}]`).toBeLessThan(2e-3 + 2e-2 * Math.abs(fd));
    }
  });

  it('refuses inconsistent shapes and missing couplings with coded errors', () => {
    expect(codeOf(() => boltzmannAttention(q, k, v))).toBe('ATTENTION_INVALID_CONFIG');
    expect(
      codeOf(() =>
        boltzmannAttention(q, rand([B, H, T + 1, D]) as tf.Tensor4D, v, {
          couplings: J as tf.Tensor3D,
        }),
      ),
    ).toBe('ATTENTION_SHAPE_MISMATCH');
    expect(
      codeOf(() =>
        boltzmannAttention(q, k, v, { couplings: rand([H, T - 1, T - 1]) as tf.Tensor3D }),
      ),
    ).toBe('ATTENTION_SHAPE_MISMATCH');
    expect(codeOf(() => boltzmannAttention(q, k, v, { variant: 'nope' as never }))).toBe(
      'ATTENTION_INVALID_CONFIG',
    );
  });

  it('runs an asynchronous sampler through prepareBoltzmannAttention: the output and every gradient of the synchronous call', async () => {
    const options = { couplings: J as tf.Tensor3D, beta: 0.8 };
    const c = rand([B, H, T, D]);
    const gradsOf = (run: () => tf.Tensor) =>
      tf.variableGrads(() => tf.sum(tf.mul(run(), c)) as tf.Scalar, [J]);
    const sync = gradsOf(() => boltzmannAttention(q, k, v, options));
    const delayed = createDelayedSampler(exactSampler.create());
    const prepared = await prepareBoltzmannAttention(q, k, { ...options, sampler: delayed });
    const async = gradsOf(() =>
      boltzmannAttention(q, k, v, { ...options, sampler: delayed, prepared }),
    );
    expect(Math.abs(async.value.dataSync()[0]! - sync.value.dataSync()[0]!)).toBeLessThan(1e-6);
    const dj = tf.abs(tf.sub(async.grads[J.name]!, sync.grads[J.name]!));
    expect(tf.max(dj).dataSync()[0]!).toBeLessThan(1e-6);
    expect(tf.max(tf.abs(sync.grads[J.name]!)).dataSync()[0]!).toBeGreaterThan(1e-3);
    // Without prepare the asynchronous sampler is refused with a code that says what to do.
    expect(codeOf(() => boltzmannAttention(q, k, v, { ...options, sampler: delayed }))).toBe(
      'ATTENTION_ASYNC_SAMPLER',
    );
    expect(await prepareBoltzmannAttention(q, k, { variant: 'softmax' })).toBeUndefined();
    expect(J.isDisposed).toBe(false); // the read of J did not free the variable
  });
});
