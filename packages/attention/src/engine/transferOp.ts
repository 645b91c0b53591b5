/**
 * Boltzmann attention's causal op through the engine's own transfer-matrix kernels (transfer.ts),
 * in place of ising-core's sampler, wherever that gives the sampler's answer: the variant is
 * `boltzmann`, the sampler is ising-core's built-in transfer matrix with `precision: 'float32'`
 * (plain or wrapped by `recordConvergence`, which records nothing for it), the window fits the
 * kernels (on WebAssembly, the pass's scratch), and J lies inside the sampler's band. The few
 * problems the kernels leave (sums = −1: natively couplings past the float64 pass's bounds or a
 * row whose Σα is below e^−256, on WebAssembly past the float32 bounds or below e^−32, counted
 * without the fields; a non-finite field; fields of any size they take: kernels/transfer/
 * transfer.c) go through the sampler itself, in float64 and with its errors, exactly as before;
 * everything else is one kernel call per pass.
 */
import {
  DEFAULT_BANDWIDTH,
  TRANSFER_MATRIX_SPIN_LIMIT,
  causalWeightsFromEstimate,
  createIsingBatch,
  estimateBatch,
} from '@boltzmann/ising-core';
import type { IsingGradients, Sampler } from '@boltzmann/ising-core';
import { shardRecipeOf } from '@boltzmann/ising-core/internal';
import { AttentionError } from '../core/errors.js';
import type { ResolvedTransformerConfig } from '../core/transformerConfigTypes.js';
import type { EngineKernels } from './engineKernels.js';
import type { ActivationLayout } from './engineTypes.js';
import type { TransferOperands } from './transfer.js';

/**
 * The window of a pass the kernels can run, or `undefined` when the sampler's own path runs (also
 * on WebAssembly for a window wider than the pass's scratch holds: layout.ts sets aside 8 MB).
 */
export function fusedTransferWindow(
  k: EngineKernels,
  config: ResolvedTransformerConfig,
  sampler: Sampler | undefined,
  acts: Pick<ActivationLayout, 'length' | 'transferScratchFloats'>,
): number | undefined {
  // Beyond the sampler's spin limit it refuses the pass (ISING_TOO_MANY_SPINS), so it runs.
  if (config.variant !== 'boltzmann' || acts.length > TRANSFER_MATRIX_SPIN_LIMIT) return undefined;
  const recipe = shardRecipeOf(sampler);
  if (recipe?.sampler !== 'transfer-matrix' || recipe.options.precision !== 'float32')
    return undefined;
  const bandwidth = (recipe.options.bandwidth as number | undefined) ?? DEFAULT_BANDWIDTH;
  const window = Math.min(bandwidth, acts.length - 1);
  if (window < 1 || window > 16) return undefined;
  const scratch = k.transfer.scratchFloats(acts.length, window);
  return scratch <= acts.transferScratchFloats ? window : undefined;
}

/** Whether every coupling of `j` (`heads × T × T`, strict upper triangle) is within `window` of the diagonal. */
function withinBand(
  j: Float32Array,
  at: number,
  heads: number,
  t: number,
  window: number,
): boolean {
  for (let hd = 0; hd < heads; hd++) {
    for (let r = 0; r < t; r++) {
      const row = at + (hd * t + r) * t;
      for (let c = r + window + 1; c < t; c++) if (j[row + c] !== 0) return false;
    }
  }
  return true;
}

/** The problems of one head the sampler ran, and its answer's backward. */
interface SamplerRows {
  readonly head: number;
  /** `(b·heads + head)·T + i` of each problem, in batch order. */
  readonly problems: readonly number[];
  backward(gradWeights: Float64Array): IsingGradients;
}

/** What the backward of a fused pass needs beyond the arena. */
export interface FusedTransferPass {
  readonly operands: TransferOperands;
  readonly sampled: readonly SamplerRows[];
}

/** The pass's operands for block `layer`. */
function operandsOf(
  acts: ActivationLayout,
  layer: number,
  config: ResolvedTransformerConfig,
  window: number,
): TransferOperands {
  const a = acts.blocks[layer]!;
  const { batch, length } = acts;
  return {
    h: a.h,
    j: a.j,
    w: a.w,
    sums: a.sums,
    batch,
    heads: config.heads,
    length,
    window,
    beta: config.beta,
    scratch: acts.transferScratch,
    scratchFloats: acts.transferScratchFloats,
  };
}

/** The rows marked `sums = −1`, by head. */
function leftRows(f: Float32Array, o: TransferOperands): number[][] {
  const byHead: number[][] = Array.from({ length: o.heads }, () => []);
  for (let p = 0; p < o.batch * o.heads * o.length; p++)
    if (f[o.sums + p] === -1) byHead[Math.floor(p / o.length) % o.heads]!.push(p);
  return byHead;
}

/** The sampler's answer for one head's left rows, written into w; its backward kept. */
function sampleRows(
  f: Float32Array,
  o: TransferOperands,
  head: number,
  problems: number[],
  sampler: Sampler,
): SamplerRows {
  const t = o.length;
  const fields = new Float64Array(problems.length * t);
  const spins = new Int32Array(problems.length);
  problems.forEach((p, q) => {
    spins[q] = (p % t) + 1;
    fields.set(f.subarray(o.h + p * t, o.h + p * t + spins[q]!), q * t);
  });
  const couplings = Float64Array.from(f.subarray(o.j + head * t * t, o.j + (head + 1) * t * t));
  const batch = createIsingBatch({ fields, couplings, spins, stride: t, beta: o.beta });
  const estimate = estimateBatch(sampler, batch);
  if (estimate instanceof Promise)
    throw new AttentionError(
      'ATTENTION_ASYNC_SAMPLER',
      'the transfer-matrix sampler answered asynchronously',
    );
  const op = causalWeightsFromEstimate(batch, estimate);
  problems.forEach((p, q) => {
    f.set(op.weights.subarray(q * t, (q + 1) * t), o.w + p * t);
    f[o.sums + p] = -1;
  });
  return { head, problems, backward: (g) => op.backward(g) };
}

/**
 * The forward of block `layer` on the kernels, or `undefined` (nothing written) when J leaves
 * the band: the sampler's own path then runs, and refuses it as it always has.
 */
export function fusedTransferForward(
  k: EngineKernels,
  acts: ActivationLayout,
  layer: number,
  config: ResolvedTransformerConfig,
  window: number,
  sampler: Sampler,
): FusedTransferPass | undefined {
  const o = operandsOf(acts, layer, config, window);
  if (!withinBand(k.f32(), o.j, o.heads, o.length, window)) return undefined;
  const left = k.transfer.transferForward(o);
  if (left === 0) return { operands: o, sampled: [] };
  const sampled: SamplerRows[] = [];
  leftRows(k.f32(), o).forEach((problems, head) => {
    if (problems.length > 0) sampled.push(sampleRows(k.f32(), o, head, problems, sampler));
  });
  return { operands: o, sampled };
}

/** The backward of a fused pass: gh and gJ (the sampler's rows added to the kernel's). */
export function fusedTransferBackward(
  k: EngineKernels,
  acts: ActivationLayout,
  layer: number,
  pass: FusedTransferPass,
): void {
  const o = pass.operands;
  const gj = acts.blocks[layer]!.gj;
  k.transfer.transferBackward({ ...o, gw: acts.gw, gh: acts.gh, gj });
  const f = k.f32();
  const t = o.length;
  for (const rows of pass.sampled) {
    const gw = new Float64Array(rows.problems.length * t);
    rows.problems.forEach((p, q) =>
      gw.set(f.subarray(acts.gw + p * t, acts.gw + (p + 1) * t), q * t),
    );
    const { fields, couplings } = rows.backward(gw);
    rows.problems.forEach((p, q) => f.set(fields.subarray(q * t, (q + 1) * t), acts.gh + p * t));
    const at = gj + rows.head * t * t;
    for (let r = 0; r < t; r++)
      for (let c = r + 1; c < t; c++) f[at + r * t + c]! += couplings[r * t + c]!;
  }
}
