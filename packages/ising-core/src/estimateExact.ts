import {
  compactProblems,
  gatherRows,
  magnetizationFromUp,
  partitionProblems,
  problemsOf,
  resolveMaxSpins,
  resolveThreads,
  scatterRows,
  totalStates,
  validateExactBatch,
} from './internal/kernels/exactBatch.js';
import { assertExactRange, assertFiniteGradients } from './internal/kernels/exactRange.js';
import { assertGradMagnetization } from './internal/vjpInput.js';
import { exactBackward, exactForward } from './internal/kernels/exactKernel.js';
import type { ExactForwardResult, ExactProblems } from './internal/kernels/exactKernel.js';
import type { BackwardResult, WorkerTask } from './internal/pool/poolMessages.js';
import { autoThreadCount, capThreadCount } from './internal/pool/threadCount.js';
import { disposeWorkerPool, runOnWorkers, runOnWorkersSync } from './internal/pool/sharedPool.js';
import type { BatchEstimate, IsingBatch, IsingGradients } from './types.js';

/**
 * Options of {@link estimateExact} and {@link estimateExactAsync}.
 *
 * @category Exact
 */
export interface ExactOptions {
  /** Largest spin count to enumerate (default 24, at most 30). */
  readonly maxSpins?: number;
  /**
   * Threads to use. `'auto'` (default) uses every core when the batch has at least 2^24
   * configurations in total (`Σ_q 2^{n_q}`) and the calling thread otherwise; a positive integer
   * forces that many threads (1 = calling thread only), at most the core count: a larger request
   * is lowered to it, with a one-time `process.emitWarning` (code `ISING_THREADS_CAPPED`).
   */
  readonly threads?: 'auto' | number;
}

/**
 * Options of {@link estimateExactAsync}: the same as {@link ExactOptions}.
 *
 * @category Exact
 */
export type ExactAsyncOptions = ExactOptions;

/**
 * An exact {@link BatchEstimate} that also carries `log Z` per problem.
 *
 * @category Exact
 */
export interface ExactBatchEstimate extends BatchEstimate {
  /** `log Z_q`, `Z_q = Σ_s exp(−β E_q(s))`, one entry per problem. */
  readonly logPartition: Float64Array;
  /** `P(s_j = +1) = (m + 1)/2` without cancellation (layout of `magnetization`). */
  readonly probabilityUp: Float64Array;
}

/**
 * The asynchronous (multi-threaded) variant of {@link ExactBatchEstimate}: its VJP returns a promise.
 *
 * @category Exact
 */
export interface AsyncExactBatchEstimate {
  readonly magnetization: Float64Array;
  readonly logPartition: Float64Array;
  readonly probabilityUp: Float64Array;
  vjp(gradMagnetization: Float64Array): Promise<IsingGradients>;
}

/** Problems dealt to threads; `undefined` when the calling thread does everything. */
interface Plan {
  readonly groups: Int32Array[];
  readonly stride: number;
  readonly size: number;
}

// Measured (bench/exactCausalAttention.bench.ts, 2 cores): with the wasm kernels a second thread
// does not pay at batch 64 × length 16 (2^23 configurations, ≈ 18 ms on one thread) and pays
// 1.6× at length 18; below that its start-up, copies and cache contention cost more than it saves.
const AUTO_MIN_STATES = 2 ** 24;

function planThreads(
  option: 'auto' | number | undefined,
  spins: Int32Array,
  stride: number,
): Plan | undefined {
  const threads = resolveThreads(option);
  let count: number;
  if (threads === 'auto') count = totalStates(spins) >= AUTO_MIN_STATES ? autoThreadCount() : 1;
  else count = capThreadCount(threads);
  const groups = partitionProblems(spins, Math.min(count, spins.length));
  return groups.length > 1 ? { groups, stride, size: spins.length } : undefined;
}

function forwardTasks(plan: Plan, problems: ExactProblems): WorkerTask[] {
  return plan.groups.map((g) => ({ kind: 'forward', problems: compactProblems(problems, g) }));
}

function backwardTasks(
  plan: Plan,
  problems: ExactProblems,
  parts: readonly ExactForwardResult[],
  grad: Float64Array,
): WorkerTask[] {
  return plan.groups.map((g, i) => ({
    kind: 'backward',
    problems: compactProblems(problems, g),
    up: parts[i]!.up.slice(),
    norm: parts[i]!.norm.slice(),
    grad: gatherRows(grad, g, plan.stride),
  }));
}

function mergeForward(plan: Plan, parts: readonly ExactForwardResult[]): ExactForwardResult {
  const up = new Float64Array(plan.size * plan.stride);
  const logZ = new Float64Array(plan.size);
  const norm = new Float64Array(plan.size);
  parts.forEach((r, i) => {
    const g = plan.groups[i]!;
    scatterRows(up, r.up, g, plan.stride);
    for (let k = 0; k < g.length; k++) {
      logZ[g[k]!] = r.logZ[k]!;
      norm[g[k]!] = r.norm[k]!;
    }
  });
  return { up, logZ, norm };
}

function mergeBackward(plan: Plan, parts: readonly BackwardResult[]): IsingGradients {
  const fields = new Float64Array(plan.size * plan.stride);
  const couplings = new Float64Array(plan.stride * plan.stride);
  parts.forEach((r, i) => {
    scatterRows(fields, r.fields, plan.groups[i]!, plan.stride);
    for (let k = 0; k < couplings.length; k++) couplings[k]! += r.couplings[k]!;
  });
  return { fields, couplings };
}

/**
 * Exact magnetizations, `log Z` and the VJP of every problem of a batch by enumeration in `O(2^n)`
 * per problem (METHOD.md §2).
 *
 * Synchronous; large batches are split across `worker_threads` (the calling thread takes one share
 * and blocks on the others through shared memory). The backward pass recomputes the probabilities
 * instead of storing them (scratch is `O(2^stride)` per thread). Multi-threaded results equal
 * single-thread ones except the summation order of `∂L/∂J`'s per-thread partial sums.
 *
 * @param batch problems sharing one coupling matrix (any mix of spin counts).
 * @param options `maxSpins` (default 24), `threads` (default `'auto'`).
 * @returns magnetizations, `log Z`, `P(s_j = +1)` and `vjp(∂L/∂m) → { fields: ∂L/∂h, couplings: ∂L/∂J }`.
 * @throws {IsingError} ISING_TOO_MANY_SPINS above `maxSpins`; ISING_SHAPE_MISMATCH, ISING_NOT_FINITE,
 *   ISING_INVALID_ARGUMENT on a malformed batch or gradient; ISING_WORKER_FAILED when a worker fails.
 * @example
 * import { createIsingBatch, estimateExact } from '@boltzmann/ising-core';
 *
 * const batch = createIsingBatch({ fields: Float64Array.of(0.5, -0.2), couplings: Float64Array.of(0, 0.3, 0, 0), spins: [2], stride: 2 });
 * const { magnetization, vjp } = estimateExact(batch);
 * const { fields, couplings } = vjp(Float64Array.of(1, 0)); // ∂m_0/∂h, ∂m_0/∂J
 * console.log(magnetization, fields, couplings);
 * @category Exact
 */
export function estimateExact(batch: IsingBatch, options: ExactOptions = {}): ExactBatchEstimate {
  return estimateValidated(
    validateExactBatch(batch, resolveMaxSpins(options.maxSpins), 'estimateExact'),
    options,
  );
}

/**
 * {@link estimateExact} on a batch the caller has just built with `createIsingBatch` or
 * `causalBatch` and checked against the spin limit (skips re-validating it, but not the range
 * check). Not in the barrel.
 *
 * @param who the public caller, for messages.
 */
export function estimateValidated(
  checked: IsingBatch,
  options: ExactOptions,
  who = 'estimateExact',
): ExactBatchEstimate {
  assertExactRange(checked, who);
  const problems = problemsOf(checked);
  const plan = planThreads(options.threads, checked.spins, checked.stride);
  let forward: ExactForwardResult;
  let parts: ExactForwardResult[] = [];
  if (plan === undefined) forward = exactForward(problems);
  else {
    parts = runOnWorkersSync(forwardTasks(plan, problems)) as ExactForwardResult[];
    forward = mergeForward(plan, parts);
  }
  return {
    magnetization: magnetizationFromUp(forward.up, checked.spins, checked.stride),
    logPartition: forward.logZ,
    probabilityUp: forward.up,
    vjp(gradMagnetization: Float64Array): IsingGradients {
      assertGradMagnetization(checked, gradMagnetization, `${who} vjp`);
      const grads =
        plan === undefined
          ? exactBackward(problems, forward, gradMagnetization)
          : mergeBackward(
              plan,
              runOnWorkersSync(
                backwardTasks(plan, problems, parts, gradMagnetization),
              ) as BackwardResult[],
            );
      assertFiniteGradients(checked, grads, `${who} vjp`);
      return grads;
    },
  };
}

/**
 * {@link estimateExact} with the work on worker threads only, leaving the calling thread's event
 * loop free; forward and `vjp` are asynchronous.
 *
 * If a worker cannot start, the work runs on the calling thread.
 *
 * @param batch problems sharing one coupling matrix.
 * @param options `maxSpins` (default 24) and `threads` (default `'auto'`).
 * @returns a promise of the estimate; its `vjp` is asynchronous too.
 * @throws {IsingError} as {@link estimateExact}; ISING_WORKER_FAILED (rejection) when a worker dies.
 * @example
 * import { causalBatch, disposeExactWorkers, estimateExactAsync } from '@boltzmann/ising-core';
 *
 * const length = 12;
 * const fields = Float64Array.from({ length: 8 * length * length }, (_, i) => Math.sin(i));
 * const couplings = new Float64Array(length * length).fill(0.1);
 * const est = await estimateExactAsync(causalBatch(fields, couplings, { batch: 8, length }), { threads: 2 });
 * const grads = await est.vjp(new Float64Array(est.magnetization.length).fill(1));
 * console.log(grads.couplings.length);
 * await disposeExactWorkers(); // let the process exit
 * @category Exact
 */
export async function estimateExactAsync(
  batch: IsingBatch,
  options: ExactOptions = {},
): Promise<AsyncExactBatchEstimate> {
  const checked = validateExactBatch(
    batch,
    resolveMaxSpins(options.maxSpins),
    'estimateExactAsync',
  );
  assertExactRange(checked, 'estimateExactAsync');
  const problems = problemsOf(checked);
  const plan = planThreads(options.threads, checked.spins, checked.stride);
  if (plan === undefined) {
    const est = estimateExact(checked, { ...options, threads: 1 });
    return { ...est, vjp: async (g) => est.vjp(g) };
  }
  const parts = (await runOnWorkers(forwardTasks(plan, problems))) as ExactForwardResult[];
  const forward = mergeForward(plan, parts);
  return {
    magnetization: magnetizationFromUp(forward.up, checked.spins, checked.stride),
    logPartition: forward.logZ,
    probabilityUp: forward.up,
    async vjp(gradMagnetization: Float64Array): Promise<IsingGradients> {
      assertGradMagnetization(checked, gradMagnetization, 'estimateExactAsync vjp');
      const grads = mergeBackward(
        plan,
        (await runOnWorkers(
          backwardTasks(plan, problems, parts, gradMagnetization),
        )) as BackwardResult[],
      );
      assertFiniteGradients(checked, grads, 'estimateExactAsync vjp');
      return grads;
    },
  };
}

/**
 * Terminates the worker threads of {@link estimateExactAsync} and `causalBoltzmannAsync`.
 *
 * Optional (idle workers never keep the process alive); the next parallel call starts new ones.
 *
 * @example
 * import { causalBatch, disposeExactWorkers, estimateExactAsync } from '@boltzmann/ising-core';
 *
 * await estimateExactAsync(causalBatch(new Float64Array(64), new Float64Array(64), { batch: 1, length: 8 }), { threads: 2 });
 * await disposeExactWorkers(); // the workers end, and the process can exit
 * @category Exact
 */
export function disposeExactWorkers(): Promise<void> {
  return disposeWorkerPool();
}
