import { describe, expect, it } from 'vitest';
import {
  causalBatch,
  causalClosedForm,
  causalWeightsFromEstimate,
  createRng,
  tapEstimate,
  transferMatrixSampler,
} from './index.js';
import { codeOf } from './testing/thrownErrors.js';
import { bruteForceEstimate, bruteForceMoments } from './testing/index.js';

const B = 2;
const T = 5;
const shape = { batch: B, length: T };

function inputs(seed: number, hScale = 1.5, jScale = 0.8) {
  const rng = createRng(seed);
  return {
    fields: Float64Array.from({ length: B * T * T }, () => hScale * (2 * rng.next() - 1)),
    couplings: Float64Array.from({ length: T * T }, () => jScale * (2 * rng.next() - 1)),
    upstream: Float64Array.from({ length: B * T * T }, () => 2 * rng.next() - 1),
  };
}

/** The weights written out the slow way: brute-force moments per query, (m + 1)/2, divided by the row sum. */
function slowWeights(fields: Float64Array, couplings: Float64Array, beta: number): Float64Array {
  const w = new Float64Array(B * T * T);
  for (let b = 0; b < B; b++) {
    for (let i = 0; i < T; i++) {
      const row = (b * T + i) * T;
      const { magnetization } = bruteForceMoments(
        fields.subarray(row, row + T),
        couplings,
        i + 1,
        beta,
      );
      const alpha = Array.from({ length: i + 1 }, (_, j) => (magnetization[j]! + 1) / 2);
      const sum = alpha.reduce((a, x) => a + x, 0);
      alpha.forEach((a, j) => (w[row + j] = a / sum));
    }
  }
  return w;
}

const loss = (w: Float64Array, c: Float64Array): number =>
  w.reduce((acc, x, k) => acc + x * c[k]!, 0);

describe('causalWeightsFromEstimate', () => {
  it('normalizes any estimate to the causal weights, equal to the brute-force weights', () => {
    const { fields, couplings } = inputs(1);
    const batch = causalBatch(fields, couplings, shape, 0.9);
    const { weights } = causalWeightsFromEstimate(batch, bruteForceEstimate(batch));
    const slow = slowWeights(fields, couplings, 0.9);
    for (let k = 0; k < slow.length; k++) expect(weights[k]).toBeCloseTo(slow[k]!, 13);
  });

  it('has the gradient of the weights: central differences in every field and coupling', () => {
    const { fields, couplings, upstream } = inputs(2);
    const beta = 0.8;
    const batch = causalBatch(fields, couplings, shape, beta);
    const grads = causalWeightsFromEstimate(batch, bruteForceEstimate(batch)).backward(upstream);
    const eps = 1e-5;
    const at = (h: Float64Array, j: Float64Array): number =>
      loss(slowWeights(h, j, beta), upstream);
    for (let b = 0; b < B; b++) {
      for (let i = 0; i < T; i++) {
        for (let j = 0; j <= i; j++) {
          const k = (b * T + i) * T + j;
          const up = Float64Array.from(fields);
          const down = Float64Array.from(fields);
          up[k]! += eps;
          down[k]! -= eps;
          expect(grads.fields[k]).toBeCloseTo(
            (at(up, couplings) - at(down, couplings)) / (2 * eps),
            8,
          );
        }
      }
    }
    for (let j = 0; j < T; j++) {
      for (let l = j + 1; l < T; l++) {
        const up = Float64Array.from(couplings);
        const down = Float64Array.from(couplings);
        up[j * T + l]! += eps;
        down[j * T + l]! -= eps;
        expect(grads.couplings[j * T + l]).toBeCloseTo(
          (at(fields, up) - at(fields, down)) / (2 * eps),
          8,
        );
      }
    }
  });

  it('works over an approximate sampler: tap at J = 0 is the sigmoid closed form, transfer-matrix equals brute force', () => {
    const { fields, couplings, upstream } = inputs(3);
    const free = causalBatch(fields, new Float64Array(T * T), shape, 1);
    const tap = causalWeightsFromEstimate(free, tapEstimate(free));
    const sigmoid = causalClosedForm(free, 'sigmoid');
    for (let k = 0; k < tap.weights.length; k++)
      expect(tap.weights[k]).toBeCloseTo(sigmoid.weights[k]!, 10);
    const tapGrads = tap.backward(upstream);
    const sigmoidGrads = sigmoid.backward(upstream);
    for (let k = 0; k < tapGrads.fields.length; k++)
      expect(tapGrads.fields[k]).toBeCloseTo(sigmoidGrads.fields[k]!, 8);
    const batch = causalBatch(fields, couplings, shape, 1);
    const tm = causalWeightsFromEstimate(
      batch,
      transferMatrixSampler.create({ bandwidth: T }).estimate!(batch) as never,
    );
    const slow = slowWeights(fields, couplings, 1);
    for (let k = 0; k < slow.length; k++) expect(tm.weights[k]).toBeCloseTo(slow[k]!, 10);
  });

  it('refuses a gradient of the wrong size or with NaN, with a code', () => {
    const { fields, couplings } = inputs(4);
    const batch = causalBatch(fields, couplings, shape, 1);
    const op = causalWeightsFromEstimate(batch, bruteForceEstimate(batch));
    expect(codeOf(() => op.backward(new Float64Array(3)))).toBe('ISING_SHAPE_MISMATCH');
    const bad = new Float64Array(B * T * T);
    bad[0] = Number.NaN;
    expect(codeOf(() => op.backward(bad))).toBe('ISING_NOT_FINITE');
  });
});

describe('causalClosedForm', () => {
  it('sigmoid: weights ∝ σ(2βh) with the central-difference gradient; ∂L/∂J = 0', () => {
    const { fields, upstream } = inputs(5, 3);
    const beta = 1.3;
    const zeros = new Float64Array(T * T);
    const op = causalClosedForm(causalBatch(fields, zeros, shape, beta), 'sigmoid');
    const slow = slowWeights(fields, zeros, beta); // J = 0: independent spins
    for (let k = 0; k < slow.length; k++) expect(op.weights[k]).toBeCloseTo(slow[k]!, 13);
    const grads = op.backward(upstream);
    const eps = 1e-6;
    for (const k of [0, 5, 6, 12, 24, 30, 49]) {
      const up = Float64Array.from(fields);
      const down = Float64Array.from(fields);
      up[k]! += eps;
      down[k]! -= eps;
      const fd =
        (loss(slowWeights(up, zeros, beta), upstream) -
          loss(slowWeights(down, zeros, beta), upstream)) /
        (2 * eps);
      expect(grads.fields[k]).toBeCloseTo(fd, 8);
    }
    expect(grads.couplings.every((x) => x === 0)).toBe(true);
  });

  it('coupling: exactly uniform weights over each prefix and zero gradients', () => {
    const { fields, couplings, upstream } = inputs(6);
    const op = causalClosedForm(causalBatch(fields, couplings, shape, 1), 'coupling');
    expect(op.weights[(0 * T + 3) * T + 2]).toBe(1 / 4);
    const g = op.backward(upstream);
    expect([...g.fields, ...g.couplings].every((x) => x === 0)).toBe(true);
    expect(
      codeOf(() =>
        causalClosedForm(causalBatch(fields, couplings, shape, 1), 'boltzmann' as never),
      ),
    ).toBe('ISING_INVALID_ARGUMENT');
  });
});
