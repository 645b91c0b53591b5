// The shapes of what phase 1 of a step prepares for the causal op: each head's batch and
// estimate, and on backends without synchronous reads its weights and Jacobians. Types only.
import type { BatchEstimate, IsingBatch } from '@boltzmann/ising-core';

/**
 * One head's Ising batch and the sampler's estimate for it.
 *
 * @category Attention
 */
export interface PreparedHead {
  readonly batch: IsingBatch;
  readonly estimate: BatchEstimate;
  /**
   * The head's weights and their Jacobians, set by `prepare` on a backend that cannot read
   * tensors synchronously (webgpu): the op then neither reads nor computes on the CPU.
   */
  readonly resident?: ResidentHead;
}

/**
 * One head's causal weights and their Jacobians, in ising-core's batch layout: problem
 * `q = b·T + i` (query i of sequence b), key j.
 * @category Attention
 */
export interface ResidentHead {
  /** `w[q, j]`, `B·T × T` (zero for j > i). */
  readonly weights: Float32Array;
  /** `∂w[q, j] / ∂h[q, k]`, `B·T × T × T` (zero for `coupling`, which ignores h). */
  readonly fieldJacobian: Float32Array;
  /** `∂w[q, j] / ∂J[k, l]`, `B·T × T × T·T`, nonzero only on the strict upper triangle `k < l`. */
  readonly couplingJacobian: Float32Array;
}

/**
 * Estimates obtained before the differentiable pass (phase 1 of a training step), one per head.
 *
 * Passing them to the attention op (`attentionWeights`' `prepared`) lets an asynchronous (remote)
 * sampler drive a synchronous TensorFlow.js gradient computation.
 * @category Attention
 */
export interface PreparedEstimates {
  readonly heads: readonly PreparedHead[];
}
