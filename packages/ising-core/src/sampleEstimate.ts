import { echo } from './echo.js';
import { IsingError } from './errors.js';
import { centeredDirection } from './internal/kernels/centeredDirection.js';
import { assertGradMagnetization } from './internal/vjpInput.js';
import type { BatchEstimate, IsingBatch, IsingGradients, SampleSet } from './types.js';

/** Validated view of one problem's samples, weights normalized to sum 1. */
interface PreparedSet {
  readonly n: number;
  readonly count: number;
  readonly states: Int8Array;
  readonly p: Float64Array;
}

function prepare(batch: IsingBatch, set: SampleSet | undefined, q: number): PreparedSet {
  const n = batch.spins[q]!;
  if (
    set === null ||
    typeof set !== 'object' ||
    !(set.states instanceof Int8Array) ||
    !(set.weights instanceof Float64Array)
  ) {
    throw new IsingError(
      'ISING_BAD_SAMPLES',
      `sample set ${q} must be { spins, states: Int8Array, weights: Float64Array }`,
    );
  }
  if (set.spins !== n) {
    throw new IsingError(
      'ISING_SHAPE_MISMATCH',
      `sample set ${q} has ${echo(set.spins)} spins; problem ${q} has ${n}`,
    );
  }
  const count = set.weights.length;
  if (count === 0) throw new IsingError('ISING_BAD_SAMPLES', `sample set ${q} is empty`);
  if (set.states.length !== count * n) {
    throw new IsingError(
      'ISING_SHAPE_MISMATCH',
      `sample set ${q} has ${set.states.length} state entries; ${count} weights × ${n} spins needs ${count * n}`,
    );
  }
  for (let i = 0; i < set.states.length; i++) {
    const s = set.states[i]!;
    if (s !== 1 && s !== -1) {
      throw new IsingError(
        'ISING_BAD_SAMPLES',
        `sample set ${q}: state ${Math.floor(i / n)}, spin ${i % n} is ${s}; spins must be −1 or +1`,
      );
    }
  }
  let largest = 0;
  for (let i = 0; i < count; i++) {
    const w = set.weights[i]!;
    if (!Number.isFinite(w))
      throw new IsingError('ISING_NOT_FINITE', `sample set ${q}: weights[${i}] is ${String(w)}`);
    if (w < 0)
      throw new IsingError(
        'ISING_BAD_SAMPLES',
        `sample set ${q}: weights[${i}] is ${w}; weights must be ≥ 0`,
      );
    if (w > largest) largest = w;
  }
  if (!(largest > 0))
    throw new IsingError(
      'ISING_BAD_SAMPLES',
      `sample set ${q}: every weight is 0; the total must be positive`,
    );
  // Scaling by the largest weight first keeps the total finite even for weights near the float64 limit.
  const p = new Float64Array(count);
  let total = 0;
  for (let i = 0; i < count; i++) {
    p[i] = set.weights[i]! / largest;
    total += p[i]!;
  }
  for (let i = 0; i < count; i++) p[i]! /= total;
  return { n, count, states: set.states, p };
}

/**
 * Moments and VJP of a batch from one weighted sample set per problem (MCMC chains, finite-shot
 * anneals, hardware reads): magnetizations are weighted sample means, and the VJP is the
 * fluctuation–dissipation estimator with weighted sample covariances,
 * `∂L/∂h_k = β·Cov(G, s_k)` and `∂L/∂J_kl = β·Σ_q Cov_q(G, s_k s_l)` with `G = Σ_j g_j s_j`
 * (centered term by term on the samples' own `P(s_j = +1)`, returned as `probabilityUp`).
 * A "sample set" holding every state once, weighted by its probability, gives the exact moments.
 *
 * Cost: `O(samples·n)` per problem for the moments and ∂h, `O(samples·n²)` for ∂J.
 * The estimate keeps references to `sets[q].states` for the VJP: do not mutate them afterwards.
 *
 * @summary Moments and VJP of a batch from one weighted sample set per problem (MCMC chains, finite-shot anneals, hardware reads).
 * @param batch the problems the samples were drawn for.
 * @param sets one sample set per problem, `sets[q].spins === batch.spins[q]`.
 * @returns magnetizations and `P(s = +1)` in the batch layout, and a synchronous VJP.
 * @throws {IsingError} ISING_SHAPE_MISMATCH (set count, spin count, states length),
 *   ISING_BAD_SAMPLES (a spin not ±1, a negative weight, an empty set, a zero total weight),
 *   ISING_NOT_FINITE (a non-finite weight).
 * @example
 * import { createIsingBatch, estimateFromSamples } from '@boltzmann/ising-core';
 *
 * const batch = createIsingBatch({ fields: Float64Array.of(0.5), couplings: new Float64Array(1), spins: [1], stride: 1 });
 * const set = { spins: 1, states: Int8Array.of(1, -1), weights: Float64Array.of(3, 1) };
 * const { magnetization } = estimateFromSamples(batch, [set]);
 * console.log(magnetization); // [0.5]
 * @category Samplers
 */
export function estimateFromSamples(batch: IsingBatch, sets: readonly SampleSet[]): BatchEstimate {
  const { size, stride, beta } = batch;
  if (!Array.isArray(sets) || sets.length !== size) {
    const got = Array.isArray(sets) ? `${sets.length} sample sets` : 'not an array of sample sets';
    throw new IsingError(
      'ISING_SHAPE_MISMATCH',
      `got ${got}; the batch has ${size} problems (one set per problem)`,
    );
  }
  const prepared: PreparedSet[] = [];
  const magnetization = new Float64Array(size * stride);
  const probabilityUp = new Float64Array(size * stride);
  for (let q = 0; q < size; q++) {
    const set = prepare(batch, sets[q], q);
    prepared.push(set);
    const { n, count, states, p } = set;
    const base = q * stride;
    for (let s = 0; s < count; s++) {
      const ps = p[s]!;
      const row = s * n;
      for (let j = 0; j < n; j++) {
        magnetization[base + j]! += ps * states[row + j]!;
        if (states[row + j]! > 0) probabilityUp[base + j]! += ps;
      }
    }
  }

  const vjp = (gradMagnetization: Float64Array): IsingGradients => {
    assertGradMagnetization(batch, gradMagnetization, 'estimateFromSamples vjp');
    const fields = new Float64Array(size * stride);
    const couplings = new Float64Array(stride * stride);
    for (let q = 0; q < size; q++) {
      const { n, count, states, p } = prepared[q]!;
      const base = q * stride;
      const centred = new Float64Array(count);
      // β (G − E[G]) = Σ_j β g_j (s_j − m_j) term by term (centeredDirection): accurate when
      // |E[G]| ≫ its spread (rows of tiny α have g ~ 1/Σα), where G(s) − mean(G) cancels.
      const { up, down } = centeredDirection(beta, gradMagnetization, base, n, probabilityUp, base);
      for (let s = 0; s < count; s++) {
        let g = 0;
        const row = s * n;
        for (let j = 0; j < n; j++) g += states[row + j]! > 0 ? up[j]! : -down[j]!;
        centred[s] = p[s]! * g;
      }
      for (let s = 0; s < count; s++) {
        const c = centred[s]!;
        if (c === 0) continue;
        const row = s * n;
        for (let k = 0; k < n; k++) {
          const a = c * states[row + k]!;
          fields[base + k]! += a;
          const jrow = k * stride;
          for (let l = k + 1; l < n; l++) couplings[jrow + l]! += a * states[row + l]!;
        }
      }
    }
    return { fields, couplings };
  };

  return { magnetization, probabilityUp, vjp };
}
