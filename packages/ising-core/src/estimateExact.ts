import { IsingError } from './errors.js';
import {
  assertGradient,
  compactProblems,
  gatherRows,
  magnetizationFromUp,
  partitionProblems,
  problemsOf,
  resolveMaxSpins,
  scatterRows,
  totalStates,
  validateExactBatch,
} from './internal/kernels/exactBatch.js';
import { exactBackward, exactForward } from './internal/kernels/exactKernel.js';
import type { ExactForwardResult, ExactProblems } from './internal/kernels/exactKernel.js';
import { autoThreadCount, disposeWorkerPool, runOnWorkers } from './internal/workerPool.js';
import type { BackwardResult } from './internal/workerPool.js';
import type { BatchEstimate, IsingBatch, IsingGradients } from './types.js';

/** Options of {@link estimateExact}. */
export interface ExactOptions {
  /** Largest spin count to enumerate (default 24, at most 30). */
  readonly maxSpins?: number;
}

/** Options of {@link estimateExactAsync}. */
export interface ExactAsyncOptions extends ExactOptions {
  /**
   * Threads to use. `'auto'` (default) uses every core when the batch is big enough to pay for
   * it (≥ 2^19 enumerated states in total) and the calling thread otherwise; a number forces it.
   */
  readonly threads?: 'auto' | number;
}

/** An exact {@link BatchEstimate} that also carries `log Z` per problem. */
export interface ExactBatchEstimate extends BatchEstimate {
  /** `log Z_q`, `Z_q = Σ_s exp(−β E_q(s))`, one entry per problem. */
  readonly logPartition: Float64Array;
  /** `P(s_j = +1) = (m + 1)/2` without cancellation (layout of `magnetization`). */
  readonly probabilityUp: Float64Array;
}

/** The asynchronous (multi-threaded) variant of {@link ExactBatchEstimate}: its VJP returns a promise. */
export interface AsyncExactBatchEstimate {
  readonly magnetization: Float64Array;
  readonly logPartition: Float64Array;
  readonly probabilityUp: Float64Array;
  vjp(gradMagnetization: Float64Array): Promise<IsingGradients>;
}

/**
 * Exact magnetizations, `log Z` and the VJP of every problem of a batch by enumeration in
 * `O(2^n)` per problem (METHOD.md §2), on the calling thread. The backward pass recomputes the
 * probabilities instead of storing them (scratch is `O(2^stride)`).
 *
 * @param batch problems sharing one coupling matrix (any mix of spin counts).
 * @param options `maxSpins` (default 24).
 * @returns magnetizations, `log Z`, `P(s_j = +1)` and `vjp(∂L/∂m) → { fields: ∂L/∂h, couplings: ∂L/∂J }`.
 * @throws {IsingError} ISING_TOO_MANY_SPINS above `maxSpins`; ISING_SHAPE_MISMATCH, ISING_NOT_FINITE,
 *   ISING_INVALID_ARGUMENT on a malformed batch or gradient.
 * @example
 * const batch = createIsingBatch({ fields: Float64Array.of(0.5, -0.2), couplings: Float64Array.of(0, 0.3, 0, 0), spins: [2], stride: 2 });
 * const { magnetization, vjp } = estimateExact(batch);
 * const { fields, couplings } = vjp(Float64Array.of(1, 0)); // ∂m_0/∂h, ∂m_0/∂J
 */
export function estimateExact(batch: IsingBatch, options: ExactOptions = {}): ExactBatchEstimate {
  const checked = validateExactBatch(batch, resolveMaxSpins(options.maxSpins), 'estimateExact');
  const problems = problemsOf(checked);
  const forward = exactForward(problems);
  return {
    magnetization: magnetizationFromUp(forward.up, checked.spins, checked.stride),
    logPartition: forward.logZ,
    probabilityUp: forward.up,
    vjp(gradMagnetization: Float64Array): IsingGradients {
      assertGradient(checked, gradMagnetization, 'estimateExact vjp');
      return exactBackward(problems, forward, gradMagnetization);
    },
  };
}

function threadCount(threads: 'auto' | number | undefined, spins: Int32Array): number {
  if (threads === undefined || threads === 'auto') {
    return totalStates(spins) >= 2 ** 19 ? Math.min(autoThreadCount(), spins.length) : 1;
  }
  if (!Number.isInteger(threads) || threads < 1) {
    throw new IsingError('ISING_INVALID_ARGUMENT', `threads must be 'auto' or a positive integer, got ${String(threads)}`);
  }
  return Math.min(threads, Math.max(1, spins.length));
}

/**
 * {@link estimateExact} split across `worker_threads` (the problems are dealt to threads with
 * equal `Σ 2^n`). The pool starts lazily, is reused, never keeps the process alive, and is
 * released by {@link disposeExactWorkers}; if a worker cannot start, the work runs on the
 * calling thread. Results equal the single-thread ones up to the summation order of `∂L/∂J`.
 *
 * @param batch problems sharing one coupling matrix.
 * @param options `maxSpins` (default 24) and `threads` (default `'auto'`).
 * @returns a promise of the estimate; its `vjp` is asynchronous too.
 * @throws {IsingError} as {@link estimateExact}; ISING_WORKER_FAILED (rejection) when a worker dies.
 * @example
 * const est = await estimateExactAsync(causalBatch(fields, couplings, { batch: 64, length: 16 }), { threads: 'auto' });
 * const grads = await est.vjp(gradMagnetization);
 */
export async function estimateExactAsync(batch: IsingBatch, options: ExactAsyncOptions = {}): Promise<AsyncExactBatchEstimate> {
  const checked = validateExactBatch(batch, resolveMaxSpins(options.maxSpins), 'estimateExactAsync');
  const problems = problemsOf(checked);
  const threads = threadCount(options.threads, checked.spins);
  if (threads <= 1) {
    const est = estimateExact(checked, options);
    return { ...est, vjp: async (g) => est.vjp(g) };
  }
  const groups = partitionProblems(checked.spins, threads);
  const parts = groups.map((g) => compactProblems(problems, g));
  // Keep a copy of each part's inputs: the originals are transferred to the workers.
  const kept: ExactProblems[] = parts.map((p) => ({ ...p, couplings: p.couplings.slice(), spins: p.spins.slice(), fields: p.fields.slice() }));
  const results = (await runOnWorkers(parts.map((p) => ({ kind: 'forward', problems: p })))) as ExactForwardResult[];
  const { stride, size } = checked;
  const up = new Float64Array(size * stride);
  const logZ = new Float64Array(size);
  results.forEach((r, i) => {
    const g = groups[i]!;
    scatterRows(up, r.up, g, stride);
    for (let k = 0; k < g.length; k++) logZ[g[k]!] = r.logZ[k]!;
  });
  return {
    magnetization: magnetizationFromUp(up, checked.spins, stride),
    logPartition: logZ,
    probabilityUp: up,
    async vjp(gradMagnetization: Float64Array): Promise<IsingGradients> {
      assertGradient(checked, gradMagnetization, 'estimateExactAsync vjp');
      const tasks = kept.map((p, i) => ({
        kind: 'backward' as const,
        problems: { ...p, couplings: p.couplings.slice(), spins: p.spins.slice(), fields: p.fields.slice() },
        up: results[i]!.up.slice(),
        norm: results[i]!.norm.slice(),
        grad: gatherRows(gradMagnetization, groups[i]!, stride),
      }));
      const back = (await runOnWorkers(tasks)) as BackwardResult[];
      const fields = new Float64Array(size * stride);
      const couplings = new Float64Array(stride * stride);
      back.forEach((r, i) => {
        scatterRows(fields, r.fields, groups[i]!, stride);
        for (let k = 0; k < couplings.length; k++) couplings[k]! += r.couplings[k]!;
      });
      return { fields, couplings };
    },
  };
}

/**
 * Terminates the worker threads of {@link estimateExactAsync} and `causalBoltzmannAsync`.
 * Optional (idle workers never keep the process alive); the next parallel call starts new ones.
 *
 * @example
 * await disposeExactWorkers();
 */
export function disposeExactWorkers(): Promise<void> {
  return disposeWorkerPool();
}
