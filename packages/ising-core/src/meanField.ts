import {
  FIXED_POINT_OPTIONS,
  fixedPointEstimate,
  readFixedPointOptions,
} from './internal/fixedPointEstimate.js';
import type {
  FixedPointEstimate,
  FixedPointGradients,
  FixedPointSamplerOptions,
} from './internal/fixedPointEstimate.js';
import { resolveThreads } from './internal/kernels/exactBatch.js';
import { withShardRecipe } from './internal/pool/shardRecipe.js';
import { threadedEstimate } from './internal/pool/threadedEstimate.js';
import {
  FIXED_POINT_AUTO_MIN_COST,
  splitThreadsOption,
  THREADS_OPTION,
} from './internal/pool/threadsOption.js';
import type { ThreadsOption } from './internal/pool/threadsOption.js';
import type { IsingBatch, SamplerCapabilities, SamplerPlugin, Sampler } from './types.js';

/**
 * Options of the {@link meanFieldSampler} plugin (the same as those of `tap`).
 *
 * @category Samplers
 */
export type MeanFieldOptions = FixedPointSamplerOptions;

/**
 * A mean-field (or TAP) estimate: the `BatchEstimate` plus per-problem convergence figures.
 *
 * @category Samplers
 */
export type MeanFieldEstimate = FixedPointEstimate;

/**
 * What a mean-field (or TAP) `vjp` returns: the gradients plus the adjoint solves' convergence figures.
 *
 * @category Samplers
 */
export type MeanFieldGradients = FixedPointGradients;

const capabilities: SamplerCapabilities = {
  exact: false,
  maxSpins: 4096,
  async: false,
  deterministic: true,
};

/**
 * Naive mean-field magnetizations of a batch with the implicit-differentiation VJP (the function
 * behind {@link meanFieldSampler}).
 *
 * Each problem solves `m = tanh(β(h + J m))` (symmetric `J` of its prefix) by damped iteration
 * with Anderson acceleration, warm-started along a causal sequence. The VJP solves the adjoint `λ
 * = g + J D λ`, `D = diag(β(1 − m²))`, by conjugate gradients on its symmetrized form (`O(n²)` per
 * iteration, no factorization) and returns `∂L/∂h = Dλ` and `∂L/∂J_kl = (Dλ)_k m_l + (Dλ)_l m_k`
 * summed over problems.
 *
 * @param batch the problems (see `createIsingBatch`, `causalBatch`).
 * @param options damping, tolerance, maxIterations, onNonConvergence, anderson, warmStart (see {@link MeanFieldOptions}).
 * @returns magnetizations, the VJP (whose answer carries the adjoint's `diagnostics`) and per-problem `diagnostics`.
 * @throws {IsingError} ISING_INVALID_ARGUMENT on bad options; ISING_NOT_FINITE on a non-finite used input or
 *   result; ISING_NOT_CONVERGED only with `onNonConvergence: 'throw'` (forward, or adjoint in the VJP);
 *   ISING_SHAPE_MISMATCH / ISING_NOT_FINITE on a malformed upstream gradient.
 * @example
 * import { causalBatch, meanFieldEstimate } from '@boltzmann/ising-core';
 *
 * const length = 32;
 * const fields = Float64Array.from({ length: length * length }, (_, i) => Math.sin(i));
 * const couplings = new Float64Array(length * length).fill(0.01);
 * const { magnetization, vjp, diagnostics } = meanFieldEstimate(causalBatch(fields, couplings, { batch: 1, length }));
 * if (!diagnostics.converged) console.warn(`${diagnostics.missed} problems missed the tolerance`);
 * const { fields: dh, couplings: dJ } = vjp(new Float64Array(magnetization.length).fill(1));
 * console.log(dh.length, dJ.length);
 * @category Samplers
 */
export function meanFieldEstimate(
  batch: IsingBatch,
  options: MeanFieldOptions = {},
): MeanFieldEstimate {
  return fixedPointEstimate('mean-field', batch, readFixedPointOptions('mean-field', options));
}

/**
 * Naive mean-field as a sampler plugin (METHOD.md §3, §6): the fixed point of
 * `m = tanh(β(h + J m))` per problem, `O(n²)` per iteration, so it runs at hundreds of spins
 * where enumeration cannot; the VJP is exact for the mean-field map (implicit differentiation,
 * an iterative adjoint solve). Approximate: exact at `J = 0`, with errors of order `J²` in the
 * magnetizations for weak couplings. Non-convergence is reported in `diagnostics`, not thrown,
 * unless `onNonConvergence: 'throw'`. Implements `estimate` directly.
 *
 * @summary Naive mean-field as a sampler plugin (METHOD.md §3, §6).
 * @throws {IsingError} from `create`: ISING_INVALID_ARGUMENT on bad options; from `estimate`:
 *   ISING_NOT_FINITE, and ISING_NOT_CONVERGED with `onNonConvergence: 'throw'`.
 * @example
 * import { causalBatch, estimateBatch, meanFieldSampler } from '@boltzmann/ising-core';
 *
 * const length = 32;
 * const fields = Float64Array.from({ length: 4 * length * length }, (_, i) => Math.cos(i));
 * const couplings = new Float64Array(length * length).fill(0.01);
 * const sampler = meanFieldSampler.create({ tolerance: 1e-12, anderson: 5 });
 * const { magnetization } = await estimateBatch(sampler, causalBatch(fields, couplings, { batch: 4, length }));
 * console.log(magnetization.length);
 * @category Samplers
 */
export const meanFieldSampler: SamplerPlugin<
  MeanFieldOptions & ThreadsOption,
  Sampler,
  'mean-field'
> = {
  name: 'mean-field',
  version: '0.2.0',
  description:
    'Naive mean-field fixed point (damping + Anderson, warm start) with an iterative implicit VJP; O(n²) per iteration.',
  capabilities,
  options: [...FIXED_POINT_OPTIONS, THREADS_OPTION],
  create(options: MeanFieldOptions & ThreadsOption = {}) {
    const { threads: requested, rest } = splitThreadsOption(options);
    const settings = readFixedPointOptions('mean-field', rest);
    const threads = resolveThreads(requested, 'mean-field option threads');
    const single = (batch: IsingBatch): MeanFieldEstimate =>
      fixedPointEstimate('mean-field', batch, settings);
    const spec = {
      sampler: 'mean-field',
      options: settings,
      threads,
      autoMinCost: FIXED_POINT_AUTO_MIN_COST,
      keepSequences: settings.warmStart,
      single,
    } as const;
    return withShardRecipe(
      {
        name: 'mean-field',
        capabilities,
        estimate: (batch: IsingBatch): MeanFieldEstimate => threadedEstimate(spec, batch),
      },
      { sampler: 'mean-field', options: settings },
    );
  },
};
