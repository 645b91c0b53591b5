import { createIsingBatch } from '../../batch.js';
import { IsingError } from '../../errors.js';
import type { BatchEstimate, ConvergenceDiagnostics } from '../../types.js';
import type { FixedPointGradients } from '../fixedPointEstimate.js';
import type { SamplerTask, ThreadedSamplerName } from './poolMessages.js';
import { samplerFromRecipe } from './shardSampler.js';

/**
 * Estimates a worker keeps for their VJP. A training step makes one estimate per (layer, head)
 * before it takes any VJP (16 for a 4-layer, 4-head GPT), so 64 covers every model up to 64
 * attention heads in all; older ones are dropped (their VJP then fails with a coded error).
 * Each holds its range's magnetizations and solver state: about 0.4 MB for a 12 × 64 batch.
 */
export const KEPT_ESTIMATES = 64;

interface Kept {
  readonly sampler: ThreadedSamplerName;
  readonly estimate: BatchEstimate;
}

const kept = new Map<number, Kept>();

function diagnosticsArrays(d: ConvergenceDiagnostics | undefined): Float64Array[] {
  return d === undefined || d.iterations === undefined || d.residual === undefined
    ? []
    : [Float64Array.from(d.iterations), Float64Array.from(d.residual)];
}

/** An exact estimate's `probabilityUp`, which the threaded caller places beside its `log Z`. */
function probabilityUpOf(sampler: string, up: Float64Array | undefined): Float64Array {
  if (up === undefined) throw new Error(`${sampler} answered log Z without probabilityUp`);
  return up;
}

/**
 * Runs a sampler task on this thread and returns its payload arrays (concatenated by the caller of
 * `completeSyncReply`): an estimate answers `magnetization` then `iterations`, `residual` (fixed
 * points) or `logPartition` and `probabilityUp` (transfer matrix); a VJP answers `∂L/∂h`, the partial `∂L/∂J`, then the
 * adjoint `iterations`, `residual` (fixed points). A drop answers nothing.
 *
 * @throws {IsingError} the sampler's own errors; ISING_INVALID_ARGUMENT for a VJP whose handle was freed.
 */
export function runSamplerTask(task: SamplerTask): Float64Array[] {
  if (task.kind === 'sampler-drop') {
    kept.delete(task.handle);
    return [];
  }
  if (task.kind === 'sampler-estimate') {
    const { stride, beta, spins, fields, couplings } = task.batch;
    const sampler = samplerFromRecipe({ sampler: task.sampler, options: task.options });
    if (sampler.estimate === undefined) throw new Error(`${task.sampler} has no estimate`);
    const estimate = sampler.estimate(createIsingBatch({ fields, couplings, spins, stride, beta }));
    if (estimate instanceof Promise)
      throw new Error(`${task.sampler} returned a promise on a worker`);
    kept.set(task.handle, { sampler: task.sampler, estimate });
    for (const handle of kept.keys()) {
      if (kept.size <= KEPT_ESTIMATES) break;
      kept.delete(handle);
    }
    const { logPartition: logZ, probabilityUp } = estimate as {
      logPartition?: Float64Array;
      probabilityUp?: Float64Array;
    };
    return [
      estimate.magnetization,
      ...(logZ === undefined
        ? diagnosticsArrays(estimate.diagnostics)
        : [logZ, probabilityUpOf(task.sampler, probabilityUp)]),
    ];
  }
  const entry = kept.get(task.handle);
  if (entry === undefined) {
    throw new IsingError(
      'ISING_INVALID_ARGUMENT',
      `threaded estimate ${task.handle} was freed: a worker keeps the VJP state of its last ${KEPT_ESTIMATES} estimates, ` +
        `so call vjp before ${KEPT_ESTIMATES} newer estimates, or create the sampler with threads: 1`,
    );
  }
  const grads = entry.estimate.vjp(task.grad);
  if (grads instanceof Promise)
    throw new Error(`${entry.sampler} vjp returned a promise on a worker`);
  return [
    grads.fields,
    grads.couplings,
    ...diagnosticsArrays((grads as Partial<FixedPointGradients>).diagnostics),
  ];
}
