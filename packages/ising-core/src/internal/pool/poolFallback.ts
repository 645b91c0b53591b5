// The single-thread fallback: an exact task run on the calling thread, and the warning, said
// once per process, that worker threads cannot run.
import { emitWarning } from '../../nodeBuiltin.js';
import { exactBackward, exactForward } from '../kernels/exactKernel.js';
import type { TaskResult, WorkerTask } from './poolMessages.js';

let warnedFallback = false;

/** Says once per process that worker threads cannot run, why, and that work runs on the calling thread. */
export function warnFallback(reason = 'worker threads could not start'): void {
  if (warnedFallback) return;
  warnedFallback = true;
  emitWarning(
    `ising-core: ${reason}; running every batch on the calling thread`,
    'ISING_THREADS_UNAVAILABLE',
  );
}

/** Runs an exact-kernel task on the calling thread (what a worker would have done). */
export function runLocally(task: WorkerTask): TaskResult {
  return task.kind === 'forward'
    ? exactForward(task.problems)
    : exactBackward(task.problems, { up: task.up, norm: task.norm }, task.grad);
}
