import { createIsingBatch, revalidateBatch } from '../batch.js';
import type {
  BatchEstimate,
  ConvergenceDiagnostics,
  IsingBatch,
  IsingGradients,
} from '../types.js';
import { assertGradMagnetization } from './vjpInput.js';
import type { ThreadedSamplerName } from './poolMessages.js';
import { autoThreadCount, capThreadCount } from './threadCount.js';
import { sharedPool } from './sharedPool.js';
import { batchCost, splitRanges } from './splitRanges.js';
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

function subBatch(batch: IsingBatch, [from, to]: [number, number]): IsingBatch {
  const { stride, beta } = batch;
  return createIsingBatch({
    fields: batch.fields.slice(from * stride, to * stride),
    couplings: batch.couplings.slice(),
    spins: batch.spins.slice(from, to),
    stride,
    beta,
  });
}

/** Worker errors number problems within their range: say which range that was. */
const whereOf = ([from, to]: [number, number]): string =>
  `on the worker thread running problems ${from}–${to - 1}; problem numbers above count from ${from}`;

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

/** A part of the batch: its range, and either its own estimate (run here) or the worker holding it. */
interface Part {
  readonly range: [number, number];
  readonly local?: BatchEstimate;
  readonly slot: number;
  readonly serial: number;
  readonly handle: number;
}

function concatDiagnostics(
  parts: readonly ConvergenceDiagnostics[],
  tolerance: number,
): ConvergenceDiagnostics {
  const size = parts.reduce((t, d) => t + d.residual.length, 0);
  const iterations = new Int32Array(size);
  const residual = new Float64Array(size);
  let at = 0;
  for (const d of parts) {
    iterations.set(d.iterations, at);
    residual.set(d.residual, at);
    at += d.residual.length;
  }
  let missed = 0;
  for (let q = 0; q < size; q++) if (!(residual[q]! <= tolerance)) missed += 1;
  return { iterations, residual, tolerance, missed, converged: missed === 0 };
}

function readDiagnostics(
  payload: Float64Array,
  offset: number,
  k: number,
  tolerance: number,
): ConvergenceDiagnostics {
  return concatDiagnostics(
    [
      {
        iterations: Int32Array.from(payload.subarray(offset, offset + k)),
        residual: payload.slice(offset + k, offset + 2 * k),
        tolerance,
        missed: 0,
        converged: true,
      },
    ],
    tolerance,
  );
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
  const { sampler, threads } = spec;
  if (
    threads === 1 ||
    batch === null ||
    typeof batch !== 'object' ||
    !(batch.spins instanceof Int32Array)
  )
    return spec.single(batch);
  const count =
    threads === 'auto'
      ? batchCost(sampler, batch.spins) >= spec.autoMinCost
        ? autoThreadCount()
        : 1
      : capThreadCount(threads);
  if (count < 2 || batch.size < 2) return spec.single(batch);
  // The same entry check as the single-thread path: a bad batch fails here with its code.
  const checked = revalidateBatch(batch, sampler);
  const ranges = splitRanges(
    sampler,
    checked.spins,
    Math.min(count, checked.size),
    spec.keepSequences,
  );
  if (ranges.length < 2) return spec.single(batch);
  const { stride, size } = checked;
  const fixedPoint = sampler !== 'transfer-matrix';
  const pool = spec.pool ?? sharedPool();
  const jobs = ranges.slice(1).map((range, i) => {
    const k = range[1] - range[0];
    const sub = subBatch(checked, range);
    const task = {
      kind: 'sampler-estimate' as const,
      sampler,
      options: spec.options,
      batch: {
        stride,
        beta: sub.beta,
        spins: sub.spins,
        fields: sub.fields,
        couplings: sub.couplings,
      },
      handle: nextHandle++,
      replyLength: k * stride + (fixedPoint ? 2 * k : k),
    };
    return { slot: i, task, replyLength: task.replyLength, where: whereOf(range) };
  });
  const { local, replies, serials } = pool.runSplitSync(
    jobs,
    () => spec.single(subBatch(checked, ranges[0]!)),
    sampler,
  );
  const parts: Part[] = [{ range: ranges[0]!, local, slot: -1, serial: 0, handle: 0 }];
  const magnetization = new Float64Array(size * stride);
  const logPartition = new Float64Array(size);
  const diagnostics: ConvergenceDiagnostics[] = [];
  const tolerance = local.diagnostics?.tolerance ?? 0;
  const place = (
    range: [number, number],
    m: Float64Array,
    extra: Float64Array | ConvergenceDiagnostics | undefined,
  ): void => {
    magnetization.set(m.subarray(0, (range[1] - range[0]) * stride), range[0] * stride);
    if (extra instanceof Float64Array) logPartition.set(extra, range[0]);
    else if (extra !== undefined) diagnostics.push(extra);
  };
  place(
    ranges[0]!,
    local.magnetization,
    fixedPoint
      ? local.diagnostics
      : (local as unknown as { logPartition: Float64Array }).logPartition,
  );
  replies.forEach((payload, i) => {
    const range = ranges[i + 1]!;
    const k = range[1] - range[0];
    if (payload === undefined) {
      // This worker could not start: its range runs here (the pool has warned once).
      const est = spec.single(subBatch(checked, range));
      parts.push({ range, local: est, slot: -1, serial: 0, handle: 0 });
      place(
        range,
        est.magnetization,
        fixedPoint
          ? est.diagnostics
          : (est as unknown as { logPartition: Float64Array }).logPartition,
      );
      return;
    }
    parts.push({ range, slot: jobs[i]!.slot, serial: serials[i]!, handle: jobs[i]!.task.handle });
    place(
      range,
      payload,
      fixedPoint
        ? readDiagnostics(payload, k * stride, k, tolerance)
        : payload.subarray(k * stride, k * stride + k),
    );
  });

  const vjp = (gradMagnetization: Float64Array): IsingGradients => {
    assertGradMagnetization(checked, gradMagnetization, `${sampler} vjp`);
    const remote = parts.filter((p) => p.local === undefined);
    const vjpJobs = remote.map((p) => {
      const k = p.range[1] - p.range[0];
      const replyLength = k * stride + stride * stride + (fixedPoint ? 2 * k : 0);
      const grad = gradMagnetization.slice(p.range[0] * stride, p.range[1] * stride);
      return {
        slot: p.slot,
        serial: p.serial,
        replyLength,
        where: whereOf(p.range),
        task: { kind: 'sampler-vjp' as const, handle: p.handle, grad, replyLength },
      };
    });
    const localParts = parts.filter((p) => p.local !== undefined);
    const grads = pool.runSplitSync(
      vjpJobs,
      () =>
        localParts.map((p) =>
          p.local!.vjp(gradMagnetization.slice(p.range[0] * stride, p.range[1] * stride)),
        ),
      sampler,
    );
    const fields = new Float64Array(size * stride);
    const couplings = new Float64Array(stride * stride);
    const adjoint = new Map<Part, ConvergenceDiagnostics>();
    const add = (
      p: Part,
      dh: Float64Array,
      dJ: Float64Array,
      d: ConvergenceDiagnostics | undefined,
    ): void => {
      fields.set(dh.subarray(0, (p.range[1] - p.range[0]) * stride), p.range[0] * stride);
      for (let i = 0; i < couplings.length; i++) couplings[i]! += dJ[i]!;
      if (d !== undefined) adjoint.set(p, d);
    };
    localParts.forEach((p, i) => {
      const g = grads.local[i]! as IsingGradients & { diagnostics?: ConvergenceDiagnostics };
      add(p, g.fields, g.couplings, g.diagnostics);
    });
    remote.forEach((p, i) => {
      const payload = grads.replies[i];
      if (payload === undefined)
        throw new Error('unreachable: a vjp job with a serial always reaches its worker');
      const k = p.range[1] - p.range[0];
      const d = fixedPoint
        ? readDiagnostics(payload, k * stride + stride * stride, k, tolerance)
        : undefined;
      add(
        p,
        payload.subarray(0, k * stride),
        payload.subarray(k * stride, k * stride + stride * stride),
        d,
      );
    });
    if (!fixedPoint) return { fields, couplings };
    const ordered = parts.map((p) => adjoint.get(p)!);
    return {
      fields,
      couplings,
      diagnostics: concatDiagnostics(ordered, tolerance),
    } as IsingGradients;
  };

  const result = fixedPoint
    ? { magnetization, vjp, diagnostics: concatDiagnostics(diagnostics, tolerance) }
    : { magnetization, logPartition, vjp };
  for (const p of parts)
    if (p.local === undefined)
      dropper.register(result, { pool, slot: p.slot, serial: p.serial, handle: p.handle });
  return result as unknown as E;
}
