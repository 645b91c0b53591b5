import * as tf from '@tensorflow/tfjs';
import { causalClosedForm, causalWeightsFromEstimate } from '@boltzmann/ising-core';
import type { CausalVariant, CausalWeights } from '@boltzmann/ising-core';
import { AttentionError } from './errors.js';
import { headBatches, headEstimates } from './preparedEstimates.js';
import type { MagnetizationSource } from './preparedEstimates.js';

/** What {@link causalAttentionWeights} computes with. */
export interface CausalOpSource extends Partial<MagnetizationSource> {
  /** `boltzmann` (h and J, from the sampler), `sigmoid` (closed form, J = 0) or `coupling` (J only, from the sampler at h = 0). */
  readonly variant: CausalVariant;
  /** Inverse temperature. */
  readonly beta: number;
}

function checkShapes(fields: tf.Tensor4D, couplings: tf.Tensor3D | undefined): void {
  const [, heads, length, length2] = fields.shape;
  const bad =
    length !== length2 ||
    (couplings !== undefined && couplings.shape.join() !== [heads, length, length].join());
  if (bad) {
    throw new AttentionError(
      'ATTENTION_SHAPE_MISMATCH',
      `fields shape [${fields.shape.join(', ')}] needs couplings [${heads}, ${length}, ${length}], got [${couplings?.shape.join(', ') ?? 'none'}]`,
    );
  }
}

/** Per head: the causal weights from ising-core (estimate-based or closed form). */
function headOps(
  h: Float32Array,
  j: Float32Array,
  shape: { batch: number; heads: number; length: number },
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

/** Set while {@link withDeferredOpErrors} runs: the op records its first failure here instead of throwing. */
let deferred: { failed: boolean; error?: unknown } | undefined;

/**
 * Runs `run` (typically `tf.variableGrads` of a pass) with the causal op's failures — a
 * sampler's error, non-finite fields, a bad VJP — recorded instead of thrown, then rethrows the
 * first one after disposing what `run` returned. A throw inside `tf.variableGrads` would leak
 * the tensors saved for backward (tfjs keeps them outside every tidy); a failed op instead
 * returns zeros so that the tape completes and frees them.
 *
 * @example
 * const { value, grads } = withDeferredOpErrors(() => tf.variableGrads(loss, vars));
 */
export function withDeferredOpErrors<T extends tf.TensorContainer>(run: () => T): T {
  const previous = deferred;
  const slot: { failed: boolean; error?: unknown } = { failed: false };
  deferred = slot;
  let result: T;
  try {
    result = run();
  } finally {
    deferred = previous;
  }
  if (slot.failed) {
    tf.dispose(result);
    throw slot.error;
  }
  return result;
}

/** Records `error` in the active slot, or throws it when none is active. */
function fail(slot: typeof deferred, error: unknown): void {
  if (slot === undefined) throw error;
  if (!slot.failed) Object.assign(slot, { failed: true, error });
}

/**
 * The attention layer's one wrapper of ising-core's causal op (`causalWeightsFromEstimate`,
 * `causalClosedForm`): causal weights `w_ij = α_ij / Σ_{k≤i} α_ik` (`B×H×T×T`, zero above the
 * diagonal) with `α = P(s_j = +1)` of query `i`'s Ising model over keys `0..i`, and its gradient
 * `∂L/∂h`, `∂L/∂J` from ising-core's backward. Forward and backward read tensor data (one
 * download and one upload each way), so the op is eager-only.
 *
 * @param fields `B×H×T×T` scores `h_ij` (ignored by `coupling`, which has `h = 0`).
 * @param couplings `H×T×T` (strict upper triangle used); `undefined` for `sigmoid`.
 * @param source variant, β, and the sampler or the estimates prepared for exactly these inputs.
 * @returns differentiable `B×H×T×T` weights.
 * @throws {AttentionError} ATTENTION_SHAPE_MISMATCH, ATTENTION_ASYNC_SAMPLER, ATTENTION_STALE_ESTIMATE;
 *   {IsingError} ISING_NOT_FINITE on NaN/∞ fields, and the sampler's errors.
 * @example
 * const w = causalAttentionWeights(scores, J, { variant: 'boltzmann', beta: 1, sampler });
 */
export function causalAttentionWeights(
  fields: tf.Tensor4D,
  couplings: tf.Tensor3D | undefined,
  source: CausalOpSource,
): tf.Tensor4D {
  checkShapes(fields, couplings);
  const [batch, heads, length] = fields.shape;
  const shape = { batch, heads, length };
  const tt = length * length;
  const forward = (
    h: tf.Tensor,
    j: tf.Tensor | undefined,
  ): { value: tf.Tensor; gradFunc: (dy: tf.Tensor) => tf.Tensor[] } => {
    const hData =
      source.variant === 'coupling' ? new Float32Array(h.size) : (h.dataSync() as Float32Array);
    const jData = j === undefined ? new Float32Array(heads * tt) : (j.dataSync() as Float32Array);
    const slot = deferred;
    const zeroGrads = (): tf.Tensor[] =>
      j === undefined ? [tf.zeros(h.shape)] : [tf.zeros(h.shape), tf.zeros(j.shape)];
    let ops: CausalWeights[];
    try {
      ops = headOps(hData, jData, shape, source);
    } catch (error) {
      fail(slot, error);
      return { value: tf.zeros(h.shape), gradFunc: zeroGrads };
    }
    const out = new Float32Array(batch * heads * tt);
    ops.forEach((op, hd) => {
      for (let b = 0; b < batch; b++)
        out.set(op.weights.subarray(b * tt, (b + 1) * tt), (b * heads + hd) * tt);
    });
    const gradFunc = (dy: tf.Tensor): tf.Tensor[] => {
      const g = dy.dataSync();
      const gh = new Float32Array(batch * heads * tt);
      const gj = new Float32Array(heads * tt);
      for (const [hd, op] of ops.entries()) {
        const gw = new Float64Array(batch * tt);
        for (let b = 0; b < batch; b++)
          gw.set(g.subarray((b * heads + hd) * tt, (b * heads + hd + 1) * tt), b * tt);
        let grads: ReturnType<CausalWeights['backward']>;
        try {
          grads = op.backward(gw);
        } catch (error) {
          fail(slot, error);
          return zeroGrads();
        }
        for (let b = 0; b < batch; b++)
          gh.set(grads.fields.subarray(b * tt, (b + 1) * tt), (b * heads + hd) * tt);
        // Only the strict upper triangle of J is a parameter.
        for (let k = 0; k < tt; k++)
          gj[hd * tt + k] = Math.floor(k / length) < k % length ? grads.couplings[k]! : 0;
      }
      // `coupling` ignores h: its field gradient is exactly 0 whatever the sampler says at h = 0.
      const dh = source.variant === 'coupling' ? tf.zeros(h.shape) : tf.tensor(gh, h.shape);
      return j === undefined ? [dh] : [dh, tf.tensor(gj, j.shape)];
    };
    return { value: tf.tensor(out, h.shape), gradFunc };
  };
  type Args = (tf.Tensor | tf.GradSaveFunc)[];
  if (couplings === undefined)
    return tf.customGrad((...args: Args) => forward(args[0] as tf.Tensor, undefined))(
      fields,
    ) as tf.Tensor4D;
  return tf.customGrad((...args: Args) => forward(args[0] as tf.Tensor, args[1] as tf.Tensor))(
    fields,
    couplings,
  ) as tf.Tensor4D;
}
