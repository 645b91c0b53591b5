// The causal op on plain buffers: ising-core's causal weights of every head of a `B×H×T×T`
// batch, written into and read from the caller's arrays. The tfjs op (tfjs/causalAttentionWeights.ts)
// and the engine (engine/) are both thin wrappers of these functions.
import { causalClosedForm, causalWeightsFromEstimate } from '@boltzmann/ising-core';
import type { CausalVariant, CausalWeights } from '@boltzmann/ising-core';
import { AttentionError } from '../core/errors.js';
import { headBatches, headEstimates } from './headEstimates.js';
import type { MagnetizationSource } from './headEstimates.js';

/**
 * What the causal op computes with.
 *
 * @category Attention
 */
export interface CausalOpSource extends Partial<MagnetizationSource> {
  /** `boltzmann` (h and J, from the sampler), `sigmoid` (closed form, J = 0) or `coupling` (J only, from the sampler at h = 0). */
  readonly variant: CausalVariant;
  /** Inverse temperature. */
  readonly beta: number;
}

/** The sizes of one causal op: `batch × heads` problems of `length` keys. */
export interface CausalShape {
  readonly batch: number;
  readonly heads: number;
  readonly length: number;
}

/**
 * Per head: the causal weights from ising-core (estimate-based or closed form), for fields
 * `h` (`B×H×T×T`; ignored by `coupling`) and couplings `j` (`H×T×T`, strict upper triangle).
 *
 * @throws {AttentionError} ATTENTION_INVALID_ARGUMENT without a sampler where one is needed,
 *   ATTENTION_ASYNC_SAMPLER, ATTENTION_STALE_ESTIMATE; {IsingError} ISING_NOT_FINITE.
 */
export function causalHeadOps(
  h: Float32Array,
  j: Float32Array,
  shape: CausalShape,
  source: CausalOpSource,
): CausalWeights[] {
  const batches = headBatches(h, j, shape, source.beta);
  if (source.variant === 'sigmoid')
    return batches.map((batch) => causalClosedForm(batch, 'sigmoid'));
  if (source.sampler === undefined)
    throw new AttentionError(
      'ATTENTION_INVALID_ARGUMENT',
      `variant "${source.variant}" needs a sampler`,
    );
  const estimates = headEstimates(batches, {
    sampler: source.sampler,
    beta: source.beta,
    prepared: source.prepared,
  });
  return batches.map((batch, hd) => causalWeightsFromEstimate(batch, estimates[hd]!));
}

/** Writes the heads' weights into `out` (`B×H×T×T`, row-major). */
export function writeCausalWeights(
  ops: readonly CausalWeights[],
  shape: CausalShape,
  out: Float32Array,
): void {
  const { batch, heads, length } = shape;
  const tt = length * length;
  ops.forEach((op, hd) => {
    for (let b = 0; b < batch; b++)
      out.set(op.weights.subarray(b * tt, (b + 1) * tt), (b * heads + hd) * tt);
  });
}

/**
 * The backward of the heads: from `gw` (∂L/∂w, `B×H×T×T`) writes ∂L/∂h into `gh` (`B×H×T×T`;
 * zeros for `coupling`, which ignores h) and, when `gj` is given, ∂L/∂J into it (`H×T×T`, zero
 * outside the strict upper triangle, the only part of J that is a parameter).
 */
export function writeCausalGradients(
  ops: readonly CausalWeights[],
  shape: CausalShape,
  variant: CausalVariant,
  grads: { gw: Float32Array; gh: Float32Array; gj?: Float32Array | undefined },
): void {
  const { batch, heads, length } = shape;
  const { gw, gh, gj } = grads;
  const tt = length * length;
  const dw = new Float64Array(batch * tt);
  for (const [hd, op] of ops.entries()) {
    for (let b = 0; b < batch; b++)
      dw.set(gw.subarray((b * heads + hd) * tt, (b * heads + hd + 1) * tt), b * tt);
    const result = op.backward(dw);
    for (let b = 0; b < batch; b++) {
      const at = (b * heads + hd) * tt;
      if (variant === 'coupling') gh.fill(0, at, at + tt);
      else gh.set(result.fields.subarray(b * tt, (b + 1) * tt), at);
    }
    if (gj === undefined) continue;
    for (let k = 0; k < tt; k++)
      gj[hd * tt + k] = Math.floor(k / length) < k % length ? result.couplings[k]! : 0;
  }
}
