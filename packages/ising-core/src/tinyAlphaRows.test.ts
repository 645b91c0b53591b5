import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  causalBatch,
  causalClosedForm,
  causalWeightsFromEstimate,
  createRng,
  boltzmannDistribution,
  estimateExact,
  estimateFromDense,
  estimateFromSamples,
  estimateTransferMatrix,
  transferMatrixSampler,
} from './index.js';
import type { BatchEstimate, IsingBatch } from './index.js';
import { useWasmTransfer } from './internal/kernels/transferWasm.js';
import { disposeWorkerPool } from './internal/pool/sharedPool.js';
import { relativeError } from './internal/testing/close.js';

// Rows whose every α = P(s = +1) is tiny: below about e^−36, (1 + m)/2 rounds to 0 in float64, so
// the weights must come from P itself (`probabilityUp`), and ∂L/∂m ~ 1/Σα makes an uncentered
// VJP direction cancel every digit of Cov(G, ·). Each kernel that takes such rows is run: the
// batched linear-domain one (wasm and JavaScript) and runChain's log domain.
const T = 10;
const BETA = 1;

afterAll(() => disposeWorkerPool());

/** One causal batch (one sequence of T keys) with fields `offset + U[0, 3)` and band-2 or band-4 couplings of scale `sigma`. */
function tinyBatch(seed: number, offset: number, W: number, sigma: number): IsingBatch {
  const rng = createRng(seed);
  const fields = Float64Array.from({ length: T * T }, () => offset + 3 * rng.next());
  const J = new Float64Array(T * T);
  for (let k = 0; k < T; k++)
    for (let l = k + 1; l <= Math.min(k + W, T - 1); l++) J[k * T + l] = sigma * rng.normal();
  return causalBatch(fields, J, { batch: 1, length: T }, BETA);
}

/**
 * ∂L/∂J at J = 0 in closed form, inside the band `l − k ≤ W` (the sampler's): independent spins, so Cov(s_t, s_k s_l) is
 * δ_tk m_l (1 − m_k²) + δ_tl m_k (1 − m_l²), with 1 − m² = 4 P (1 − P) and g = ∂L/∂m = ∂L/∂α / 2.
 */
function freeCouplingGrad(
  batch: IsingBatch,
  W: number,
  weights: Float64Array,
  gw: Float64Array,
): Float64Array {
  const out = new Float64Array(T * T);
  for (let q = 0; q < batch.size; q++) {
    const n = batch.spins[q]!;
    const at = q * T;
    const p = Array.from(
      { length: n },
      (_, j) => 1 / (1 + Math.exp(-2 * BETA * batch.fields[at + j]!)),
    );
    let sum = 0;
    let dot = 0;
    for (let j = 0; j < n; j++) {
      sum += p[j]!;
      dot += weights[at + j]! * gw[at + j]!;
    }
    const g = p.map((_, j) => (gw[at + j]! - dot) / sum / 2);
    const m = p.map((x) => 2 * x - 1);
    const v = p.map((x) => 4 * x * (1 - x));
    for (let k = 0; k < n; k++)
      for (let l = k + 1; l < Math.min(n, k + W + 1); l++)
        out[k * T + l]! += BETA * (g[k]! * m[l]! * v[k]! + g[l]! * m[k]! * v[l]!);
  }
  return out;
}

/**
 * A J = 0 batch's weights from `estimate` equal softmax(2βh) to 1e-12 and its VJP the closed form
 * to 1e-9, relative to each output's largest entry; `W`: the band of the estimate's ∂L/∂J.
 */
function expectFreeAnswers(batch: IsingBatch, W: number, estimate: BatchEstimate): void {
  const op = causalWeightsFromEstimate(batch, estimate);
  const ref = causalClosedForm(batch, 'sigmoid');
  expect(relativeError(op.weights, ref.weights)).toBeLessThan(1e-12);
  const rng = createRng(8);
  const gw = Float64Array.from({ length: T * T }, () => rng.normal());
  const got = op.backward(gw);
  expect(relativeError(got.fields, ref.backward(gw).fields)).toBeLessThan(1e-9);
  const want = freeCouplingGrad(batch, W, ref.weights, gw);
  expect(relativeError(got.couplings, want)).toBeLessThan(1e-9);
}

const KERNELS = [
  { name: 'linear domain, wasm', W: 2, offset: -40, wasm: true },
  { name: 'linear domain, JavaScript', W: 2, offset: -40, wasm: false },
  { name: 'log domain (R > 250)', W: 4, offset: -40, wasm: true },
  { name: 'linear domain, W = 4', W: 4, offset: -22, wasm: true },
];

describe('exact samplers on rows of tiny α', () => {
  afterEach(() => {
    useWasmTransfer(true);
  });

  for (const { name, W, offset, wasm } of KERNELS) {
    it(`should give softmax(2βh) and the closed-form VJP at J = 0, Σα down to e^−${-2 * offset} (${name})`, () => {
      useWasmTransfer(wasm);
      const batch = tinyBatch(7, offset, W, 0);
      expectFreeAnswers(batch, W, estimateTransferMatrix(batch, { bandwidth: W }));
    });
  }

  it('should give enumeration (estimateExact) softmax(2βh) and the closed-form VJP at J = 0 too', () => {
    const batch = tinyBatch(7, -40, 2, 0);
    expectFreeAnswers(batch, T, estimateExact(batch));
  });

  it('should give a dense sampler (estimateFromDense of the exact distributions) the same, at J = 0', () => {
    const batch = tinyBatch(7, -40, 2, 0);
    const dense = Array.from({ length: batch.size }, (_, q) =>
      boltzmannDistribution(batch.fields.subarray(q * T, (q + 1) * T), batch.couplings, {
        spins: batch.spins[q]!,
        beta: BETA,
      }),
    );
    expectFreeAnswers(batch, T, estimateFromDense(batch, dense));
  });

  it('should give weighted samples (every state once, at its probability) the same, at J = 0', () => {
    const batch = tinyBatch(7, -40, 2, 0);
    const sets = Array.from({ length: batch.size }, (_, q) => {
      const n = batch.spins[q]!;
      const weights = boltzmannDistribution(
        batch.fields.subarray(q * T, (q + 1) * T),
        batch.couplings,
        {
          spins: n,
          beta: BETA,
        },
      );
      const states = new Int8Array(weights.length * n);
      for (let x = 0; x < weights.length; x++)
        for (let j = 0; j < n; j++) states[x * n + j] = (x >> j) & 1 ? 1 : -1;
      return { spins: n, states, weights };
    });
    expectFreeAnswers(batch, T, estimateFromSamples(batch, sets));
  });

  it('should keep P(s = +1) and the centering when the sampler splits the batch across threads', async () => {
    const rng = createRng(11);
    const fields = Float64Array.from({ length: 4 * T * T }, () => -40 + 3 * rng.next());
    const batch = causalBatch(fields, new Float64Array(T * T), { batch: 4, length: T }, BETA);
    const sampler = transferMatrixSampler.create({ bandwidth: 2, threads: 2 });
    const est = await sampler.estimate!(batch);
    const op = causalWeightsFromEstimate(batch, est);
    const ref = causalClosedForm(batch, 'sigmoid');
    expect(relativeError(op.weights, ref.weights)).toBeLessThan(1e-12);
    const gw = Float64Array.from({ length: 4 * T * T }, () => rng.normal());
    const got = await op.backward(gw);
    expect(relativeError(got.fields, ref.backward(gw).fields)).toBeLessThan(1e-9);
  });

  it('should keep the float32 kernel to float32 rounding on its rows of smallest α (fields near −15)', () => {
    const batch = tinyBatch(12, -15, 4, 0);
    const est = estimateTransferMatrix(batch, { bandwidth: 4, precision: 'float32' });
    const op = causalWeightsFromEstimate(batch, est);
    const ref = causalClosedForm(batch, 'sigmoid');
    const rng = createRng(13);
    const gw = Float64Array.from({ length: T * T }, () => rng.normal());
    const got = op.backward(gw);
    // Measured: 3.7e-8, 1.9e-7 and 2.5e-7 (float32 rounding is 6e-8).
    expect(relativeError(op.weights, ref.weights)).toBeLessThan(1e-6);
    expect(relativeError(got.fields, ref.backward(gw).fields)).toBeLessThan(1e-6);
    const want = freeCouplingGrad(batch, 4, ref.weights, gw);
    expect(relativeError(got.couplings, want)).toBeLessThan(1e-6);
  });

  it('should equal enumeration with couplings too (Σα near e^−74, W = 2 and 4)', () => {
    for (const W of [2, 4]) {
      const batch = tinyBatch(9, -40, W, 0.3);
      const op = causalWeightsFromEstimate(batch, estimateTransferMatrix(batch, { bandwidth: W }));
      const ref = causalWeightsFromEstimate(batch, estimateExact(batch));
      expect(relativeError(op.weights, ref.weights), `W = ${W}: weights`).toBeLessThan(1e-12);
      const rng = createRng(10);
      const gw = Float64Array.from({ length: T * T }, () => rng.normal());
      const got = op.backward(gw);
      const want = ref.backward(gw);
      expect(relativeError(got.fields, want.fields), `W = ${W}: ∂L/∂h`).toBeLessThan(1e-9);
      // Enumeration's ∂L/∂J covers every pair; the transfer matrix's, the band l − k ≤ W.
      const band = want.couplings.map((v, i) => ((i % T) - Math.floor(i / T) <= W ? v : 0));
      expect(relativeError(got.couplings, band), `W = ${W}: ∂L/∂J`).toBeLessThan(1e-9);
    }
  });
});
