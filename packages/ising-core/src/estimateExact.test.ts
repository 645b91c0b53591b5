import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  boltzmannDistribution,
  causalBatch,
  createIsingBatch,
  createRng,
  floorScaledInt,
  disposeExactWorkers,
  estimateExact,
  estimateExactAsync,
  estimateFromDense,
} from './index.js';
import type { IsingBatch } from './index.js';
import { codeOf } from './testing/thrownErrors.js';

afterAll(() => disposeExactWorkers());

const spin = (s: number, j: number) => ((s >> j) & 1 ? 1 : -1);

/** Plain per-problem covariances: ∂h_k = β Cov(G, s_k), ∂J_kl = β Σ_q Cov_q(G, s_k s_l), from log-domain probabilities. */
function referenceVjp(batch: IsingBatch, grad: Float64Array) {
  const { size, stride, beta } = batch;
  const dh = new Float64Array(size * stride);
  const dJ = new Float64Array(stride * stride);
  const m = new Float64Array(size * stride);
  for (let q = 0; q < size; q++) {
    const n = batch.spins[q]!;
    const logW: number[] = [];
    for (let s = 0; s < 2 ** n; s++) {
      let v = 0;
      for (let j = 0; j < n; j++) {
        v += batch.fields[q * stride + j]! * spin(s, j);
        for (let k = j + 1; k < n; k++)
          v += batch.couplings[j * stride + k]! * spin(s, j) * spin(s, k);
      }
      logW.push(beta * v);
    }
    const top = Math.max(...logW);
    const z = logW.reduce((a, w) => a + Math.exp(w - top), 0);
    const p = logW.map((w) => Math.exp(w - top) / z);
    const G = p.map((_, s) =>
      Array.from({ length: n }, (_, j) => grad[q * stride + j]! * spin(s, j)).reduce(
        (a, b) => a + b,
        0,
      ),
    );
    const EG = p.reduce((a, ps, s) => a + ps * G[s]!, 0);
    for (let k = 0; k < n; k++) {
      m[q * stride + k] = p.reduce((a, ps, s) => a + ps * spin(s, k), 0);
      dh[q * stride + k] = beta * p.reduce((a, ps, s) => a + ps * (G[s]! - EG) * spin(s, k), 0);
      for (let l = k + 1; l < n; l++)
        dJ[k * stride + l]! +=
          beta * p.reduce((a, ps, s) => a + ps * (G[s]! - EG) * spin(s, k) * spin(s, l), 0);
    }
  }
  return { m, dh, dJ };
}

const close = (actual: ArrayLike<number>, expected: ArrayLike<number>, rel: number, abs = rel) => {
  expect(actual.length).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) {
    const tol = abs + rel * Math.abs(expected[i]!);
    if (!(Math.abs(actual[i]! - expected[i]!) <= tol))
      throw new Error(`entry ${i}: ${actual[i]} vs ${expected[i]} (tolerance ${tol})`);
  }
};

function randomBatch(
  seed: number,
  stride: number,
  size: number,
  scale: number,
  beta = 1,
): IsingBatch {
  const rng = createRng(seed);
  const spins = Array.from({ length: size }, () => 1 + floorScaledInt(rng, stride));
  return createIsingBatch({
    fields: Float64Array.from({ length: size * stride }, () => scale * (2 * rng.next() - 1)),
    couplings: Float64Array.from({ length: stride * stride }, () => scale * (2 * rng.next() - 1)),
    spins,
    stride,
    beta,
  });
}

describe('estimateExact', () => {
  it('matches brute-force moments and covariance VJPs on random mixed-size batches', () => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 6 }),
        fc.double({ min: 0.05, max: 10, noNaN: true }),
        (seed, stride, size, scale) => {
          const batch = randomBatch(seed, stride, size, scale, 0.3 + (Math.abs(seed) % 7) / 4);
          const est = estimateExact(batch);
          const grad = Float64Array.from({ length: size * stride }, (_, i) => Math.sin(i + seed));
          const ref = referenceVjp(batch, grad);
          close(est.magnetization, ref.m, 1e-10);
          const got = est.vjp(grad);
          close(got.fields, ref.dh, 1e-9, 1e-11);
          close(got.couplings, ref.dJ, 1e-9, 1e-11);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('matches brute force at 11–16 spins, where the field tables split into low and high bits', () => {
    // Scales 0.3 and 3 take the fast path (coupling weights extended by multiplication up to 16
    // spins, so rounding accumulates over 16 extensions); 40 takes the log-domain path.
    for (const [seed, scale, spins] of [
      [31, 0.3, [11, 16, 12]],
      [32, 3, [16, 13, 12]],
      [33, 40, [11, 13, 12]],
    ] as const) {
      const rng = createRng(seed);
      const stride = 16;
      const batch = createIsingBatch({
        fields: Float64Array.from({ length: 3 * stride }, () => scale * (2 * rng.next() - 1)),
        couplings: Float64Array.from(
          { length: stride * stride },
          () => (scale / 8) * (2 * rng.next() - 1),
        ),
        spins,
        stride,
        beta: 0.9,
      });
      const grad = Float64Array.from({ length: 3 * stride }, () => 2 * rng.next() - 1);
      const est = estimateExact(batch);
      const ref = referenceVjp(batch, grad);
      close(est.magnetization, ref.m, 1e-10);
      const got = est.vjp(grad);
      close(got.fields, ref.dh, 1e-9, 1e-11);
      close(got.couplings, ref.dJ, 1e-9, 1e-11);
    }
  });

  it('stays exact at low temperature (β = 40), where most problems take the log-domain path', () => {
    for (const seed of [41, 42, 43]) {
      const batch = randomBatch(seed, 9, 6, 1, 40);
      const grad = Float64Array.from({ length: batch.fields.length }, (_, i) => Math.cos(i + seed));
      const est = estimateExact(batch);
      const ref = referenceVjp(batch, grad);
      close(est.magnetization, ref.m, 1e-10);
      const got = est.vjp(grad);
      close(got.fields, ref.dh, 1e-9, 1e-10);
      close(got.couplings, ref.dJ, 1e-9, 1e-10);
    }
  });

  it('VJP equals central finite differences of Σ g·m', () => {
    const batch = randomBatch(5, 7, 5, 1.5, 0.8);
    const grad = Float64Array.from({ length: batch.fields.length }, (_, i) => Math.cos(3 * i));
    const loss = (fields: Float64Array, couplings: Float64Array) => {
      const m = estimateExact(
        createIsingBatch({ fields, couplings, spins: batch.spins, stride: 7, beta: 0.8 }),
      ).magnetization;
      return m.reduce((a, v, i) => a + v * grad[i]!, 0);
    };
    const { fields: dh, couplings: dJ } = estimateExact(batch).vjp(grad);
    const eps = 1e-5;
    for (let i = 0; i < batch.fields.length; i++) {
      if (i % 7 >= batch.spins[Math.floor(i / 7)]!) {
        expect(dh[i]).toBe(0);
        continue;
      }
      const up = batch.fields.slice();
      const down = batch.fields.slice();
      up[i]! += eps;
      down[i]! -= eps;
      const fd = (loss(up, batch.couplings) - loss(down, batch.couplings)) / (2 * eps);
      expect(Math.abs(dh[i]! - fd)).toBeLessThan(1e-7 + 1e-6 * Math.abs(fd));
    }
    for (let i = 0; i < 49; i++) {
      const [k, l] = [Math.floor(i / 7), i % 7];
      if (k >= l) {
        expect(dJ[i]).toBe(0);
        continue;
      }
      const up = batch.couplings.slice();
      const down = batch.couplings.slice();
      up[i]! += eps;
      down[i]! -= eps;
      const fd = (loss(batch.fields, up) - loss(batch.fields, down)) / (2 * eps);
      expect(Math.abs(dJ[i]! - fd)).toBeLessThan(1e-7 + 1e-6 * Math.abs(fd));
    }
  });

  it('estimateFromDense on the exact Boltzmann distributions equals estimateExact', () => {
    const batch = randomBatch(9, 6, 7, 2, 1.3);
    const dists = Array.from({ length: batch.size }, (_, q) =>
      boltzmannDistribution(batch.fields.subarray(q * 6, q * 6 + 6), batch.couplings, {
        spins: batch.spins[q]!,
        beta: 1.3,
      }),
    );
    const dense = estimateFromDense(batch, dists);
    const exact = estimateExact(batch);
    close(dense.magnetization, exact.magnetization, 1e-12);
    const grad = Float64Array.from({ length: batch.fields.length }, (_, i) => (i % 5) - 2);
    const a = dense.vjp(grad);
    const b = exact.vjp(grad);
    close(a.fields, b.fields, 1e-11, 1e-13);
    close(a.couplings, b.couplings, 1e-11, 1e-13);
  });

  it('reports log Z and P(s = +1) consistent with the magnetizations', () => {
    const batch = causalBatch(
      Float64Array.from({ length: 2 * 16 }, (_, i) => Math.sin(i)),
      new Float64Array(16),
      { batch: 2, length: 4 },
    );
    const est = estimateExact(batch);
    for (let q = 0; q < batch.size; q++) {
      const n = batch.spins[q]!;
      // J = 0 here: independent spins, log Z = Σ log 2cosh h.
      let logZ = 0;
      for (let j = 0; j < n; j++) {
        const h = batch.fields[q * 4 + j]!;
        logZ += Math.log(2 * Math.cosh(h));
        expect(est.probabilityUp[q * 4 + j]).toBeCloseTo(
          (est.magnetization[q * 4 + j]! + 1) / 2,
          15,
        );
        expect(est.magnetization[q * 4 + j]).toBeCloseTo(Math.tanh(h), 14);
      }
      expect(est.logPartition[q]).toBeCloseTo(logZ, 13);
    }
  });

  it('the multi-threaded paths (synchronous and async) equal the single-thread path', async () => {
    const batch = randomBatch(21, 10, 12, 1);
    const grad = Float64Array.from({ length: batch.fields.length }, (_, i) => Math.sin(7 * i));
    const one = estimateExact(batch, { threads: 1 });
    const g1 = one.vjp(grad);
    const sync = estimateExact(batch, { threads: 2 });
    expect(Array.from(sync.magnetization)).toEqual(Array.from(one.magnetization));
    expect(Array.from(sync.logPartition)).toEqual(Array.from(one.logPartition));
    const gs = sync.vjp(grad);
    expect(Array.from(gs.fields)).toEqual(Array.from(g1.fields));
    close(gs.couplings, g1.couplings, 1e-12, 1e-14);
    const many = await estimateExactAsync(batch, { threads: 2 });
    expect(Array.from(many.magnetization)).toEqual(Array.from(one.magnetization));
    expect(Array.from(many.logPartition)).toEqual(Array.from(one.logPartition));
    const g2 = await many.vjp(grad);
    expect(Array.from(g2.fields)).toEqual(Array.from(g1.fields));
    close(g2.couplings, g1.couplings, 1e-12, 1e-14);
    // The pool is reused, and a backward can run twice.
    close((await many.vjp(grad)).couplings, g1.couplings, 1e-12, 1e-14);
    close(sync.vjp(grad).couplings, g1.couplings, 1e-12, 1e-14);
  });

  it('rejects bad batches and gradients with coded errors', async () => {
    const batch = randomBatch(1, 4, 3, 1);
    expect(codeOf(() => estimateExact({ ...batch, fields: new Float64Array(5) }))).toBe(
      'ISING_SHAPE_MISMATCH',
    );
    expect(codeOf(() => estimateExact({ ...batch, size: 4 }))).toBe('ISING_SHAPE_MISMATCH');
    expect(
      codeOf(() =>
        estimateExact({ ...batch, fields: batch.fields.map((v, i) => (i === 0 ? Number.NaN : v)) }),
      ),
    ).toBe('ISING_NOT_FINITE');
    expect(codeOf(() => estimateExact(batch, { maxSpins: 2 }))).toBe(
      batch.spins.some((n) => n > 2) ? 'ISING_TOO_MANY_SPINS' : 'no error',
    );
    expect(codeOf(() => estimateExact(batch, { maxSpins: 0 }))).toBe('ISING_INVALID_ARGUMENT');
    expect(codeOf(() => estimateExact(null as unknown as IsingBatch))).toBe(
      'ISING_INVALID_ARGUMENT',
    );
    const est = estimateExact(batch);
    expect(codeOf(() => est.vjp(new Float64Array(3)))).toBe('ISING_SHAPE_MISMATCH');
    expect(codeOf(() => est.vjp(new Float64Array(12).fill(Number.NaN)))).toBe('ISING_NOT_FINITE');
    await expect(estimateExactAsync(batch, { threads: 0 })).rejects.toMatchObject({
      code: 'ISING_INVALID_ARGUMENT',
    });
    expect(codeOf(() => estimateExact(batch, { threads: 1.5 }))).toBe('ISING_INVALID_ARGUMENT');
    const big = createIsingBatch({
      fields: new Float64Array(25),
      couplings: new Float64Array(625),
      spins: [25],
      stride: 25,
    });
    expect(codeOf(() => estimateExact(big))).toBe('ISING_TOO_MANY_SPINS');
  });
});
