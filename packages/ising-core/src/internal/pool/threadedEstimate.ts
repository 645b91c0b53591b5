// A sampler's estimate split into contiguous ranges of the batch run in parallel on the shared
// worker pool (the VJP of the result is in threadedVjp.ts).
import { revalidateBatch } from '../../batch.js';
import type { BatchEstimate, ConvergenceDiagnostics, IsingBatch } from '../../types.js';
import type { ThreadedSamplerName } from './poolMessages.js';
import { autoThreadCount, capThreadCount } from './threadCount.js';
import { sharedPool } from './sharedPool.js';
import { batchCost, splitRanges } from './splitRanges.js';
import { concatDiagnostics, readDiagnostics, subBatch, whereOf } from './threadedParts.js';
import type { Part, SplitRun } from './threadedParts.js';
import { threadedVjp } from './threadedVjp.js';
import type { ExactWorkerPool } from './workerPool.js';

/**
 * What a plugin hands the threaded path: its name, its validated options as plain data (a worker
 * rebuilds the sampler from them), the resolved `threads` option, the smallest cost at which
 * `'auto'` uses more than one thread, and its single-threaded estimate.
 */
export interface ThreadedSpec<E extends BatchEstimate> {
  readonly sampler: ThreadedSamplerName;
  readonly options: Readonly<Record<string, unknown>>;
  readonly threads: 'auto' | number;
  readonly autoMinCost: number;
  /** May not cut between problems `q − 1` and `q` when `spins[q] = spins[q − 1] + 1` (warm start). */
  readonly keepSequences: boolean;
  readonly single: (batch: IsingBatch) => E;
  /** The pool to use (tests); default the process's shared pool. */
  readonly pool?: ExactWorkerPool;
}

let nextHandle = 1;

/** Drops a worker's kept estimate once its threaded estimate is garbage (best effort; the bound in the worker is the guarantee). */
const dropper = new FinalizationRegistry<{
  pool: ExactWorkerPool;
  slot: number;
  serial: number;
  handle: number;
}>(({ pool, slot, serial, handle }) => {
  pool.post(slot, { kind: 'sampler-drop', handle }, serial);
});

/**
 * The checked batch and its ranges, one per thread, when the spec and the batch call for more than
 * one thread; `undefined` when the whole batch runs on this thread.
 */
function plannedRanges<E extends BatchEstimate>(
  spec: ThreadedSpec<E>,
  batch: IsingBatch,
): { readonly checked: IsingBatch; readonly ranges: [number, number][] } | undefined {
  const { sampler, threads } = spec;
  if (
    threads === 1 ||
    batch === null ||
    typeof batch !== 'object' ||
    !(batch.spins instanceof Int32Array)
  )
    return undefined;
  const count =
    threads === 'auto'
      ? batchCost(sampler, batch.spins) >= spec.autoMinCost
        ? autoThreadCount()
        : 1
      : capThreadCount(threads);
  if (count < 2 || batch.size < 2) return undefined;
  // The same entry check as the single-thread path: a bad batch fails here with its code.
  const checked = revalidateBatch(batch, sampler);
  const ranges = splitRanges(
    sampler,
    checked.spins,
    Math.min(count, checked.size),
    spec.keepSequences,
  );
  return ranges.length < 2 ? undefined : { checked, ranges };
}

/** The estimate task of every range but the first, for the worker in slot `i`. */
function estimateJobs<E extends BatchEstimate>(
  spec: ThreadedSpec<E>,
  checked: IsingBatch,
  ranges: readonly [number, number][],
  fixedPoint: boolean,
) {
  const { stride } = checked;
  return ranges.slice(1).map((range, i) => {
    const k = range[1] - range[0];
    const sub = subBatch(checked, range);
    const task = {
      kind: 'sampler-estimate' as const,
      sampler: spec.sampler,
      options: spec.options,
      batch: {
        stride,
        beta: sub.beta,
        spins: sub.spins,
        fields: sub.fields,
        couplings: sub.couplings,
      },
      handle: nextHandle++,
      // Fixed points: iterations and residual per problem; the transfer matrix: log Z per problem
      // and P(s = +1) per spin.
      replyLength: k * stride + (fixedPoint ? 2 * k : k + k * stride),
    };
    return { slot: i, task, replyLength: task.replyLength, where: whereOf(range) };
  });
}

/** The transfer matrix's outputs beyond the magnetizations, of one range. */
interface ExactExtra {
  readonly logPartition: Float64Array;
  readonly probabilityUp: Float64Array;
}

/** A range's extra output: its `log Z` and `P(s = +1)` (transfer matrix) or its diagnostics (fixed point). */
function extraOf(
  estimate: BatchEstimate,
  fixedPoint: boolean,
): ExactExtra | ConvergenceDiagnostics | undefined {
  return fixedPoint ? estimate.diagnostics : (estimate as unknown as ExactExtra);
}

/**
 * Runs a sampler's estimate on contiguous ranges of the batch in parallel: the first range on the
 * calling thread, the others on the shared pool's workers (synchronously: the caller blocks in
 * `Atomics.wait` on shared-memory replies). Each worker keeps its estimate under a handle for the
 * VJP, which sends back `∂L/∂h` of its range and a partial `∂L/∂J` (summed here). Magnetizations,
 * `∂L/∂h`, `log Z` and diagnostics equal the one-thread run; `∂L/∂J` equals it up to summation
 * order. Runs `spec.single` on the whole batch when one thread is planned.
 *
 * @throws {IsingError} the sampler's own errors (from any thread, with their codes);
 *   ISING_WORKER_FAILED when a worker fails or has exited since the estimate;
 *   ISING_INVALID_ARGUMENT from `vjp` when a worker has freed the estimate's state.
 */
export function threadedEstimate<E extends BatchEstimate>(
  spec: ThreadedSpec<E>,
  batch: IsingBatch,
): E {
  const plan = plannedRanges(spec, batch);
  if (plan === undefined) return spec.single(batch);
  const { checked, ranges } = plan;
  const { sampler } = spec;
  const { stride, size } = checked;
  const fixedPoint = sampler !== 'transfer-matrix';
  const pool = spec.pool ?? sharedPool();
  const jobs = estimateJobs(spec, checked, ranges, fixedPoint);
  const { local, replies, serials } = pool.runSplitSync(
    jobs,
    () => spec.single(subBatch(checked, ranges[0]!)),
    sampler,
  );
  const parts: Part[] = [{ range: ranges[0]!, local, slot: -1, serial: 0, handle: 0 }];
  const magnetization = new Float64Array(size * stride);
  const logPartition = new Float64Array(size);
  const probabilityUp = new Float64Array(fixedPoint ? 0 : size * stride);
  const diagnostics: ConvergenceDiagnostics[] = [];
  const tolerance = local.diagnostics?.tolerance ?? 0;
  const place = (
    range: [number, number],
    m: Float64Array,
    extra: ExactExtra | ConvergenceDiagnostics | undefined,
  ): void => {
    const k = range[1] - range[0];
    magnetization.set(m.subarray(0, k * stride), range[0] * stride);
    if (extra !== undefined && 'logPartition' in extra) {
      logPartition.set(extra.logPartition.subarray(0, k), range[0]);
      probabilityUp.set(extra.probabilityUp.subarray(0, k * stride), range[0] * stride);
    } else if (extra !== undefined) diagnostics.push(extra);
  };
  place(ranges[0]!, local.magnetization, extraOf(local, fixedPoint));
  replies.forEach((payload, i) => {
    const range = ranges[i + 1]!;
    const k = range[1] - range[0];
    if (payload === undefined) {
      // This worker could not start: its range runs here (the pool has warned once).
      const est = spec.single(subBatch(checked, range));
      parts.push({ range, local: est, slot: -1, serial: 0, handle: 0 });
      place(range, est.magnetization, extraOf(est, fixedPoint));
      return;
    }
    parts.push({ range, slot: jobs[i]!.slot, serial: serials[i]!, handle: jobs[i]!.task.handle });
    place(
      range,
      payload,
      fixedPoint
        ? readDiagnostics(payload, k * stride, k, tolerance)
        : {
            logPartition: payload.subarray(k * stride, k * stride + k),
            probabilityUp: payload.subarray(k * stride + k, 2 * k * stride + k),
          },
    );
  });

  const run: SplitRun = { sampler, pool, checked, parts, fixedPoint, tolerance };
  const vjp = (gradMagnetization: Float64Array) => threadedVjp(run, gradMagnetization);
  const result = fixedPoint
    ? { magnetization, vjp, diagnostics: concatDiagnostics(diagnostics, tolerance) }
    : { magnetization, logPartition, probabilityUp, vjp };
  for (const p of parts)
    if (p.local === undefined)
      dropper.register(result, { pool, slot: p.slot, serial: p.serial, handle: p.handle });
  return result as unknown as E;
}
