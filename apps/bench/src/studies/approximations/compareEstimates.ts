import { estimateBatch } from '@boltzmann/ising-core';
import type { BatchEstimate, IsingBatch, Sampler } from '@boltzmann/ising-core';

/** How far an approximate sampler's answer is from the exact one, over a batch. */
export interface EstimateError {
  /** Largest |Δm| over every used spin. */
  readonly maxAbsDm: number;
  /** Mean |Δm| over every used spin. */
  readonly meanAbsDm: number;
  /** Mean over problems of KL(exact ‖ approx) of the normalized attention rows `α_j ∝ (m_j + 1)/2`. */
  readonly meanKl: number;
  /** Cosine similarity of ∂L/∂h with the exact one (used entries), for the same upstream gradient. */
  readonly cosGradH: number;
  /** Cosine similarity of ∂L/∂J with the exact one (strict upper triangle). */
  readonly cosGradJ: number;
}

const sync = (sampler: Sampler, batch: IsingBatch): BatchEstimate => {
  const result = estimateBatch(sampler, batch);
  if (result instanceof Promise)
    throw new Error(
      `sampler "${sampler.name}" answered asynchronously; the study needs a synchronous one`,
    );
  return result;
};

/** Normalized attention row of problem `q`: `α_j = (m_j + 1) / Σ_k (m_k + 1)` over its spins. */
export function attentionRow(m: Float64Array, batch: IsingBatch, q: number): Float64Array {
  const n = batch.spins[q]!;
  const row = new Float64Array(n);
  let total = 0;
  for (let j = 0; j < n; j++) total += row[j] = m[q * batch.stride + j]! + 1;
  for (let j = 0; j < n; j++) row[j]! /= total;
  return row;
}

/** KL(p ‖ q) in nats, with 0·log 0 = 0 (and ∞ where q has no mass and p has). */
export function klDivergence(p: Float64Array, q: Float64Array): number {
  let kl = 0;
  for (let i = 0; i < p.length; i++) if (p[i]! > 0) kl += p[i]! * Math.log(p[i]! / q[i]!);
  return kl;
}

/** Cosine similarity of `a` and `b` at the indices `used` accepts (1 when both are zero there). */
export function cosine(a: Float64Array, b: Float64Array, used: (i: number) => boolean): number {
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    if (!used(i)) continue;
    ab += a[i]! * b[i]!;
    aa += a[i]! ** 2;
    bb += b[i]! ** 2;
  }
  if (aa === 0 && bb === 0) return 1;
  return ab / Math.sqrt(aa * bb);
}

/**
 * Compares two estimates of the same batch: `reference` (exact) and `approx`, for the upstream
 * gradient `grad` (layout of the magnetizations).
 */
export function compareEstimates(
  batch: IsingBatch,
  reference: BatchEstimate,
  approx: BatchEstimate,
  grad: Float64Array,
): EstimateError {
  const { size, stride } = batch;
  let maxAbsDm = 0;
  let sumAbsDm = 0;
  let count = 0;
  let kl = 0;
  for (let q = 0; q < size; q++) {
    for (let j = 0; j < batch.spins[q]!; j++) {
      const d = Math.abs(
        reference.magnetization[q * stride + j]! - approx.magnetization[q * stride + j]!,
      );
      maxAbsDm = Math.max(maxAbsDm, d);
      sumAbsDm += d;
      count += 1;
    }
    kl += klDivergence(
      attentionRow(reference.magnetization, batch, q),
      attentionRow(approx.magnetization, batch, q),
    );
  }
  const exactGrad = reference.vjp(grad);
  const approxGrad = approx.vjp(grad);
  const usedH = (i: number): boolean => i % stride < batch.spins[Math.floor(i / stride)]!;
  const upper = (i: number): boolean => Math.floor(i / stride) < i % stride;
  return {
    maxAbsDm,
    meanAbsDm: sumAbsDm / count,
    meanKl: kl / size,
    cosGradH: cosine(exactGrad.fields, approxGrad.fields, usedH),
    cosGradJ: cosine(exactGrad.couplings, approxGrad.couplings, upper),
  };
}

/** {@link compareEstimates} of `sampler` against `exact` on one batch. */
export function compareSampler(
  batch: IsingBatch,
  exact: Sampler,
  sampler: Sampler,
  grad: Float64Array,
): EstimateError {
  return compareEstimates(batch, sync(exact, batch), sync(sampler, batch), grad);
}
