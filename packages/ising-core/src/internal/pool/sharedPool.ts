// The process's shared ExactWorkerPool, started lazily, and the calls that run tasks on it.
import type { TaskResult, WorkerTask } from './poolMessages.js';
import { ExactWorkerPool } from './workerPool.js';

let pool: ExactWorkerPool | undefined;

/** Runs each task on its own worker (task `i` on worker `i`) of `target` (default: the shared pool); results in task order. */
export function runOnWorkers(
  tasks: readonly WorkerTask[],
  target?: ExactWorkerPool,
): Promise<TaskResult[]> {
  const p = target ?? sharedPool();
  return Promise.all(tasks.map((task, i) => p.run(task, i)));
}

/** {@link ExactWorkerPool.runSync} on `target` (default: the shared pool). */
export function runOnWorkersSync(
  tasks: readonly WorkerTask[],
  target?: ExactWorkerPool,
): TaskResult[] {
  const p = target ?? sharedPool();
  return p.runSync(tasks);
}

/** The process's shared pool (started lazily; the exact path and the threaded samplers use it). */
export function sharedPool(): ExactWorkerPool {
  pool ??= new ExactWorkerPool();
  return pool;
}

/** Number of live workers in the shared pool (0 before the first parallel call). For tests and diagnostics. */
export function sharedPoolSize(): number {
  return pool?.size ?? 0;
}

/** Terminates the exact-enumeration workers; the next parallel call starts new ones. Safe to call twice. */
export async function disposeWorkerPool(): Promise<void> {
  const p = pool;
  pool = undefined;
  if (p !== undefined) await p.dispose();
}
