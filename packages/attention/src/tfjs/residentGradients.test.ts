import * as tf from '@tensorflow/tfjs';
import { exactSampler } from '@boltzmann/ising-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  causalAttentionWeights,
  initBackend,
  isAttentionError,
  prepareEstimates,
} from '../index.js';
import type { CausalOpSource, PreparedEstimates } from '../index.js';
import { maxAbsDiff, randomNormal, tensorOf } from '../testing/testUtils.js';
import { sigmoidOnDevice, withResidentGradients } from './residentGradients.js';

// The op as it runs on a backend without synchronous reads (webgpu): weights and Jacobians made
// in phase 1, then only tensor ops. On the cpu backend it must equal the synchronous op.
const shape = { batch: 2, heads: 2, length: 5 };
const { batch: B, heads: H, length: T } = shape;

/** Loss `Σ c·w` and its gradients with respect to h and J. */
function lossAndGrads(h: Float64Array, j: Float64Array, c: Float64Array, source: CausalOpSource) {
  const hT = tensorOf<tf.Rank.R4>(h, [B, H, T, T]);
  const jT = tensorOf<tf.Rank.R3>(j, [H, T, T]);
  const cT = tensorOf<tf.Rank.R4>(c, [B, H, T, T]);
  const f = (x: tf.Tensor, y: tf.Tensor) =>
    tf.sum(tf.mul(causalAttentionWeights(x as tf.Tensor4D, y as tf.Tensor3D, source), cT));
  const { value, grads } = tf.valueAndGrads(f)([hT, jT]);
  const out = {
    loss: value.dataSync()[0]!,
    dh: Float64Array.from(grads[0]!.dataSync()),
    dj: Float64Array.from(grads[1]!.dataSync()),
  };
  tf.dispose([hT, jT, cT, value, ...grads]);
  return out;
}

async function resident(
  h: Float64Array,
  j: Float64Array,
  variant: 'boltzmann' | 'coupling',
): Promise<PreparedEstimates> {
  const prepared = await prepareEstimates(h, j, shape, exactSampler.create(), 0.9);
  return { heads: withResidentGradients(prepared.heads, variant) };
}

describe('the causal op on resident weights and Jacobians (no synchronous reads)', () => {
  beforeAll(async () => {
    await initBackend('cpu', { log: () => {} });
  });

  const h = randomNormal(B * H * T * T, 11, 0.8);
  const j = randomNormal(H * T * T, 12, 0.5);
  const c = randomNormal(B * H * T * T, 13);

  for (const variant of ['boltzmann', 'coupling'] as const) {
    it(`${variant}: the loss and the gradients of h and J equal the synchronous op's`, async () => {
      const hh = variant === 'coupling' ? new Float64Array(h.length) : h;
      const sync = lossAndGrads(hh, j, c, { variant, beta: 0.9, sampler: exactSampler.create() });
      const prepared = await resident(hh, j, variant);
      const res = lossAndGrads(hh, j, c, { variant, beta: 0.9, prepared });
      expect(Math.abs(res.loss - sync.loss)).toBeLessThan(1e-5);
      expect(maxAbsDiff(res.dh, sync.dh)).toBeLessThan(1e-5);
      expect(maxAbsDiff(res.dj, sync.dj)).toBeLessThan(1e-5);
      // Not a zero test (coupling's exact J gradient is zero by symmetry, README).
      if (variant === 'boltzmann') expect(Math.max(...sync.dj.map(Math.abs))).toBeGreaterThan(1e-3);
    });
  }

  it('sigmoid in tensor ops (no sampler, no reads) equals the closed-form op, value and gradient', () => {
    const hT = tensorOf<tf.Rank.R4>(h, [B, H, T, T]);
    const cT = tensorOf<tf.Rank.R4>(c, [B, H, T, T]);
    const loss = (w: (x: tf.Tensor4D) => tf.Tensor4D) =>
      tf.valueAndGrad((x: tf.Tensor) => tf.sum(tf.mul(w(x as tf.Tensor4D), cT)))(hT);
    const sync = loss((x) =>
      causalAttentionWeights(x, undefined, { variant: 'sigmoid', beta: 0.9 }),
    );
    const device = loss((x) => sigmoidOnDevice(x, 0.9));
    expect(Math.abs(device.value.dataSync()[0]! - sync.value.dataSync()[0]!)).toBeLessThan(1e-5);
    const dh = Float64Array.from(device.grad.dataSync());
    expect(maxAbsDiff(dh, Float64Array.from(sync.grad.dataSync()))).toBeLessThan(1e-5);
    expect(Math.max(...dh.map(Math.abs))).toBeGreaterThan(1e-3);
    tf.dispose([hT, cT, sync.value, sync.grad, device.value, device.grad]);
  });

  it('refuses resident estimates made for another shape', async () => {
    const prepared = await resident(h, j, 'boltzmann');
    const other = { heads: prepared.heads.slice(0, 1) };
    let caught: unknown;
    try {
      lossAndGrads(h, j, c, { variant: 'boltzmann', beta: 0.9, prepared: other });
    } catch (e) {
      caught = e;
    }
    expect(isAttentionError(caught, 'ATTENTION_STALE_ESTIMATE')).toBe(true);
  });
});
