// The public phase 1 of the tfjs path: every head's estimate (model/headEstimates.ts), and on a
// backend without synchronous reads (webgpu) each head's weights and Jacobians as well.
import type { RealArray, Sampler } from '@boltzmann/ising-core';
import { readsSynchronously } from './tensorData.js';
import { sampleEstimates } from '../model/headEstimates.js';
import type { PreparedEstimates } from '../model/preparedTypes.js';
import { withResidentGradients } from './residentGradients.js';

/**
 * Runs the sampler on every head's batch and awaits the answers (heads in parallel), each for at
 * most `options.timeoutMs`.
 *
 * @param fields `B×H×T×T` attention fields `h_ij` (row-major, `j > i` ignored).
 * @param couplings `H×T×T` coupling matrices (strict upper triangle used).
 * @param options.timeoutMs the longest wait for one answer (default `DEFAULT_SAMPLER_TIMEOUT_MS`,
 *   30 minutes; 0 or Infinity: no deadline). Its timer is cleared when the call settles.
 * @returns the estimates to hand to `attentionWeights` (or a model's `logits`) as `prepared`.
 * @throws {AttentionError} ATTENTION_SAMPLER_TIMEOUT when an answer takes longer than `timeoutMs`;
 *   ATTENTION_INVALID_ARGUMENT for a bad `timeoutMs`.
 * @throws {IsingError} whatever else the sampler or batch validation throws.
 * @example
 * import { gibbsSampler } from '@boltzmann/ising-core';
 * import { prepareEstimates } from '@boltzmann/attention';
 *
 * const [batch, heads, length] = [2, 1, 4];
 * const hData = Float32Array.from({ length: batch * heads * length * length }, (_, i) => Math.sin(i));
 * const jData = new Float32Array(heads * length * length).fill(0.1);
 * const sampler = gibbsSampler.create({ seed: 1 });
 * const prepared = await prepareEstimates(hData, jData, { batch, heads, length }, sampler, 1);
 * console.log(prepared.heads.length); // one per head
 * @category Attention
 */
export async function prepareEstimates(
  fields: RealArray,
  couplings: RealArray,
  shape: { batch: number; heads: number; length: number },
  sampler: Sampler,
  beta: number,
  options: { readonly timeoutMs?: number; readonly variant?: 'boltzmann' | 'coupling' } = {},
): Promise<PreparedEstimates> {
  const { heads } = await sampleEstimates(fields, couplings, shape, sampler, beta, options);
  // Without synchronous reads (webgpu) the op needs each head's weights and Jacobians too.
  return {
    heads: readsSynchronously()
      ? heads
      : withResidentGradients(heads, options.variant ?? 'boltzmann'),
  };
}
