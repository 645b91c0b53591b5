// The causal op on a backend that cannot read tensors synchronously (webgpu): phase 1 (`prepare`)
// reads the fields asynchronously and computes, on the CPU, each head's weights and their exact
// Jacobians; the differentiable pass then uploads the weights, and its backward is two tensor
// contractions of ∂L/∂w with those Jacobians, so neither direction reads a tensor.
import * as tf from '@tensorflow/tfjs';
import { causalWeightsFromEstimate } from '@boltzmann/ising-core';
import type { CausalVariant } from '@boltzmann/ising-core';
import { AttentionError } from '../core/errors.js';
import type { PreparedEstimates, PreparedHead, ResidentHead } from '../model/preparedTypes.js';

/** The sizes of one causal op (as causalOpBuffers' `CausalShape`). */
type CausalShape = { readonly batch: number; readonly heads: number; readonly length: number };

/**
 * Every head's weights and Jacobians from its prepared estimate, by ising-core's backward applied
 * to each unit `∂L/∂w[q, j]` (`j ≤ i`): `B·T(T+1)/2` backward passes per head, meant for the small
 * models a browser's GPU backend trains. Exact for the estimate (the Jacobian of the weights the
 * estimate defines, as the synchronous op's backward).
 *
 * @param heads the prepared heads (batch and estimate of each).
 * @param variant `boltzmann` or `coupling`.
 * @returns the heads with `resident` set.
 */
export function withResidentGradients(
  heads: readonly PreparedHead[],
  variant: CausalVariant,
): PreparedHead[] {
  return heads.map((head) => ({ ...head, resident: residentHead(head, variant) }));
}

function residentHead(head: PreparedHead, variant: CausalVariant): ResidentHead {
  const { batch, estimate } = head;
  const t = batch.stride;
  const tt = t * t;
  const problems = batch.size;
  const op = causalWeightsFromEstimate(batch, estimate);
  const fieldJacobian = new Float32Array(problems * tt);
  const couplingJacobian = new Float32Array(problems * t * tt);
  const unit = new Float64Array(problems * t);
  for (let q = 0; q < problems; q++) {
    const keys = batch.spins[q]!;
    for (let j = 0; j < keys; j++) {
      unit[q * t + j] = 1;
      const grads = op.backward(unit);
      unit[q * t + j] = 0;
      const row = (q * t + j) * t;
      if (variant !== 'coupling')
        for (let k = 0; k < keys; k++) fieldJacobian[row + k] = grads.fields[q * t + k]!;
      const block = (q * t + j) * tt;
      for (let k = 0; k < t; k++)
        for (let l = k + 1; l < t; l++)
          couplingJacobian[block + k * t + l] = grads.couplings[k * t + l]!;
    }
  }
  return { weights: Float32Array.from(op.weights), fieldJacobian, couplingJacobian };
}

/**
 * The heads' resident data when `prepared` carries it for every head, else `undefined`.
 *
 * @throws {AttentionError} ATTENTION_STALE_ESTIMATE when it was made for another batch, head
 *   count or length.
 */
export function residentHeads(
  prepared: PreparedEstimates | undefined,
  shape: CausalShape,
): ResidentHead[] | undefined {
  if (prepared === undefined || !prepared.heads.every((h) => h.resident !== undefined))
    return undefined;
  const { batch, heads, length } = shape;
  const fits = prepared.heads.every(
    (h) => h.batch.size === batch * length && h.batch.stride === length,
  );
  if (prepared.heads.length !== heads || !fits) {
    throw new AttentionError(
      'ATTENTION_STALE_ESTIMATE',
      `prepared estimates are for ${prepared.heads.length} heads of ${prepared.heads[0]?.batch.size ?? 0} problems of length ${prepared.heads[0]?.batch.stride ?? 0}; the layer has ${heads} heads of ${batch * length} of length ${length}`,
    );
  }
  return prepared.heads.map((h) => h.resident!);
}

/** Rearranges per-head rows (`[hd][q = b·T + i][…inner]`) into `B×H×T×…inner`. */
function byBatchAndHead(
  parts: readonly Float32Array[],
  shape: CausalShape,
  inner: number,
): Float32Array {
  const { batch, heads, length } = shape;
  const out = new Float32Array(batch * heads * length * inner);
  const rows = length * inner;
  parts.forEach((part, hd) => {
    for (let b = 0; b < batch; b++)
      out.set(part.subarray(b * rows, (b + 1) * rows), (b * heads + hd) * rows);
  });
  return out;
}

/**
 * The op from resident data, tensors only: the weights uploaded; backward
 * `∂L/∂h[b,h,i,k] = Σ_j ∂L/∂w[b,h,i,j] ∂w/∂h[…, j, k]` and
 * `∂L/∂J[h] = Σ_{b,i,j} ∂L/∂w[b,h,i,j] ∂w/∂J[…]` as tensor contractions.
 */
export function residentForward(
  resident: readonly ResidentHead[],
  shape: CausalShape,
  withCouplings: boolean,
): { value: tf.Tensor; gradFunc: (dy: tf.Tensor) => tf.Tensor[] } {
  const { batch, heads, length: t } = shape;
  const weights = byBatchAndHead(
    resident.map((r) => r.weights),
    shape,
    t,
  );
  const gradFunc = (dy: tf.Tensor): tf.Tensor[] => {
    const fieldJacobian = tf.tensor5d(
      byBatchAndHead(
        resident.map((r) => r.fieldJacobian),
        shape,
        t * t,
      ),
      [batch, heads, t, t, t],
    );
    const dh = tf.sum(tf.mul(tf.expandDims(dy, 4), fieldJacobian), 3);
    if (!withCouplings) return [dh];
    const perHead = new Float32Array(heads * batch * t * t * t * t);
    resident.forEach((r, hd) => perHead.set(r.couplingJacobian, hd * r.couplingJacobian.length));
    const couplingJacobian = tf.tensor3d(perHead, [heads, batch * t * t, t * t]);
    const rows = tf.reshape(tf.transpose(dy, [1, 0, 2, 3]), [heads, 1, batch * t * t]);
    return [dh, tf.reshape(tf.matMul(rows, couplingJacobian), [heads, t, t])];
  };
  return { value: tf.tensor4d(weights, [batch, heads, t, t]), gradFunc };
}

/**
 * The sigmoid variant in tensor ops, for backends without synchronous reads: `α = (tanh(βh) + 1)/2
 * = σ(2βh)` on `j ≤ i`, normalized per row (ising-core's closed form, differentiated by tfjs).
 */
export function sigmoidOnDevice(fields: tf.Tensor4D, beta: number): tf.Tensor4D {
  const t = fields.shape[2];
  return tf.tidy(() => {
    const mask = tf.linalg.bandPart(tf.ones([t, t]), -1, 0);
    const alpha = tf.mul(tf.sigmoid(tf.mul(fields, 2 * beta)), mask);
    return tf.div(alpha, tf.sum(alpha, -1, true)) as tf.Tensor4D;
  });
}
