// The pieces of a threaded estimate (threadedEstimate.ts) that its VJP (threadedVjp.ts) reads too:
// the parts of the batch, where each lives, and the fixed-point diagnostics read off a reply.
import { createIsingBatch } from '../../batch.js';
import type { BatchEstimate, ConvergenceDiagnostics, IsingBatch } from '../../types.js';
import type { ThreadedSamplerName } from './poolMessages.js';
import type { ExactWorkerPool } from './workerPool.js';

/** A part of the batch: its range, and either its own estimate (run here) or the worker holding it. */
export interface Part {
  readonly range: [number, number];
  readonly local?: BatchEstimate;
  readonly slot: number;
  readonly serial: number;
  readonly handle: number;
}

/** A threaded estimate once run: what its VJP needs. */
export interface SplitRun {
  readonly sampler: ThreadedSamplerName;
  readonly pool: ExactWorkerPool;
  /** The checked batch. */
  readonly checked: IsingBatch;
  /** In batch order; the first runs on the calling thread. */
  readonly parts: readonly Part[];
  /** Whether the sampler is a fixed-point one (diagnostics) rather than the transfer matrix (`log Z`). */
  readonly fixedPoint: boolean;
  readonly tolerance: number;
}

/** Problems `from … to − 1` of `batch` as a batch of their own (a copy). */
export function subBatch(batch: IsingBatch, [from, to]: [number, number]): IsingBatch {
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
export const whereOf = ([from, to]: [number, number]): string =>
  `on the worker thread running problems ${from}–${to - 1}; problem numbers above count from ${from}`;

/** The diagnostics of consecutive ranges as one, with `missed` recounted against `tolerance`. */
export function concatDiagnostics(
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

/** The diagnostics of `k` problems in a worker's reply: `k` iteration counts, then `k` residuals. */
export function readDiagnostics(
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
