import * as tf from '@tensorflow/tfjs';
import { causalBatch, estimateBatch } from '@boltzmann/ising-core';
import type { BatchEstimate, IsingBatch, RealArray, Sampler } from '@boltzmann/ising-core';
import { AttentionError } from './errors.js';

/** One head's Ising batch and the sampler's estimate for it. */
export interface PreparedHead {
  readonly batch: IsingBatch;
  readonly estimate: BatchEstimate;
}

/**
 * Estimates obtained before the differentiable pass (phase 1 of a training step), one per
 * head. Passing them to {@link isingMagnetization} lets an asynchronous (remote) sampler
 * drive a synchronous TensorFlow.js gradient computation.
 */
export interface PreparedEstimates {
  readonly heads: readonly PreparedHead[];
}

/** Where {@link isingMagnetization} gets its moments. */
export interface MagnetizationSource {
  /** The sampler called (synchronously) when no `prepared` estimates are given. */
  readonly sampler: Sampler;
  /** Inverse temperature of the Ising model. */
  readonly beta: number;
  /** Estimates computed beforehand for exactly these fields and couplings. */
  readonly prepared?: PreparedEstimates | undefined;
}

/**
 * Splits `B×H×T×T` fields and `H×T×T` couplings into one causal {@link IsingBatch} per head.
 *
 * @throws {AttentionError} ATTENTION_SHAPE_MISMATCH; {IsingError} ISING_NOT_FINITE on NaN/∞ fields.
 * @example
 * const [head0] = headBatches(hData, jData, { batch: 2, heads: 1, length: 4 }, 1); // 8 problems of 1..4 spins
 */
export function headBatches(
  fields: RealArray,
  couplings: RealArray,
  shape: { batch: number; heads: number; length: number },
  beta: number,
): IsingBatch[] {
  const { batch, heads, length: t } = shape;
  const tt = t * t;
  if (fields.length !== batch * heads * tt || couplings.length !== heads * tt) {
    throw new AttentionError(
      'ATTENTION_SHAPE_MISMATCH',
      `fields (${fields.length}) and couplings (${couplings.length}) do not fit batch ${batch} × heads ${heads} × length ${t}`,
    );
  }
  const out: IsingBatch[] = [];
  for (let hd = 0; hd < heads; hd++) {
    const f = new Float64Array(batch * tt);
    for (let b = 0; b < batch; b++) {
      const src = (b * heads + hd) * tt;
      for (let k = 0; k < tt; k++) f[b * tt + k] = fields[src + k]!;
    }
    const j = Float64Array.from(couplings.subarray(hd * tt, (hd + 1) * tt));
    out.push(causalBatch(f, j, { batch, length: t }, beta));
  }
  return out;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * Runs the sampler on every head's batch and awaits the answers (heads in parallel).
 *
 * @param fields `B×H×T×T` attention fields `h_ij` (row-major, `j > i` ignored).
 * @param couplings `H×T×T` coupling matrices (strict upper triangle used).
 * @returns the estimates to hand to {@link isingMagnetization} as `prepared`.
 * @throws {IsingError} whatever the sampler or batch validation throws.
 * @example
 * const prepared = await prepareEstimates(hData, jData, { batch: 2, heads: 1, length: 4 }, sampler, 1);
 */
export async function prepareEstimates(
  fields: RealArray,
  couplings: RealArray,
  shape: { batch: number; heads: number; length: number },
  sampler: Sampler,
  beta: number,
): Promise<PreparedEstimates> {
  const batches = headBatches(fields, couplings, shape, beta);
  const estimates = await Promise.all(batches.map((b) => estimateBatch(sampler, b)));
  return { heads: batches.map((batch, i) => ({ batch, estimate: estimates[i]! })) };
}

function assertSame(fresh: Float64Array, prepared: Float64Array, what: string, used: (i: number) => boolean): void {
  for (let i = 0; i < fresh.length; i++) {
    if (!used(i)) continue;
    const a = fresh[i]!;
    const b = prepared[i]!;
    if (Math.abs(a - b) > 1e-6 * Math.max(1, Math.abs(b))) {
      throw new AttentionError(
        'ATTENTION_STALE_ESTIMATE',
        `prepared estimate was made for ${what}[${i}] = ${b}, but the differentiable pass sees ${a}; ` +
          'prepare the estimates again after changing the inputs or the weights',
      );
    }
  }
}

function headEstimates(batches: IsingBatch[], source: MagnetizationSource): BatchEstimate[] {
  const { prepared, sampler } = source;
  if (prepared !== undefined) {
    if (prepared.heads.length !== batches.length) {
      throw new AttentionError('ATTENTION_STALE_ESTIMATE', `prepared estimates have ${prepared.heads.length} heads; the layer has ${batches.length}`);
    }
    return batches.map((fresh, hd) => {
      const { batch, estimate } = prepared.heads[hd]!;
      if (batch.size !== fresh.size || batch.stride !== fresh.stride || batch.beta !== fresh.beta) {
        throw new AttentionError(
          'ATTENTION_STALE_ESTIMATE',
          `prepared estimate of head ${hd} is for ${batch.size} problems of stride ${batch.stride} at beta ${batch.beta}; ` +
            `the layer needs ${fresh.size} of stride ${fresh.stride} at beta ${fresh.beta}`,
        );
      }
      const s = fresh.stride;
      assertSame(fresh.fields, batch.fields, `head ${hd} fields`, (i) => i % s < fresh.spins[Math.floor(i / s)]!);
      assertSame(fresh.couplings, batch.couplings, `head ${hd} couplings`, (i) => Math.floor(i / s) < i % s);
      return estimate;
    });
  }
  return batches.map((batch) => {
    const result = estimateBatch(sampler, batch);
    if (isThenable(result)) {
      // Swallow the rejection of the promise we abandon; the caller gets the coded error below.
      Promise.resolve(result).catch(() => undefined);
      throw new AttentionError(
        'ATTENTION_ASYNC_SAMPLER',
        `sampler "${sampler.name}" answered asynchronously; use the async API (model.forward, trainer.step, evaluate) ` +
          'or pass prepared estimates',
      );
    }
    return result;
  });
}

/** `m ↦ scale·m + offset`, applied in float64 before rounding to float32. */
interface Affine {
  readonly scale: number;
  readonly offset: number;
}

const MAGNETIZATION: Affine = { scale: 1, offset: 0 };
const PROBABILITY: Affine = { scale: 0.5, offset: 0.5 };

/**
 * `P(s_j = +1)` straight from an estimate that carries it (the exact sampler's
 * `probabilityUp`), which stays accurate where `(m + 1)/2` has cancelled in float64.
 */
function probabilityUp(estimate: BatchEstimate): Float64Array | undefined {
  const up = (estimate as { probabilityUp?: unknown }).probabilityUp;
  return up instanceof Float64Array && up.length === estimate.magnetization.length ? up : undefined;
}

function isingOp(fields: tf.Tensor4D, couplings: tf.Tensor3D, source: MagnetizationSource, affine: Affine): tf.Tensor4D {
  const [batch, heads, length, length2] = fields.shape;
  const [jHeads, jRows, jCols] = couplings.shape;
  if (length !== length2 || jHeads !== heads || jRows !== length || jCols !== length) {
    throw new AttentionError(
      'ATTENTION_SHAPE_MISMATCH',
      `fields shape [${fields.shape.join(', ')}] needs couplings [${heads}, ${length}, ${length}], got [${couplings.shape.join(', ')}]`,
    );
  }
  const { scale, offset } = affine;
  const op = tf.customGrad((...args: (tf.Tensor | tf.GradSaveFunc)[]) => {
    const h = args[0] as tf.Tensor;
    const j = args[1] as tf.Tensor;
    const shape = { batch, heads, length };
    const batches = headBatches(h.dataSync() as Float32Array, j.dataSync() as Float32Array, shape, source.beta);
    const estimates = headEstimates(batches, source);
    const tt = length * length;
    const out = new Float32Array(batch * heads * tt);
    estimates.forEach((estimate, hd) => {
      const up = affine === PROBABILITY ? probabilityUp(estimate) : undefined;
      for (let b = 0; b < batch; b++) {
        const dst = (b * heads + hd) * tt;
        for (let i = 0; i < length; i++) {
          for (let k = 0; k <= i; k++) {
            const q = b * tt + i * length + k;
            out[dst + i * length + k] = up === undefined ? scale * estimate.magnetization[q]! + offset : up[q]!;
          }
        }
      }
    });
    const gradFunc = (dy: tf.Tensor): tf.Tensor[] => {
      const g = dy.dataSync();
      const gh = new Float32Array(batch * heads * tt);
      const gj = new Float32Array(heads * tt);
      estimates.forEach((estimate, hd) => {
        const gm = new Float64Array(batch * tt);
        for (let b = 0; b < batch; b++) {
          const src = (b * heads + hd) * tt;
          for (let i = 0; i < length; i++) {
            // Entries above the diagonal are not spins of query i; keep them out of the VJP.
            for (let k = 0; k <= i; k++) gm[b * tt + i * length + k] = scale * g[src + i * length + k]!;
          }
        }
        const grads = estimate.vjp(gm);
        for (let b = 0; b < batch; b++) {
          const dst = (b * heads + hd) * tt;
          for (let k = 0; k < tt; k++) gh[dst + k] = grads.fields[b * tt + k]!;
        }
        for (let k = 0; k < tt; k++) {
          // Only the strict upper triangle of J is a parameter.
          gj[hd * tt + k] = Math.floor(k / length) < k % length ? grads.couplings[k]! : 0;
        }
      });
      return [tf.tensor(gh, h.shape), tf.tensor(gj, j.shape)];
    };
    return { value: tf.tensor(out, h.shape), gradFunc };
  });
  return op(fields, couplings) as tf.Tensor4D;
}

/**
 * The Boltzmann attention op: maps fields `h` (`B×H×T×T`) and couplings `J` (`H×T×T`) to the
 * magnetizations `m_ij = ⟨s_j⟩` of query `i`'s causal Ising model over keys `0..i`
 * (zero above the diagonal). Forward and backward come from the sampler's
 * {@link BatchEstimate}: `∂L/∂h = vjp(∂L/∂m).fields`, `∂L/∂J = vjp(∂L/∂m).couplings` per head.
 * Differentiable with `tf.grad`/`tf.variableGrads`; the forward reads tensor data, so it is
 * eager-only (no graph mode).
 *
 * @param fields `B×H×T×T` float32 tensor.
 * @param couplings `H×T×T` float32 tensor (typically a slice of a `tf.Variable`).
 * @param source the sampler and β, plus optional estimates prepared earlier (async samplers).
 * @returns `B×H×T×T` magnetizations in [−1, 1], zero above the diagonal.
 * @throws {AttentionError} ATTENTION_SHAPE_MISMATCH, ATTENTION_ASYNC_SAMPLER (sampler returned a promise and nothing
 *   was prepared), ATTENTION_STALE_ESTIMATE (prepared for other fields); {IsingError} from the sampler.
 * @example
 * const m = isingMagnetization(h, J, { sampler: exactSampler.create(), beta: 1 });
 */
export function isingMagnetization(fields: tf.Tensor4D, couplings: tf.Tensor3D, source: MagnetizationSource): tf.Tensor4D {
  return isingOp(fields, couplings, source, MAGNETIZATION);
}

/**
 * The same op returning the unnormalized attention weights `α_ij = P_i(s_j = +1) = (m_ij + 1)/2`
 * (zero above the diagonal). `α` is taken from the estimate's `probabilityUp` when it has one
 * (the exact sampler's, accurate for any field), else formed as `(m + 1)/2` in float64 before
 * rounding to float32 — either way a key with a strongly negative field keeps a small positive
 * weight instead of cancelling to 0 (`m + 1` in float32 is 0 once `m < −1 + 6e−8`).
 *
 * @returns `B×H×T×T` probabilities in [0, 1]; see {@link isingMagnetization} for parameters and errors.
 * @example
 * const alpha = isingProbability(h, J, { sampler, beta: 1 });
 */
export function isingProbability(fields: tf.Tensor4D, couplings: tf.Tensor3D, source: MagnetizationSource): tf.Tensor4D {
  return isingOp(fields, couplings, source, PROBABILITY);
}
