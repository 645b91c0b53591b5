import type { CausalVariant } from './variants.js';
import { assertBeta, assertSpinLimit, causalBatch } from './batch.js';
import type { CausalShape } from './batch.js';
import { echo } from './echo.js';
import { IsingError } from './errors.js';
import { estimateExactAsync, estimateValidated } from './estimateExact.js';
import { resolveMaxSpins } from './internal/kernels/exactBatch.js';
import type { IsingBatch, IsingGradients, RealArray } from './types.js';

/** The attention variants computed exactly (METHOD.md §1); `softmax` lives in the attention package. */
export type { CausalVariant } from './variants.js';

/** Options of {@link causalBoltzmann}. */
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

/** Options of {@link causalBoltzmannAsync}: the same as {@link CausalBoltzmannOptions}. */
export type CausalBoltzmannAsyncOptions = CausalBoltzmannOptions;

/** Forward values of a causal call, all `Float64Array`s in the fields' layout, zero above the diagonal. */
export interface CausalBoltzmannForward {
  /** `m_ij = ⟨s_j⟩` of query `i`. */
  readonly magnetization: Float64Array;
  /** `w_ij = α_ij / Σ_{k≤i} α_ik` with `α = (m + 1)/2`. */
  readonly weights: Float64Array;
}

/** Result of {@link causalBoltzmann}. */
export interface CausalBoltzmannResult extends CausalBoltzmannForward {
  /** Maps ∂L/∂w (fields' layout; entries above the diagonal ignored) to ∂L/∂h and ∂L/∂J (`length × length`). */
  backward(gradWeights: RealArray): IsingGradients;
}

/** Result of {@link causalBoltzmannAsync}: as {@link CausalBoltzmannResult} with an asynchronous backward. */
export interface CausalBoltzmannAsyncResult extends CausalBoltzmannForward {
  backward(gradWeights: RealArray): Promise<IsingGradients>;
}

// A row's α sum is positive for finite fields, but every α of a row underflows to 0 when all
// its fields are below about −354/β. Such a row gets zero weights (a constant, so zero gradient)
// instead of 0/0: its true weights would need log-domain marginals.
const MIN_ALPHA_SUM = 1e-300;

interface Prepared {
  readonly batch: IsingBatch;
  readonly variant: CausalVariant;
  readonly shape: CausalShape;
}

function prepare(fields: RealArray, couplings: RealArray, shape: CausalShape, options: CausalBoltzmannOptions): Prepared {
  const variant = options.variant ?? 'boltzmann';
  if (variant !== 'boltzmann' && variant !== 'sigmoid' && variant !== 'coupling') {
    throw new IsingError('ISING_INVALID_ARGUMENT', `variant must be 'boltzmann', 'sigmoid' or 'coupling', got ${echo(variant)}`);
  }
  const beta = options.beta ?? 1;
  assertBeta(beta);
  const batch = causalBatch(fields, couplings, shape, beta);
  if (variant === 'boltzmann') assertSpinLimit(shape.length, resolveMaxSpins(options.maxSpins), 'causalBoltzmann');
  return { batch, variant, shape };
}

/** `α = P(s_j = +1)` for the closed-form variants. */
function closedFormUp(prep: Prepared): Float64Array {
  const { batch, variant } = prep;
  const up = new Float64Array(batch.fields.length);
  const T = batch.stride;
  for (let q = 0; q < batch.size; q++) {
    const start = q * T;
    for (let j = 0; j < batch.spins[q]!; j++) {
      // sigmoid: P(s = +1) = 1/(1 + e^{−2βh}) exactly; coupling: 1/2 by the global flip symmetry.
      up[start + j] = variant === 'sigmoid' ? 1 / (1 + Math.exp(-2 * batch.beta * batch.fields[start + j]!)) : 0.5;
    }
  }
  return up;
}

function forwardValues(prep: Prepared, up: Float64Array): { magnetization: Float64Array; weights: Float64Array; sums: Float64Array } {
  const { batch, variant } = prep;
  const T = batch.stride;
  const magnetization = new Float64Array(up.length);
  const weights = new Float64Array(up.length);
  const sums = new Float64Array(batch.size);
  for (let q = 0; q < batch.size; q++) {
    const start = q * T;
    const n = batch.spins[q]!;
    let sum = 0;
    for (let j = 0; j < n; j++) sum += up[start + j]!;
    sums[q] = sum;
    const inv = sum >= MIN_ALPHA_SUM ? 1 / sum : 0;
    for (let j = 0; j < n; j++) {
      const a = up[start + j]!;
      weights[start + j] = a * inv;
      magnetization[start + j] = variant === 'sigmoid' ? Math.tanh(batch.beta * batch.fields[start + j]!) : variant === 'coupling' ? 0 : 2 * a - 1;
    }
  }
  return { magnetization, weights, sums };
}

/** ∂L/∂α from ∂L/∂w through `w = α / Σα` (zero for underflowed rows); validates the upstream gradient. */
function gradAlpha(prep: Prepared, weights: Float64Array, sums: Float64Array, gradWeights: RealArray): Float64Array {
  const { batch } = prep;
  const T = batch.stride;
  if (!(gradWeights instanceof Float32Array || gradWeights instanceof Float64Array) || gradWeights.length !== weights.length) {
    const got = gradWeights instanceof Float32Array || gradWeights instanceof Float64Array ? `${gradWeights.length} entries` : 'not a Float32Array/Float64Array';
    throw new IsingError('ISING_SHAPE_MISMATCH', `backward: gradWeights is ${got}; batch ${prep.shape.batch} × length ${T} × ${T} needs ${weights.length}`);
  }
  const ga = new Float64Array(weights.length);
  for (let q = 0; q < batch.size; q++) {
    const start = q * T;
    const n = batch.spins[q]!;
    let dot = 0;
    for (let j = 0; j < n; j++) {
      const g = gradWeights[start + j]!;
      if (!Number.isFinite(g)) throw new IsingError('ISING_NOT_FINITE', `backward: gradWeights[${start + j}] is ${String(g)}`);
      dot += weights[start + j]! * g;
    }
    const sum = sums[q]!;
    if (sum < MIN_ALPHA_SUM) continue;
    for (let j = 0; j < n; j++) ga[start + j] = (gradWeights[start + j]! - dot) / sum;
  }
  return ga;
}

/** Gradients of the closed-form variants: sigmoid `∂α/∂h = 2β α (1 − α)`; coupling: none (h and J have no effect). */
function closedFormBackward(prep: Prepared, up: Float64Array, ga: Float64Array): IsingGradients {
  const { batch, variant } = prep;
  const T = batch.stride;
  const fields = new Float64Array(up.length);
  if (variant === 'sigmoid') {
    for (let q = 0; q < batch.size; q++) {
      const start = q * T;
      for (let j = 0; j < batch.spins[q]!; j++) {
        const a = up[start + j]!;
        const rest = 1 / (1 + Math.exp(2 * batch.beta * batch.fields[start + j]!)); // 1 − α without cancellation
        fields[start + j] = ga[start + j]! * 2 * batch.beta * a * rest;
      }
    }
  }
  return { fields, couplings: new Float64Array(T * T) };
}

/** ∂L/∂m = ∂L/∂α / 2 (α = (m + 1)/2). */
function halve(ga: Float64Array): Float64Array {
  for (let i = 0; i < ga.length; i++) ga[i] = ga[i]! / 2;
  return ga;
}

/**
 * The batched causal Boltzmann attention op, exact and synchronous. Query `i` of
 * sequence `b` is an Ising model over keys `0..i` with fields `h_ij = fields[(b·length + i)·length + j]`
 * (entries with `j > i` ignored) and the shared couplings `J` (strict upper triangle).
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
 * const { weights, backward } = causalBoltzmann(scores, J, { batch: 2, length: 8 });
 * const { fields: dScores, couplings: dJ } = backward(gradWeights);
 */
export function causalBoltzmann(fields: RealArray, couplings: RealArray, shape: CausalShape, options: CausalBoltzmannOptions = {}): CausalBoltzmannResult {
  const prep = prepare(fields, couplings, shape, options);
  if (prep.variant !== 'boltzmann') {
    const up = closedFormUp(prep);
    const fwd = forwardValues(prep, up);
    return { magnetization: fwd.magnetization, weights: fwd.weights, backward: (g) => closedFormBackward(prep, up, gradAlpha(prep, fwd.weights, fwd.sums, g)) };
  }
  const est = estimateValidated(prep.batch, options);
  const fwd = forwardValues(prep, est.probabilityUp);
  return {
    magnetization: fwd.magnetization,
    weights: fwd.weights,
    backward: (g) => est.vjp(halve(gradAlpha(prep, fwd.weights, fwd.sums, g))),
  };
}

/**
 * {@link causalBoltzmann} with the enumeration on `worker_threads` only (see
 * `estimateExactAsync`), leaving the calling thread's event loop free; forward and backward are
 * asynchronous. The closed-form variants run on the calling thread.
 *
 * @throws {IsingError} as {@link causalBoltzmann}; ISING_WORKER_FAILED when a worker dies.
 * @example
 * const { weights, backward } = await causalBoltzmannAsync(scores, J, { batch: 64, length: 16 }, { threads: 'auto' });
 * const grads = await backward(gradWeights);
 */
export async function causalBoltzmannAsync(
  fields: RealArray,
  couplings: RealArray,
  shape: CausalShape,
  options: CausalBoltzmannAsyncOptions = {},
): Promise<CausalBoltzmannAsyncResult> {
  const prep = prepare(fields, couplings, shape, options);
  if (prep.variant !== 'boltzmann') {
    const sync = causalBoltzmann(fields, couplings, shape, options);
    return { magnetization: sync.magnetization, weights: sync.weights, backward: async (g) => sync.backward(g) };
  }
  const est = await estimateExactAsync(prep.batch, options);
  const fwd = forwardValues(prep, est.probabilityUp);
  return {
    magnetization: fwd.magnetization,
    weights: fwd.weights,
    backward: async (g) => est.vjp(halve(gradAlpha(prep, fwd.weights, fwd.sums, g))),
  };
}
