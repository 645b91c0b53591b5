import {
  FIXED_POINT_OPTIONS,
  fixedPointEstimate,
  readFixedPointOptions,
} from './internal/fixedPointEstimate.js';
import type {
  FixedPointEstimate,
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
 * Options of the {@link tapSampler} plugin (the same as those of `mean-field`).
 *
 * @category Samplers
 */
export type TapOptions = FixedPointSamplerOptions;

/**
 * A TAP estimate: the `BatchEstimate` plus per-problem convergence figures.
 *
 * @category Samplers
 */
export type TapEstimate = FixedPointEstimate;

const capabilities: SamplerCapabilities = {
  exact: false,
  maxSpins: 4096,
  async: false,
  deterministic: true,
};

/**
 * TAP (second-order Plefka) magnetizations of a batch with their exact implicit VJP (the function
 * behind {@link tapSampler}): per problem, the fixed point of
 * `m = tanh(β(h + J m) − β² m ⊙ ((J ∘ J)(1 − m ⊙ m)))` with `J` the symmetric couplings of its
 * prefix, on the same engine as mean field (damping + Anderson, warm start along a causal
 * sequence). With `u` the pre-activation, `∂F/∂m = D K`, `D = diag(1 − m²)`,
 * `K = βJ − β² diag((J∘J)(1 − m²)) + 2β² diag(m)(J∘J)diag(m)` (symmetric); the VJP solves
 * `λ = g + K D λ` by conjugate gradients on its symmetrized form, then with `w = Dλ`:
 * `∂L/∂h = βw`, `∂L/∂J_kl = β(w_k m_l + w_l m_k) − 2β² J_kl (w_k m_k (1 − m_l²) + w_l m_l (1 − m_k²))`.
 *
 * @summary TAP (second-order Plefka) magnetizations of a batch with their exact implicit VJP (the function behind {@link tapSampler}).
 * @param batch the problems (see `createIsingBatch`, `causalBatch`).
 * @param options damping, tolerance, maxIterations, onNonConvergence, anderson, warmStart (see {@link TapOptions}).
 * @returns magnetizations, the VJP (whose answer carries the adjoint's `diagnostics`) and per-problem `diagnostics`.
 * @throws {IsingError} ISING_INVALID_ARGUMENT on bad options; ISING_NOT_FINITE on a non-finite used input or
 *   result; ISING_NOT_CONVERGED only with `onNonConvergence: 'throw'`; ISING_SHAPE_MISMATCH / ISING_NOT_FINITE
 *   on a malformed upstream gradient.
 * @example
 * import { causalBatch, tapEstimate } from '@boltzmann/ising-core';
 *
 * const length = 64;
 * const fields = Float64Array.from({ length: length * length }, (_, i) => 0.5 * Math.sin(i));
 * const couplings = new Float64Array(length * length).fill(0.005);
 * const { magnetization, vjp, diagnostics } = tapEstimate(causalBatch(fields, couplings, { batch: 1, length }));
 * const { fields: dh, couplings: dJ } = vjp(new Float64Array(magnetization.length).fill(1));
 * console.log(diagnostics.converged, dh.length, dJ.length);
 * @category Samplers
 */
export function tapEstimate(batch: IsingBatch, options: TapOptions = {}): TapEstimate {
  return fixedPointEstimate('tap', batch, readFixedPointOptions('tap', options));
}

/**
 * TAP as a sampler plugin (METHOD.md §6): mean field plus the Onsager reaction term, `O(n²)`
 * per iteration, about an order of magnitude more accurate than mean field at weak couplings
 * (errors of order `J³` instead of `J²`) and, like it, unreliable once `σ_J √n ≳ 1`.
 * Deterministic; non-convergence is reported in `diagnostics` unless `onNonConvergence: 'throw'`.
 *
 * @summary TAP as a sampler plugin (METHOD.md §6).
 * @throws {IsingError} from `create`: ISING_INVALID_ARGUMENT on bad options; from `estimate`:
 *   ISING_NOT_FINITE, and ISING_NOT_CONVERGED with `onNonConvergence: 'throw'`.
 * @example
 * import { causalBatch, estimateBatch, tapSampler } from '@boltzmann/ising-core';
 *
 * const length = 64;
 * const fields = Float64Array.from({ length: 2 * length * length }, (_, i) => 0.5 * Math.sin(i));
 * const couplings = new Float64Array(length * length).fill(0.005);
 * const sampler = tapSampler.create({ tolerance: 1e-10 });
 * const { magnetization } = await estimateBatch(sampler, causalBatch(fields, couplings, { batch: 2, length }));
 * console.log(magnetization.length);
 * @category Samplers
 */
export const tapSampler: SamplerPlugin<TapOptions & ThreadsOption, Sampler, 'tap'> = {
  name: 'tap',
  version: '0.1.0',
  description:
    'TAP (second-order Plefka) fixed point with the Onsager term, damping + Anderson, iterative implicit VJP; O(n²) per iteration.',
  capabilities,
  options: [...FIXED_POINT_OPTIONS, THREADS_OPTION],
  create(options: TapOptions & ThreadsOption = {}) {
    const { threads: requested, rest } = splitThreadsOption(options);
    const settings = readFixedPointOptions('tap', rest);
    const threads = resolveThreads(requested, 'tap option threads');
    const single = (batch: IsingBatch): TapEstimate => fixedPointEstimate('tap', batch, settings);
    const spec = {
      sampler: 'tap',
      options: settings,
      threads,
      autoMinCost: FIXED_POINT_AUTO_MIN_COST,
      keepSequences: settings.warmStart,
      single,
    } as const;
    return withShardRecipe(
      {
        name: 'tap',
        capabilities,
        estimate: (batch: IsingBatch): TapEstimate => threadedEstimate(spec, batch),
      },
      { sampler: 'tap', options: settings },
    );
  },
};
