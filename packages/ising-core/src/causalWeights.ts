import { IsingError } from './errors.js';
import type { BatchEstimate, IsingBatch, IsingGradients, RealArray } from './types.js';

/**
 * The one home of Boltzmann attention's normalization (METHOD.md §1–§2): `α = P(s_j = +1)` of
 * each causal problem, `w = α / Σ_{k≤i} α_k`, and the gradient back to the fields and couplings.
 * `α` comes from any sampler's {@link BatchEstimate} (exact, transfer-matrix, tap, dqa,
 * hardware) or, for `sigmoid` and `coupling`, in closed form. `causalBoltzmann` and the attention
 * package's TensorFlow.js op are both thin wrappers of these functions.
 */

/**
 * Forward values of a causal op, all in the batch's layout (`size × stride`), zero past each problem's spins.
 *
 * @category Attention
 */
export interface CausalWeights {
  /** `m_ij = ⟨s_j⟩` of query `i`. */
  readonly magnetization: Float64Array;
  /** `w_ij = α_ij / Σ_{k≤i} α_ik` with `α = P(s_j = +1) = (m + 1)/2`. */
  readonly weights: Float64Array;
  /** Maps ∂L/∂w (batch layout; entries past each problem's spins ignored) to ∂L/∂h and ∂L/∂J (`stride × stride`). */
  backward(gradWeights: RealArray): IsingGradients;
}

/**
 * The closed-form variants: `sigmoid` (J treated as 0) and `coupling` (h treated as 0).
 *
 * @category Attention
 */
export type ClosedFormVariant = 'sigmoid' | 'coupling';

// A row's α sum is positive for finite fields, but every α of a row underflows to 0 when all
// its fields are below about −354/β. Such a row gets zero weights (a constant, so zero gradient)
// instead of 0/0: its true weights would need log-domain marginals.
const MIN_ALPHA_SUM = 1e-300;

/**
 * `P(s_j = +1)` from an estimate: its `probabilityUp` when it carries one (the exact sampler's,
 * accurate where `(m + 1)/2` has cancelled), else `(m + 1)/2` in float64.
 */
function alphaOf(estimate: Pick<BatchEstimate, 'magnetization'>): Float64Array {
  const up = (estimate as { probabilityUp?: unknown }).probabilityUp;
  if (up instanceof Float64Array && up.length === estimate.magnetization.length) return up;
  const m = estimate.magnetization;
  const alpha = new Float64Array(m.length);
  for (let i = 0; i < m.length; i++) alpha[i] = 0.5 * m[i]! + 0.5;
  return alpha;
}

function normalize(
  batch: IsingBatch,
  alpha: Float64Array,
): { weights: Float64Array; sums: Float64Array } {
  const T = batch.stride;
  const weights = new Float64Array(alpha.length);
  const sums = new Float64Array(batch.size);
  for (let q = 0; q < batch.size; q++) {
    const start = q * T;
    const n = batch.spins[q]!;
    let sum = 0;
    for (let j = 0; j < n; j++) sum += alpha[start + j]!;
    sums[q] = sum;
    const inv = sum >= MIN_ALPHA_SUM ? 1 / sum : 0;
    for (let j = 0; j < n; j++) weights[start + j] = alpha[start + j]! * inv;
  }
  return { weights, sums };
}

/**
 * ∂L/∂α from ∂L/∂w through `w = α / Σα`: `(∂L/∂w_j − Σ_k w_k ∂L/∂w_k) / Σα` (zero for underflowed
 * rows), the stable form — the quotient rule's `α/S²` is 0/0 once a row's sum is tiny.
 */
function gradAlpha(
  batch: IsingBatch,
  weights: Float64Array,
  sums: Float64Array,
  gradWeights: RealArray,
): Float64Array {
  const T = batch.stride;
  if (
    !(gradWeights instanceof Float32Array || gradWeights instanceof Float64Array) ||
    gradWeights.length !== weights.length
  ) {
    const got =
      gradWeights instanceof Float32Array || gradWeights instanceof Float64Array
        ? `${gradWeights.length} entries`
        : 'not a Float32Array/Float64Array';
    throw new IsingError(
      'ISING_SHAPE_MISMATCH',
      `backward: gradWeights is ${got}; ${batch.size} problems of stride ${T} need ${weights.length}`,
    );
  }
  const ga = new Float64Array(weights.length);
  for (let q = 0; q < batch.size; q++) {
    const start = q * T;
    const n = batch.spins[q]!;
    let dot = 0;
    for (let j = 0; j < n; j++) {
      const g = gradWeights[start + j]!;
      if (!Number.isFinite(g))
        throw new IsingError(
          'ISING_NOT_FINITE',
          `backward: gradWeights[${start + j}] is ${String(g)}`,
        );
      dot += weights[start + j]! * g;
    }
    const sum = sums[q]!;
    if (sum < MIN_ALPHA_SUM) continue;
    for (let j = 0; j < n; j++) ga[start + j] = (gradWeights[start + j]! - dot) / sum;
  }
  return ga;
}

/**
 * The causal weights of a batch from a sampler's estimate for it: `α = P(s = +1)`, normalized
 * per problem; the backward is the normalization's gradient followed by the estimate's VJP
 * (`∂L/∂m = ∂L/∂α / 2`).
 *
 * @summary The causal weights of a batch from a sampler's estimate for it.
 * @param batch the causal batch the estimate was made for (see `causalBatch`).
 * @param estimate any sampler's answer for `batch` (a {@link BatchEstimate}; an asynchronous VJP gives an asynchronous backward).
 * @returns magnetizations, weights and `backward(∂L/∂w) → { fields, couplings }`.
 * @throws {IsingError} from `backward`: ISING_SHAPE_MISMATCH, ISING_NOT_FINITE; the estimate's own VJP errors.
 * @example
 * import { causalBatch, causalWeightsFromEstimate, tapEstimate } from '@boltzmann/ising-core';
 *
 * const scores = Float64Array.from({ length: 2 * 32 * 32 }, (_, i) => Math.sin(i));
 * const J = new Float64Array(32 * 32).fill(0.01);
 * const batch = causalBatch(scores, J, { batch: 2, length: 32 });
 * const { weights, backward } = causalWeightsFromEstimate(batch, tapEstimate(batch));
 * console.log(weights.length, backward(new Float64Array(weights.length)).couplings.length);
 * @category Attention
 */
export function causalWeightsFromEstimate<
  G extends IsingGradients | Promise<IsingGradients> = IsingGradients,
>(
  batch: IsingBatch,
  estimate: { readonly magnetization: Float64Array; vjp(gradMagnetization: Float64Array): G },
): Omit<CausalWeights, 'backward'> & { backward(gradWeights: RealArray): G } {
  const alpha = alphaOf(estimate);
  const { weights, sums } = normalize(batch, alpha);
  return {
    magnetization: estimate.magnetization,
    weights,
    backward(gradWeights) {
      const ga = gradAlpha(batch, weights, sums, gradWeights);
      for (let i = 0; i < ga.length; i++) ga[i] = ga[i]! / 2;
      return estimate.vjp(ga);
    },
  };
}

/**
 * The closed-form variants: `sigmoid`, `α = σ(2βh)` (`m = tanh(βh)`, independent spins, equal
 * to `boltzmann` at `J = 0`; `∂L/∂J = 0`), and `coupling`, `α = 1/2` (`h` treated as 0, so
 * `m = 0` by the flip symmetry: uniform weights, both gradients exactly 0).
 *
 * @summary The causal weights of the closed-form variants, `sigmoid` (J = 0) and `coupling` (h = 0).
 * @example
 * import { causalBatch, causalClosedForm } from '@boltzmann/ising-core';
 *
 * const scores = Float64Array.from({ length: 2 * 8 * 8 }, (_, i) => Math.sin(i));
 * const zeros = new Float64Array(8 * 8);
 * const { weights } = causalClosedForm(causalBatch(scores, zeros, { batch: 2, length: 8 }), 'sigmoid');
 * console.log(weights.length); // 2 · 8 · 8
 * @category Attention
 */
export function causalClosedForm(batch: IsingBatch, variant: ClosedFormVariant): CausalWeights {
  if (variant !== 'sigmoid' && variant !== 'coupling') {
    throw new IsingError(
      'ISING_INVALID_ARGUMENT',
      `closed-form variant must be 'sigmoid' or 'coupling', got ${JSON.stringify(variant)}`,
    );
  }
  const T = batch.stride;
  const { beta } = batch;
  const alpha = new Float64Array(batch.fields.length);
  const magnetization = new Float64Array(batch.fields.length);
  for (let q = 0; q < batch.size; q++) {
    for (let j = q * T; j < q * T + batch.spins[q]!; j++) {
      const h = batch.fields[j]!;
      // P(s = +1) = 1/(1 + e^{−2βh}), without the cancellation of (tanh + 1)/2.
      alpha[j] = variant === 'sigmoid' ? 1 / (1 + Math.exp(-2 * beta * h)) : 0.5;
      magnetization[j] = variant === 'sigmoid' ? Math.tanh(beta * h) : 0;
    }
  }
  const { weights, sums } = normalize(batch, alpha);
  return {
    magnetization,
    weights,
    backward(gradWeights) {
      const ga = gradAlpha(batch, weights, sums, gradWeights);
      const fields = new Float64Array(alpha.length);
      if (variant === 'sigmoid') {
        for (let q = 0; q < batch.size; q++) {
          for (let j = q * T; j < q * T + batch.spins[q]!; j++) {
            const rest = 1 / (1 + Math.exp(2 * beta * batch.fields[j]!)); // 1 − α without cancellation
            fields[j] = ga[j]! * 2 * beta * alpha[j]! * rest;
          }
        }
      }
      return { fields, couplings: new Float64Array(T * T) };
    },
  };
}
