// How long and how the pool waits for a worker to start (its shared start-up flag).
import type { PoolWorker } from './workerPool.js';

/** How long a synchronous call waits for a worker to start (tsx bootstraps take ~1 s). */
export const STARTUP_TIMEOUT_MS = 20_000;

/** Blocks until the shared start-up flag leaves 0 (or the start-up time-out); the flag: 1 up, −1 failed, 0 timed out. */
export function waitStarted(ready: Int32Array): number {
  if (Atomics.load(ready, 0) === 0) Atomics.wait(ready, 0, 0, STARTUP_TIMEOUT_MS);
  return Atomics.load(ready, 0) === 0 ? -1 : Atomics.load(ready, 0);
}

/** Resolves whether `pw` came up within `ms`; one that did not is marked failed (a synchronous caller then skips it). */
export async function startedWithin(pw: PoolWorker, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const up = await Promise.race([pw.started, late]);
  clearTimeout(timer);
  if (!up && Atomics.load(pw.ready, 0) === 0) Atomics.store(pw.ready, 0, -1);
  return up;
}
