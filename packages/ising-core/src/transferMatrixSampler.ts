import { resolveThreads } from './internal/kernels/exactBatch.js';
import { withShardRecipe } from './internal/pool/shardRecipe.js';
import { threadedEstimate } from './internal/pool/threadedEstimate.js';
import {
  splitThreadsOption,
  THREADS_OPTION,
  TRANSFER_AUTO_MIN_COST,
} from './internal/pool/threadsOption.js';
import type { ThreadsOption } from './internal/pool/threadsOption.js';
import { defineSamplerPlugin } from './registry.js';
import {
  DEFAULT_BANDWIDTH,
  estimateTransferMatrix,
  NAME,
  resolveBandwidth,
  resolvePrecision,
  TRANSFER_MATRIX_OPTIONS,
  TRANSFER_MATRIX_SPIN_LIMIT,
} from './transferMatrix.js';
import type { TransferMatrixEstimate, TransferMatrixOptions } from './transferMatrix.js';
import type { IsingBatch, Sampler, SamplerCapabilities, SamplerPlugin } from './types.js';

const capabilities: SamplerCapabilities = {
  exact: true,
  maxSpins: TRANSFER_MATRIX_SPIN_LIMIT,
  async: false,
  deterministic: true,
  // A coupling outside the band is refused: a model must keep J banded by construction.
  couplings: { form: 'banded', widthOption: 'bandwidth', defaultWidth: DEFAULT_BANDWIDTH },
};

/**
 * The `'transfer-matrix'` sampler plugin: exact Boltzmann magnetizations and VJPs for couplings of
 * bandwidth `w` (option `bandwidth`, default 8, at most 16) at up to 4096 spins per problem, by a
 * forward–backward pass over the `2^w` window states ({@link estimateTransferMatrix}). Synchronous
 * and deterministic. A batch with a nonzero coupling outside the band is refused, never truncated.
 *
 * @summary The `'transfer-matrix'` sampler plugin.
 * @throws {IsingError} from `create`: ISING_INVALID_ARGUMENT on an unknown option or a bandwidth that is
 *   not an integer in [0, 16]; from `estimate`: as {@link estimateTransferMatrix}.
 * @example
 * import { causalBatch, createSamplerRegistry, transferMatrixSampler } from '@boltzmann/ising-core';
 *
 * const length = 128;
 * const fields = Float64Array.from({ length: 2 * length * length }, (_, i) => Math.sin(i));
 * const banded = new Float64Array(length * length);
 * for (let j = 0; j < length; j++)
 *   for (let d = 1; d <= 4 && j + d < length; d++) banded[j * length + j + d] = 0.1;
 * const registry = createSamplerRegistry().register(transferMatrixSampler);
 * const sampler = registry.require('transfer-matrix').create({ bandwidth: 4 });
 * const { magnetization } = await sampler.estimate!(causalBatch(fields, banded, { batch: 2, length }));
 * console.log(magnetization.length);
 * @category Samplers
 */
export const transferMatrixSampler: SamplerPlugin<
  TransferMatrixOptions & ThreadsOption,
  Sampler,
  'transfer-matrix'
> = defineSamplerPlugin<TransferMatrixOptions & ThreadsOption, Sampler, 'transfer-matrix'>({
  name: NAME,
  version: '0.1.0',
  description:
    'Exact Boltzmann moments and gradients for banded couplings by a forward–backward pass; O(n · 2^w) per problem.',
  capabilities,
  options: [...TRANSFER_MATRIX_OPTIONS, THREADS_OPTION],
  create(options: TransferMatrixOptions & ThreadsOption = {}): Sampler {
    const { threads: requested, rest } = splitThreadsOption(options);
    const bandwidth = resolveBandwidth(rest);
    const precision = resolvePrecision(rest);
    const threads = resolveThreads(requested, `${NAME} option threads`);
    const single = (batch: IsingBatch): TransferMatrixEstimate =>
      estimateTransferMatrix(batch, { bandwidth, precision });
    // The pool's cost measure is Σ n. 'auto' splits from Σ n ≥ 2^14 at w ≤ 1 (measured) and from
    // 2^20 window-state steps, Σ n · 2^w, at w ≥ 2 (measured at w = 8 with bench/threadedSamplers.bench.ts:
    // 12 × 16, 4·10^5 steps, 0.75×; 12 × 32, 1.6·10^6 steps, 1.5×).
    const autoMinCost =
      bandwidth < 2 ? TRANSFER_AUTO_MIN_COST : Math.ceil(2 ** 20 / 2 ** bandwidth);
    const spec = {
      sampler: NAME,
      options: { bandwidth, precision },
      threads,
      autoMinCost,
      keepSequences: false,
      single,
    } as const;
    return withShardRecipe(
      {
        name: NAME,
        capabilities,
        estimate: (batch: IsingBatch): TransferMatrixEstimate => threadedEstimate(spec, batch),
      },
      { sampler: NAME, options: spec.options },
    );
  },
});
