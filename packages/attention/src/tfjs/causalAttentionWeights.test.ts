import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { exactSampler } from '@boltzmann/ising-core';
import { bruteForceEstimate } from '@boltzmann/ising-core/testing';
import {
  causalAttentionWeights,
  headBatches,
  initBackend,
  isAttentionError,
  prepareEstimates,
} from '../index.js';
import type { CausalOpSource } from '../index.js';
import { createDelayedSampler, createReferenceSampler } from '../testing/referenceSampler.js';
import { maxAbsDiff, randomNormal, tensorOf } from '../testing/testUtils.js';

const shape = { batch: 2, heads: 2, length: 4 };
const { batch: B, heads: H, length: T } = shape;
const reference = createReferenceSampler();

/**
 * Float64 weights written out the slow way, in the B×H×T×T layout: brute-force magnetizations,
 * α = (m + 1)/2, divided by each causal row's sum.
 */
function referenceW(h: Float64Array, j: Float64Array, beta: number): Float64Array {
  const out = new Float64Array(B * H * T * T);
  headBatches(h, j, shape, beta).forEach((batch, hd) => {
    const m = bruteForceEstimate(batch).magnetization;
    for (let b = 0; b < B; b++) {
      for (let i = 0; i < T; i++) {
        const row = b * T * T + i * T;
        let sum = 0;
        for (let k = 0; k <= i; k++) sum += (m[row + k]! + 1) / 2;
        for (let k = 0; k <= i; k++)
          out[(b * H + hd) * T * T + i * T + k] = (m[row + k]! + 1) / 2 / sum;
      }
    }
  });
  return out;
}

/** Rounds to float32 so finite differences start from exactly what the tensors hold. */
const f32 = (x: Float64Array): Float64Array => Float64Array.from(Float32Array.from(x));

describe('causalAttentionWeights (the attention op over ising-core)', () => {
  beforeAll(async () => {
    await initBackend('wasm', { log: () => {} });
  });

  const h = f32(randomNormal(B * H * T * T, 1, 0.8));
  const j = f32(randomNormal(H * T * T, 2, 0.5));
  const c = randomNormal(B * H * T * T, 3);

  it('forward equals the brute-force weights (ising-core/testing), zero above the diagonal', () => {
    for (const beta of [1, 0.7]) {
      const m = causalAttentionWeights(
        tensorOf<tf.Rank.R4>(h, [B, H, T, T]),
        tensorOf<tf.Rank.R3>(j, [H, T, T]),
        { variant: 'boltzmann', sampler: reference, beta },
      );
      const got = m.dataSync();
      expect(maxAbsDiff(got, referenceW(h, j, beta))).toBeLessThan(1e-6);
      for (let i = 0; i < got.length; i++)
        if (i % T > Math.floor(i / T) % T) expect(got[i]).toBe(0);
      m.dispose();
    }
  });

  it('the built-in exact sampler agrees with the reference', () => {
    const m = causalAttentionWeights(
      tensorOf<tf.Rank.R4>(h, [B, H, T, T]),
      tensorOf<tf.Rank.R3>(j, [H, T, T]),
      { variant: 'boltzmann', sampler: exactSampler.create(), beta: 1 },
    );
    expect(maxAbsDiff(m.dataSync(), referenceW(h, j, 1))).toBeLessThan(1e-6);
    m.dispose();
  });

  it('gradients of Σ c·w match float64 central differences (fields and couplings, 2 heads, beta 0.7)', () => {
    const beta = 0.7;
    const loss = (hv: tf.Tensor, jv: tf.Tensor): tf.Scalar =>
      tf.sum(
        tf.mul(
          causalAttentionWeights(hv as tf.Tensor4D, jv as tf.Tensor3D, {
            variant: 'boltzmann',
            sampler: reference,
            beta,
          }),
          tensorOf(c, [B, H, T, T]),
        ),
      );
    const [gh, gj] = tf.grads(loss)([
      tensorOf<tf.Rank.R4>(h, [B, H, T, T]),
      tensorOf<tf.Rank.R3>(j, [H, T, T]),
    ]);
    const ghData = gh!.dataSync();
    const gjData = gj!.dataSync();
    const objective = (hh: Float64Array, jj: Float64Array): number =>
      referenceW(hh, jj, beta).reduce((s, m, i) => s + c[i]! * m, 0);
    const eps = 1e-5;
    for (let i = 0; i < h.length; i++) {
      const plus = Float64Array.from(h);
      const minus = Float64Array.from(h);
      plus[i]! += eps;
      minus[i]! -= eps;
      const fd = (objective(plus, j) - objective(minus, j)) / (2 * eps);
      expect(Math.abs(ghData[i]! - fd)).toBeLessThan(1e-5 + 1e-5 * Math.abs(fd));
    }
    for (let i = 0; i < j.length; i++) {
      const k = i % (T * T);
      const upper = Math.floor(k / T) < k % T;
      const plus = Float64Array.from(j);
      const minus = Float64Array.from(j);
      plus[i]! += eps;
      minus[i]! -= eps;
      const fd = upper ? (objective(h, plus) - objective(h, minus)) / (2 * eps) : 0;
      expect(Math.abs(gjData[i]! - fd)).toBeLessThan(1e-5 + 1e-5 * Math.abs(fd));
    }
    tf.dispose([gh!, gj!]);
  });

  it('prepared estimates (from an async sampler) give the same values and gradients as the sync path', async () => {
    const delayed = createDelayedSampler(reference);
    const prepared = await prepareEstimates(
      Float32Array.from(h),
      Float32Array.from(j),
      shape,
      delayed,
      1,
    );
    const run = (source: CausalOpSource) => {
      const f = (hv: tf.Tensor, jv: tf.Tensor): tf.Scalar =>
        tf.sum(
          tf.mul(
            causalAttentionWeights(hv as tf.Tensor4D, jv as tf.Tensor3D, source),
            tensorOf(c, [B, H, T, T]),
          ),
        );
      const { value, grads } = tf.valueAndGrads(f)([
        tensorOf<tf.Rank.R4>(h, [B, H, T, T]),
        tensorOf<tf.Rank.R3>(j, [H, T, T]),
      ]);
      return [value.dataSync()[0]!, ...grads.map((g) => Array.from(g.dataSync()))] as const;
    };
    const sync = run({ variant: 'boltzmann', sampler: reference, beta: 1 });
    const viaPrepared = run({ variant: 'boltzmann', sampler: delayed, beta: 1, prepared });
    expect(viaPrepared).toEqual(sync);
  });

  it('refuses an async sampler without prepared estimates, and stale prepared estimates', async () => {
    const delayed = createDelayedSampler(reference);
    const ht = tensorOf<tf.Rank.R4>(h, [B, H, T, T]);
    const jt = tensorOf<tf.Rank.R3>(j, [H, T, T]);
    expect(() =>
      causalAttentionWeights(ht, jt, { variant: 'boltzmann', sampler: delayed, beta: 1 }),
    ).toThrow(expect.objectContaining({ code: 'ATTENTION_ASYNC_SAMPLER' }));
    const other = Float32Array.from(h, (v, i) => (i === 5 ? v + 0.5 : v));
    const prepared = await prepareEstimates(other, Float32Array.from(j), shape, delayed, 1);
    let error: unknown;
    try {
      causalAttentionWeights(ht, jt, { variant: 'boltzmann', sampler: delayed, beta: 1, prepared });
    } catch (e) {
      error = e;
    }
    expect(isAttentionError(error, 'ATTENTION_STALE_ESTIMATE')).toBe(true);
    expect(String(error)).toContain('fields[5]');
    expect(() =>
      causalAttentionWeights(ht, tensorOf<tf.Rank.R3>(j.slice(0, T * T), [1, T, T]), {
        variant: 'boltzmann',
        sampler: reference,
        beta: 1,
      }),
    ).toThrow(expect.objectContaining({ code: 'ATTENTION_SHAPE_MISMATCH' }));
  });

  it('passes non-finite fields to ising-core validation (ISING_NOT_FINITE)', () => {
    const bad = Float32Array.from(h);
    bad[0] = Number.NaN;
    expect(() =>
      causalAttentionWeights(
        tensorOf<tf.Rank.R4>(bad, [B, H, T, T]),
        tensorOf<tf.Rank.R3>(j, [H, T, T]),
        { variant: 'boltzmann', sampler: reference, beta: 1 },
      ),
    ).toThrow(expect.objectContaining({ code: 'ISING_NOT_FINITE' }));
  });
});
