// The pool's message protocol: what a worker is asked (tasks) and how it answers, errors included.
import { IsingError } from '../../errors.js';
import type { IsingErrorCode } from '../../errors.js';
import type { ExactForwardResult, ExactProblems } from '../kernels/exactKernel.js';
import type { SyncReply } from './syncReply.js';

/** The built-in samplers a worker can run on a sub-batch (see `threadedEstimate.ts`). */
export type ThreadedSamplerName = 'mean-field' | 'tap' | 'transfer-matrix';

/** A contiguous sub-batch as plain arrays a worker can own. */
export interface SubBatch {
  readonly stride: number;
  readonly beta: number;
  readonly spins: Int32Array;
  readonly fields: Float64Array;
  readonly couplings: Float64Array;
}

/**
 * Sampler tasks: `sampler-estimate` builds the sampler from its plugin with `options` (validated,
 * plain data), estimates `batch` and keeps the estimate under `handle` for `sampler-vjp`;
 * `sampler-drop` frees a handle (no answer). Each answers a flat payload of `replyLength` values.
 */
export type SamplerTask =
  | {
      readonly kind: 'sampler-estimate';
      readonly sampler: ThreadedSamplerName;
      readonly options: Readonly<Record<string, unknown>>;
      readonly batch: SubBatch;
      readonly handle: number;
      readonly replyLength: number;
    }
  | {
      readonly kind: 'sampler-vjp';
      readonly handle: number;
      readonly grad: Float64Array;
      readonly replyLength: number;
    }
  | { readonly kind: 'sampler-drop'; readonly handle: number };

/** An exact-kernel unit of work for one thread. */
export type WorkerTask =
  | { readonly kind: 'forward'; readonly problems: ExactProblems }
  | {
      readonly kind: 'backward';
      readonly problems: ExactProblems;
      readonly up: Float64Array;
      readonly norm: Float64Array;
      readonly grad: Float64Array;
    };

/** A message to a worker: one task, answered by message or (when `sync` is set) through shared memory. */
export interface WorkerRequest {
  readonly id: number;
  readonly task: PoolTask;
  /** Set for synchronous calls: the worker answers through shared memory instead of a message. */
  readonly sync?: SyncReply;
}

/** Gradients a backward task returns (compact rows and a partial `∂L/∂J`). */
export type BackwardResult = { fields: Float64Array; couplings: Float64Array };

/** A worker's message answer to an asynchronous task. */
export type WorkerReply =
  | { readonly id: number; readonly ok: true; readonly forward: ExactForwardResult }
  | { readonly id: number; readonly ok: true; readonly backward: BackwardResult }
  | { readonly id: number; readonly ok: false; readonly message: string };

/** What an exact-kernel task gives back. */
export type TaskResult = ExactForwardResult | BackwardResult;

/** Anything a worker runs: an exact-kernel task or a sampler task. */
export type PoolTask = WorkerTask | SamplerTask;

/** A worker failure's text starts with `[CODE] ` when the worker threw an {@link IsingError}. */
export function codedMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return error instanceof IsingError ? `[${error.code}] ${message}` : message;
}

/** Rebuilds the error a worker reported: its own IsingError code when it had one, else ISING_WORKER_FAILED. */
export function workerError(what: string, message: string): IsingError {
  const coded = /^\[(ISING_[A-Z_]+)\] ([\s\S]*)$/.exec(message);
  if (coded !== null) return new IsingError(coded[1] as IsingErrorCode, coded[2]!);
  return new IsingError('ISING_WORKER_FAILED', `${what} worker failed: ${message}`);
}

/** The buffers a posted task transfers to its worker (they detach on this side). */
export function transferList(task: PoolTask): ArrayBuffer[] {
  if (task.kind === 'sampler-estimate')
    return [task.batch.spins, task.batch.fields, task.batch.couplings].map(
      (a) => a.buffer as ArrayBuffer,
    );
  if (task.kind === 'sampler-vjp') return [task.grad.buffer as ArrayBuffer];
  if (task.kind === 'sampler-drop') return [];
  const arrays = [task.problems.couplings, task.problems.spins, task.problems.fields];
  if (task.kind === 'backward') arrays.push(task.up, task.norm, task.grad);
  return arrays.map((a) => a.buffer as ArrayBuffer);
}
