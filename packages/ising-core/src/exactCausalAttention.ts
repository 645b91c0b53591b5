import type { CausalVariant } from './variants.js';
import { assertBeta, assertSpinLimit, causalBatch } from './batch.js';
import type { CausalShape } from './batch.js';
import { echo } from './echo.js';
import { IsingError } from './errors.js';
import { causalClosedForm, causalWeightsFromEstimate } from './causalWeights.js';
import { estimateExactAsync, estimateValidated } from './estimateExact.js';
import { resolveMaxSpins } from './internal/kernels/exactBatch.js';
import type { IsingBatch, IsingGradients, RealArray } from './types.js';

/** The attention variants computed exactly (METHOD.md §1); `softmax` lives in the attention package. */
export type { CausalVariant } from './variants.js';

/**
 * Options of {@link causalBoltzmann}.
 *
 * @category Attention
 */
export interface CausalBoltzmannOptions {
  /** `'boltzmann'` (h and J, default), `'sigmoid'` (J treated as 0), `'coupling'` (h treated as 0). */
  readonly variant?: CausalVariant;
  /** Inverse temperature (default 1). */
  readonly beta?: number;
  /** Exact-enumeration limit on `length` for `'boltzmann'` (default 24). */
  readonly maxSpins?: number;
  /**
   * Threads for `'boltzmann'`: `'auto'` (default) uses every core when the batch has at least
   * 2^24 configurations, a number forces that many (1 = calling thread only).
   */
  readonly threads?: 'auto' | number;
}

/**
 * Options of {@link causalBoltzmannAsync}: the same as {@link CausalBoltzmannOptions}.
 *
 * @category Attention
 */
export type CausalBoltzmannAsyncOptions = CausalBoltzmannOptions;

/**
 * Forward values of a causal call, all `Float64Array`s in the fields' layout, zero above the diagonal.
 *
 * @category Attention
 */
export interface CausalBoltzmannForward {
  /** `m_ij = ⟨s_j⟩` of query `i`. */
  readonly magnetization: Float64Array;
  /** `w_ij = α_ij / Σ_{k≤i} α_ik` with `α = (m + 1)/2`. */
  readonly weights: Float64Array;
}

/**
 * Result of {@link causalBoltzmann}.
 *
 * @category Attention
 */
export interface CausalBoltzmannResult extends CausalBoltzmannForward {
  /** Maps ∂L/∂w (fields' layout; entries above the diagonal ignored) to ∂L/∂h and ∂L/∂J (`length × length`). */
  backward(gradWeights: RealArray): IsingGradients;
}

/**
 * Result of {@link causalBoltzmannAsync}: as {@link CausalBoltzmannResult} with an asynchronous backward.
 *
 * @category Attention
 */
export interface CausalBoltzmannAsyncResult extends CausalBoltzmannForward {
  backward(gradWeights: RealArray): Promise<IsingGradients>;
}

interface Prepared {
  readonly batch: IsingBatch;
  readonly variant: CausalVariant;
}

function prepare(
  fields: RealArray,
  couplings: RealArray,
  shape: CausalShape,
  options: CausalBoltzmannOptions,
): Prepared {
  const variant = options.variant ?? 'boltzmann';
  if (variant !== 'boltzmann' && variant !== 'sigmoid' && variant !== 'coupling') {
    throw new IsingError(
      'ISING_INVALID_ARGUMENT',
      `variant must be 'boltzmann', 'sigmoid' or 'coupling', got ${echo(variant)}`,
    );
  }
  const beta = options.beta ?? 1;
  assertBeta(beta);
  const batch = causalBatch(fields, couplings, shape, beta);
  if (variant === 'boltzmann')
    assertSpinLimit(shape.length, resolveMaxSpins(options.maxSpins), 'causalBoltzmann');
  return { batch, variant };
}

/**
 * The batched causal Boltzmann attention op, exact and synchronous.
 *
 * Query `i` of sequence `b` is an Ising model over keys `0..i` with fields `h_ij =
 * fields[(b·length + i)·length + j]` (entries with `j > i` ignored) and the shared couplings `J`
 * (strict upper triangle).
 *
 * - `'boltzmann'`: exact enumeration, `O(2^{i+1})` per query.
 * - `'sigmoid'`: `J` treated as 0, so `m = tanh(βh)` in closed form; `∂L/∂J = 0`.
 * - `'coupling'`: `h` treated as 0, so `m = 0` exactly by the flip symmetry (uniform weights);
 *   both gradients are exactly zero (`∂L/∂h` because `h` is ignored, `∂L/∂J` by the symmetry).
 *
 * Synchronous, as a `tf.customGrad` forward must be; a large batch is still spread over all
 * cores (see `estimateExact`: the calling thread takes one share and blocks on the workers).
 *
 * @param fields `batch × length × length` row-major, Float32Array or Float64Array.
 * @param couplings `length × length` row-major.
 * @param shape `{ batch, length }`.
 * @param options `variant`, `beta`, `maxSpins`, `threads`.
 * @returns magnetizations, normalized weights and `backward(∂L/∂w) → { fields: ∂L/∂h, couplings: ∂L/∂J }`.
 * @throws {IsingError} ISING_SHAPE_MISMATCH, ISING_NOT_FINITE, ISING_INVALID_ARGUMENT, ISING_TOO_MANY_SPINS
 * @example
 * import { causalBoltzmann } from '@boltzmann/ising-core';
 *
 * const batch = 2;
 * const length = 8;
 * const scores = Float64Array.from({ length: batch * length * length }, (_, i) => Math.sin(i));
 * const J = new Float64Array(length * length).fill(0.1);
 * const { weights, backward } = causalBoltzmann(scores, J, { batch, length });
 * const { fields: dScores, couplings: dJ } = backward(new Float64Array(weights.length).fill(1));
 * console.log(dScores.length, dJ.length);
 * @category Attention
 */
export function causalBoltzmann(
  fields: RealArray,
  couplings: RealArray,
  shape: CausalShape,
  options: CausalBoltzmannOptions = {},
): CausalBoltzmannResult {
  const { batch, variant } = prepare(fields, couplings, shape, options);
  if (variant !== 'boltzmann') return causalClosedForm(batch, variant);
  return causalWeightsFromEstimate(batch, estimateValidated(batch, options, 'causalBoltzmann'));
}

/**
 * {@link causalBoltzmann} with the enumeration on `worker_threads` only (see
 * `estimateExactAsync`), leaving the calling thread's event loop free; forward and backward are
 * asynchronous. The closed-form variants run on the calling thread.
 *
 * @summary {@link causalBoltzmann} on worker threads, leaving the calling thread's event loop free.
 * @throws {IsingError} as {@link causalBoltzmann}; ISING_WORKER_FAILED when a worker dies.
 * @example
 * import { causalBoltzmannAsync, disposeExactWorkers } from '@boltzmann/ising-core';
 *
 * const batch = 4;
 * const length = 10;
 * const scores = Float64Array.from({ length: batch * length * length }, (_, i) => Math.sin(i));
 * const J = new Float64Array(length * length).fill(0.1);
 * const { weights, backward } = await causalBoltzmannAsync(scores, J, { batch, length }, { threads: 2 });
 * const grads = await backward(new Float64Array(weights.length).fill(1));
 * console.log(grads.couplings.length);
 * await disposeExactWorkers();
 * @category Attention
 */
export async function causalBoltzmannAsync(
  fields: RealArray,
  couplings: RealArray,
  shape: CausalShape,
  options: CausalBoltzmannAsyncOptions = {},
): Promise<CausalBoltzmannAsyncResult> {
  const { batch, variant } = prepare(fields, couplings, shape, options);
  if (variant !== 'boltzmann') {
    const sync = causalClosedForm(batch, variant);
    return {
      magnetization: sync.magnetization,
      weights: sync.weights,
      backward: async (g) => sync.backward(g),
    };
  }
  const { magnetization, weights, backward } = causalWeightsFromEstimate(
    batch,
    await estimateExactAsync(batch, options),
  );
  // An async function: a bad gradient rejects rather than throwing at the call.
  return { magnetization, weights, backward: async (g) => backward(g) };
}
