/**
 * The optimizer's tail on every thread. The flat parameter buffer is cut into one contiguous range
 * per thread (at multiples of 4 floats, inside a slot where a cut falls). After a threaded pass
 * each thread adds every other shard's gradients into the optimizer's buffer over its range and
 * returns the range's Σ g²; an AdamW update runs each range on its own thread. Every thread
 * computes the same ranges from the same layout, so the tail is the same from run to run for a
 * given thread count (the norm's float64 partial sums are added in thread order).
 */
import type { EngineAdamW, OptimizerBuffers } from '../adamW.js';
import type { EngineKernels } from '../engineKernels.js';
import type { ParamLayout, ParamRun } from '../engineTypes.js';
import { optimizerBuffersOf } from './shards.js';
import type { EngineWorkers } from './workerPool.js';

/** Every thread's runs of the parameter buffer: thread t's range, cut at its slots' borders. */
export function threadRuns(params: ParamLayout, threads: number): ParamRun[][] {
  const quads = params.size / 4;
  const cut = (t: number) => 4 * Math.floor((quads * t) / threads);
  return Array.from({ length: threads }, (_, t) => {
    const [lo, hi] = [cut(t), cut(t + 1)];
    const runs: ParamRun[] = [];
    for (const s of params.slots) {
      const from = Math.max(lo, s.offset);
      const to = Math.min(hi, s.offset + s.size);
      if (from < to) runs.push({ offset: from, size: to - from, decay: s.decay });
    }
    return runs;
  });
}

/**
 * One thread's part of the gradient sum: the gradient buffers at `others` added into `grads` over
 * `runs`, in order; returns the runs' Σ g² of the sum.
 */
export function sumGradientRuns(
  k: Pick<EngineKernels, 'addInto' | 'sumOfSquares'>,
  runs: readonly ParamRun[],
  grads: number,
  others: readonly number[],
): number {
  for (const other of others) k.addInto(runs, grads, other);
  return k.sumOfSquares(runs, grads);
}

/** An engine's optimizer tail: the gradients' norm after a pass, and AdamW on its threads. */
export interface EngineOptimizer {
  readonly buffers: OptimizerBuffers;
  /** The calling thread's runs of the gradient sum and the update. */
  readonly own: readonly ParamRun[];
  /** Records a pass: Σ g² of its gradients as its threads summed them, or undefined (one thread). */
  passed(squares: number | undefined): void;
  /** `√Σ g²` of the last pass's gradients. */
  gradientNorm(): number;
  /**
   * One AdamW update: the workers (when started) take their ranges while the calling thread takes
   * its own; returns when all are done (ATTENTION_WORKER_FAILED if a worker failed).
   */
  adamW(workers: EngineWorkers | undefined, hyper: EngineAdamW): void;
}

/** The optimizer tail of an engine of `threads` threads on kernels `k`. */
export function engineOptimizer(
  k: Pick<EngineKernels, 'adamW' | 'gradientNorm'>,
  params: ParamLayout,
  threads: number,
): EngineOptimizer {
  const buffers = optimizerBuffersOf(params);
  const own = threadRuns(params, threads)[0]!;
  let squares: number | undefined;
  return {
    buffers,
    own,
    passed(s) {
      squares = s;
    },
    gradientNorm: () =>
      squares === undefined ? k.gradientNorm(params.slots, buffers.grads) : Math.sqrt(squares),
    adamW(workers, hyper) {
      if (workers === undefined) return k.adamW(params.slots, buffers, hyper);
      workers.issueAdamW(hyper);
      try {
        k.adamW(own, buffers, hyper);
      } finally {
        workers.finish();
      }
    },
  };
}
