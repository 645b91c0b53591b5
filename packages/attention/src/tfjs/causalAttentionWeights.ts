import * as tf from '@tensorflow/tfjs';
import type { CausalWeights } from '@boltzmann/ising-core';
import {
  causalHeadOps,
  writeCausalGradients,
  writeCausalWeights,
} from '../model/causalOpBuffers.js';
import type { CausalOpSource } from '../model/causalOpBuffers.js';
import { AttentionError } from '../core/errors.js';
import { readsSynchronously } from './tensorData.js';
import { residentForward, residentHeads, sigmoidOnDevice } from './residentGradients.js';

export type { CausalOpSource } from '../model/causalOpBuffers.js';

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

/** Set while {@link withDeferredOpErrors} runs: the op records its first failure here instead of throwing. */
let deferred: { failed: boolean; error?: unknown } | undefined;

/**
 * Runs `run` (typically `tf.variableGrads` of a pass) with the causal op's failures — a
 * sampler's error, non-finite fields, a bad VJP — recorded instead of thrown, then rethrows the
 * first one after disposing what `run` returned. A throw inside `tf.variableGrads` would leak
 * the tensors saved for backward (tfjs keeps them outside every tidy); a failed op instead
 * returns zeros so that the tape completes and frees them.
 *
 * @summary Runs a gradient pass and rethrows the causal op's failures after tfjs has cleaned up.
 * @example
 * import * as tf from '@tensorflow/tfjs';
 * import { createTransformer, initBackend, maskedCrossEntropy, withDeferredOpErrors } from '@boltzmann/attention';
 *
 * await initBackend();
 * const model = createTransformer({ vocabSize: 8, maxLength: 4, dModel: 8, heads: 1 });
 * const inputs = Int32Array.of(1, 2, 3, 4);
 * const targets = Int32Array.of(2, 3, 4, 5);
 * const loss = (): tf.Scalar => maskedCrossEntropy(model.logits(inputs, 1), targets, new Float32Array(4).fill(1));
 * // An op's error inside the gradient tape is rethrown here, after tfjs has cleaned up.
 * const { value, grads } = withDeferredOpErrors(() => tf.variableGrads(loss));
 * console.log(value.dataSync()[0], Object.keys(grads).length);
 * model.dispose();
 * @category Attention
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
 * @summary The attention layer's one wrapper of ising-core's causal op (`causalWeightsFromEstimate`, `causalClosedForm`).
 * @param fields `B×H×T×T` scores `h_ij` (ignored by `coupling`, which has `h = 0`).
 * @param couplings `H×T×T` (strict upper triangle used); `undefined` for `sigmoid`.
 * @param source variant, β, and the sampler or the estimates prepared for exactly these inputs.
 * @returns differentiable `B×H×T×T` weights.
 * @throws {AttentionError} ATTENTION_SHAPE_MISMATCH, ATTENTION_ASYNC_SAMPLER, ATTENTION_STALE_ESTIMATE;
 *   {IsingError} ISING_NOT_FINITE on NaN/∞ fields, and the sampler's errors.
 * @example
 * import * as tf from '@tensorflow/tfjs';
 * import { exactSampler } from '@boltzmann/ising-core';
 * import { causalAttentionWeights, initBackend } from '@boltzmann/attention';
 *
 * await initBackend();
 * const [B, H, T] = [1, 2, 4];
 * const scores = tf.randomNormal([B, H, T, T], 0, 1, 'float32', 1) as tf.Tensor4D;
 * const J = tf.zeros([H, T, T]) as tf.Tensor3D;
 * const w = causalAttentionWeights(scores, J, { variant: 'boltzmann', beta: 1, sampler: exactSampler.create() });
 * console.log(w.shape); // [1, 2, 4, 4], each row summing to 1 over its causal prefix
 * @category Attention
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
  const resident = residentHeads(source.prepared, shape);
  if (resident === undefined && !readsSynchronously()) {
    if (source.variant === 'sigmoid') return sigmoidOnDevice(fields, source.beta);
    throw new AttentionError(
      'ATTENTION_INVALID_ARGUMENT',
      `the ${tf.getBackend()} backend cannot read tensors synchronously: prepare the estimates first ` +
        '(model.prepare, then model.logits(inputs, batchSize, prepared)); prepare computes the weights and their Jacobians there',
    );
  }
  const forward = (
    h: tf.Tensor,
    j: tf.Tensor | undefined,
  ): { value: tf.Tensor; gradFunc: (dy: tf.Tensor) => tf.Tensor[] } => {
    if (resident !== undefined) return residentForward(resident, shape, j !== undefined);
    const hData =
      source.variant === 'coupling' ? new Float32Array(h.size) : (h.dataSync() as Float32Array);
    const jData = j === undefined ? new Float32Array(heads * tt) : (j.dataSync() as Float32Array);
    const slot = deferred;
    const zeroGrads = (): tf.Tensor[] =>
      j === undefined ? [tf.zeros(h.shape)] : [tf.zeros(h.shape), tf.zeros(j.shape)];
    let ops: CausalWeights[];
    try {
      ops = causalHeadOps(hData, jData, shape, source);
    } catch (error) {
      fail(slot, error);
      return { value: tf.zeros(h.shape), gradFunc: zeroGrads };
    }
    const out = new Float32Array(batch * heads * tt);
    writeCausalWeights(ops, shape, out);
    const gradFunc = (dy: tf.Tensor): tf.Tensor[] => {
      const gh = new Float32Array(batch * heads * tt);
      const gj = j === undefined ? undefined : new Float32Array(heads * tt);
      try {
        writeCausalGradients(ops, shape, source.variant, {
          gw: dy.dataSync() as Float32Array,
          gh,
          gj,
        });
      } catch (error) {
        fail(slot, error);
        return zeroGrads();
      }
      const dh = tf.tensor(gh, h.shape);
      return gj === undefined ? [dh] : [dh, tf.tensor(gj, j!.shape)];
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
