import * as tf from '@tensorflow/tfjs';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { exactSampler, transferMatrixSampler } from '@boltzmann/ising-core';
import { ATTENTION_VARIANTS, attentionWeights, initBackend } from '../index.js';
import { createReferenceSampler } from '../testing/referenceSampler.js';
import { maxAbsDiff, randomNormal, take, tensorOf } from '../testing/testUtils.js';

const [B, H, T] = [2, 2, 5];

describe('attentionWeights', () => {
  beforeAll(async () => {
    await initBackend('wasm', { log: () => {} });
  });
  const scores = () => tensorOf<tf.Rank.R4>(randomNormal(B * H * T * T, 11, 1.5), [B, H, T, T]);
  const zeroJ = () => tf.zeros([H, T, T]) as tf.Tensor3D;
  const randomJ = () => tensorOf<tf.Rank.R3>(randomNormal(H * T * T, 12, 0.6), [H, T, T]);
  const sampler = exactSampler.create();

  it('every variant gives causal rows that sum to 1', () => {
    for (const variant of ATTENTION_VARIANTS) {
      const w = take(attentionWeights(scores(), { variant, couplings: randomJ(), sampler }));
      for (let row = 0; row < B * H * T; row++) {
        const i = row % T;
        let sum = 0;
        for (let k = 0; k < T; k++) {
          const v = w[row * T + k]!;
          if (k > i) expect(v).toBe(0);
          else expect(v).toBeGreaterThan(0);
          sum += v;
        }
        expect(Math.abs(sum - 1)).toBeLessThan(1e-6);
      }
    }
  });

  it('sigmoid equals boltzmann at J = 0 (to float32 rounding), for β = 1 and β = 0.5', () => {
    for (const beta of [1, 0.5]) {
      const s = take(attentionWeights(scores(), { variant: 'sigmoid', beta }));
      const b = take(
        attentionWeights(scores(), { variant: 'boltzmann', beta, couplings: zeroJ(), sampler }),
      );
      expect(maxAbsDiff(s, b)).toBeLessThan(2e-7);
    }
  });

  it('property: for random shapes, β and fields, sigmoid = boltzmann(J = 0) and every variant is a causal distribution', () => {
    const shapes = fc.record({
      b: fc.integer({ min: 1, max: 2 }),
      h: fc.integer({ min: 1, max: 2 }),
      t: fc.integer({ min: 1, max: 6 }),
    });
    const cases = shapes.chain(({ b, h, t }) =>
      fc.record({
        b: fc.constant(b),
        h: fc.constant(h),
        t: fc.constant(t),
        beta: fc.double({ min: 0.1, max: 3, noNaN: true }),
        fields: fc.array(fc.double({ min: -4, max: 4, noNaN: true }), {
          minLength: b * h * t * t,
          maxLength: b * h * t * t,
        }),
        couplings: fc.array(fc.double({ min: -1, max: 1, noNaN: true }), {
          minLength: h * t * t,
          maxLength: h * t * t,
        }),
      }),
    );
    fc.assert(
      fc.property(cases, ({ b, h, t, beta, fields, couplings }) => {
        const scores4 = () => tensorOf<tf.Rank.R4>(fields, [b, h, t, t]);
        const sig = take(attentionWeights(scores4(), { variant: 'sigmoid', beta }));
        const bolt0 = take(
          attentionWeights(scores4(), {
            variant: 'boltzmann',
            beta,
            couplings: tf.zeros([h, t, t]) as tf.Tensor3D,
            sampler,
          }),
        );
        expect(maxAbsDiff(sig, bolt0)).toBeLessThan(5e-7);
        for (const variant of ATTENTION_VARIANTS) {
          const jt = tensorOf<tf.Rank.R3>(couplings, [h, t, t]);
          const w = take(attentionWeights(scores4(), { variant, beta, couplings: jt, sampler }));
          for (let row = 0; row < b * h * t; row++) {
            const i = row % t;
            let sum = 0;
            for (let k = 0; k < t; k++) {
              if (k > i) expect(w[row * t + k]).toBe(0);
              sum += w[row * t + k]!;
            }
            expect(Math.abs(sum - 1)).toBeLessThan(1e-5);
          }
        }
      }),
      { numRuns: 40, seed: 20261129 },
    );
  });

  it('sigmoid weights are σ(2βh) normalized over the prefix; softmax is softmax(βh) over the prefix', () => {
    const beta = 0.8;
    const h = randomNormal(B * H * T * T, 11, 1.5);
    const s = take(attentionWeights(scores(), { variant: 'sigmoid', beta }));
    const sm = take(attentionWeights(scores(), { variant: 'softmax', beta }));
    const hf = Float32Array.from(h);
    for (let row = 0; row < B * H * T; row++) {
      const i = row % T;
      const sig = Array.from(
        { length: i + 1 },
        (_, k) => 1 / (1 + Math.exp(-2 * beta * hf[row * T + k]!)),
      );
      const ex = Array.from({ length: i + 1 }, (_, k) => Math.exp(beta * hf[row * T + k]!));
      const sigSum = sig.reduce((a, b) => a + b, 0);
      const exSum = ex.reduce((a, b) => a + b, 0);
      for (let k = 0; k <= i; k++) {
        expect(Math.abs(s[row * T + k]! - sig[k]! / sigSum)).toBeLessThan(1e-6);
        expect(Math.abs(sm[row * T + k]! - ex[k]! / exSum)).toBeLessThan(1e-6);
      }
    }
  });

  it('coupling is exactly uniform over the prefix for any J, and J gets (numerically) zero gradient', () => {
    const w = take(
      attentionWeights(scores(), { variant: 'coupling', couplings: randomJ(), sampler }),
    );
    for (let row = 0; row < B * H * T; row++) {
      const i = row % T;
      for (let k = 0; k <= i; k++)
        expect(Math.abs(w[row * T + k]! - 1 / (i + 1))).toBeLessThan(1e-7);
    }
    const c = tensorOf<tf.Rank.R4>(randomNormal(B * H * T * T, 13), [B, H, T, T]);
    const g = tf.grad((j: tf.Tensor) =>
      tf.sum(
        tf.mul(
          attentionWeights(scores(), { variant: 'coupling', couplings: j as tf.Tensor3D, sampler }),
          c,
        ),
      ),
    )(randomJ());
    expect(Math.max(...g.dataSync().map(Math.abs))).toBeLessThan(1e-9);
  });

  it('boltzmann with J ≠ 0 differs from sigmoid, and its J gradient is non-zero even at J = 0', () => {
    const b = take(
      attentionWeights(scores(), { variant: 'boltzmann', couplings: randomJ(), sampler }),
    );
    const s = take(attentionWeights(scores(), { variant: 'sigmoid' }));
    expect(maxAbsDiff(b, s)).toBeGreaterThan(1e-3);
    const c = tensorOf<tf.Rank.R4>(randomNormal(B * H * T * T, 13), [B, H, T, T]);
    const g = tf.grad((j: tf.Tensor) =>
      tf.sum(
        tf.mul(
          attentionWeights(scores(), {
            variant: 'boltzmann',
            couplings: j as tf.Tensor3D,
            sampler,
          }),
          c,
        ),
      ),
    )(zeroJ());
    expect(Math.max(...g.dataSync().map(Math.abs))).toBeGreaterThan(1e-3);
  });

  it('gradient of the normalized weights w.r.t. the fields matches central differences (reference sampler)', () => {
    const reference = createReferenceSampler();
    const c = tensorOf<tf.Rank.R4>(randomNormal(B * H * T * T, 14), [B, H, T, T]);
    const j = randomJ();
    const h0 = randomNormal(B * H * T * T, 11, 1.5);
    for (const variant of ATTENTION_VARIANTS.filter((v) => v !== 'coupling')) {
      const f = (h: tf.Tensor): tf.Scalar =>
        tf.sum(
          tf.mul(
            attentionWeights(h as tf.Tensor4D, { variant, couplings: j, sampler: reference }),
            c,
          ),
        ) as tf.Scalar;
      const g = tf
        .grad(f)(tensorOf<tf.Rank.R4>(h0, [B, H, T, T]))
        .dataSync();
      const eps = 1e-2;
      for (const i of [0, 7, 23, 31, 44, 66, 88, 99]) {
        const at = (delta: number) => {
          const h = Float64Array.from(h0);
          h[i]! += delta;
          return take(f(tensorOf<tf.Rank.R4>(h, [B, H, T, T])))[0]!;
        };
        const fd = (at(eps) - at(-eps)) / (2 * eps);
        expect(Math.abs(g[i]! - fd), `${variant} index ${i}`).toBeLessThan(
          2e-4 + 2e-2 * Math.abs(fd),
        );
      }
    }
  });

  it("keeps rows of tiny α through the transfer-matrix sampler: weights and ∂L/∂h equal sigmoid's at J = 0", () => {
    // Fields −40…−36 (Σα ≈ e^−72): (m + 1)/2 would be 0; the sampler's probabilityUp and its
    // centered VJP keep both (ising-core tinyAlphaRows.test.ts has the kernels one by one).
    const t = 6;
    const hTiny = Float32Array.from({ length: t * t }, (_, q) => -40 + ((q * 7) % 5));
    const x = tensorOf<tf.Rank.R4>(hTiny, [1, 1, t, t]);
    const j0 = tf.zeros([1, t, t]) as tf.Tensor3D;
    const c = tensorOf<tf.Rank.R4>(randomNormal(t * t, 21), [1, 1, t, t]);
    const transfer = transferMatrixSampler.create({ bandwidth: 2 });
    const run = (variant: 'boltzmann' | 'sigmoid') => {
      const f = (xx: tf.Tensor): tf.Scalar =>
        tf.sum(
          tf.mul(
            attentionWeights(xx as tf.Tensor4D, { variant, couplings: j0, sampler: transfer }),
            c,
          ),
        ) as tf.Scalar;
      const w = take(attentionWeights(x, { variant, couplings: j0, sampler: transfer }));
      return { w, g: tf.grad(f)(x).dataSync() };
    };
    const got = run('boltzmann');
    const want = run('sigmoid');
    const scale = (v: ArrayLike<number>) => Math.max(...Array.from(v, Math.abs));
    expect(maxAbsDiff(got.w, want.w) / scale(want.w)).toBeLessThan(1e-5);
    expect(maxAbsDiff(got.g, want.g) / scale(want.g)).toBeLessThan(1e-5);
    expect(scale(want.g)).toBeGreaterThan(1e-3); // the rows carry gradient, not only zeros
  });

  it('stays accurate and finite when every field of a row is strongly negative (no float32 cancellation, no 0/0)', () => {
    // Row i = 3 of a length-4 problem: α = σ(2h) ≈ 6e−6 … 1e−4. In float32, m + 1 would carry
    // relative errors up to ~5e−3 here; α formed in float64 keeps ~1e−7.
    const row = [-6, -8, -4.5, -6];
    const h = new Float32Array(1 * 1 * 4 * 4);
    for (let i = 0; i < 4; i++) for (let k = 0; k < 4; k++) h[i * 4 + k] = row[k]!;
    const expected = row.map((x) => Math.exp(2 * x) / (1 + Math.exp(2 * x)));
    const sum = expected.reduce((a, b) => a + b, 0);
    const j0 = tf.zeros([1, 4, 4]) as tf.Tensor3D;
    const reference = createReferenceSampler(); // magnetizations only: α = (m+1)/2 formed in float64
    for (const [variant, source] of [
      ['boltzmann', reference],
      ['boltzmann', sampler],
      ['sigmoid', sampler],
    ] as const) {
      const w = take(
        attentionWeights(tensorOf<tf.Rank.R4>(h, [1, 1, 4, 4]), {
          variant,
          couplings: j0,
          sampler: source,
        }),
      );
      for (let k = 0; k < 4; k++)
        expect(Math.abs(w[12 + k]! / (expected[k]! / sum) - 1), `${variant} key ${k}`).toBeLessThan(
          1e-5,
        );
    }
    // Fields −20…−25 (α ≈ 1e−22…1e−13): m has cancelled even in float64, but the exact sampler's
    // probabilityUp keeps α, and σ(2βh) is accurate in float32.
    const far = [-20, -25, -15, -20];
    const hFar = Float32Array.from({ length: 16 }, (_, q) => far[q % 4]!);
    const farExpected = far.map((x) => Math.exp(2 * x) / (1 + Math.exp(2 * x)));
    const farSum = farExpected.reduce((a, b) => a + b, 0);
    for (const variant of ['boltzmann', 'sigmoid'] as const) {
      const w = take(
        attentionWeights(tensorOf<tf.Rank.R4>(hFar, [1, 1, 4, 4]), {
          variant,
          couplings: j0,
          sampler,
        }),
      );
      for (let k = 0; k < 4; k++)
        expect(
          Math.abs(w[12 + k]! / (farExpected[k]! / farSum) - 1),
          `${variant} far key ${k}`,
        ).toBeLessThan(1e-5);
    }
    // Fields so negative that α underflows float32 entirely: weights and gradients stay finite.
    const hugeNegative = tensorOf<tf.Rank.R4>(new Float32Array(16).fill(-80), [1, 1, 4, 4]);
    const c = tensorOf<tf.Rank.R4>(randomNormal(16, 15), [1, 1, 4, 4]);
    for (const variant of ['boltzmann', 'sigmoid'] as const) {
      const f = (x: tf.Tensor, jj: tf.Tensor): tf.Scalar =>
        tf.sum(
          tf.mul(
            attentionWeights(x as tf.Tensor4D, { variant, couplings: jj as tf.Tensor3D, sampler }),
            c,
          ),
        ) as tf.Scalar;
      const grads =
        variant === 'boltzmann'
          ? tf.grads(f)([hugeNegative, j0])
          : [tf.grad((x: tf.Tensor) => f(x, j0))(hugeNegative)];
      for (const g of grads) expect(g.dataSync().every(Number.isFinite), variant).toBe(true);
      expect(
        take(attentionWeights(hugeNegative, { variant, couplings: j0, sampler })).every(
          Number.isFinite,
        ),
      ).toBe(true);
    }
  });
});
