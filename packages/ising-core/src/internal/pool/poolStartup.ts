// How long and how the pool waits for a worker to start (its shared start-up flag).

/** What start-up knows of a pool worker: its shared flag and its start-up promise. */
export interface StartingWorker {
  /** Shared start-up flag: 0 starting, 1 ready, −1 failed (readable while this thread is blocked). */
  readonly ready: Int32Array;
  /** Resolves true once the worker's module loaded, false if it failed to start. */
  readonly started: Promise<boolean>;
}

/** How long a synchronous call waits for a worker to start (tsx bootstraps take ~1 s). */
export const STARTUP_TIMEOUT_MS = 20_000;

/** Blocks until the shared start-up flag leaves 0 (or the start-up time-out); the flag: 1 up, −1 failed, 0 timed out. */
export function waitStarted(ready: Int32Array): number {
  if (Atomics.load(ready, 0) === 0) Atomics.wait(ready, 0, 0, STARTUP_TIMEOUT_MS);
  return Atomics.load(ready, 0) === 0 ? -1 : Atomics.load(ready, 0);
}

/** Resolves whether `pw` came up within `ms`; one that did not is marked failed (a synchronous caller then skips it). */
export async function startedWithin(pw: StartingWorker, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const up = await Promise.race([pw.started, late]);
  clearTimeout(timer);
  if (!up && Atomics.load(pw.ready, 0) === 0) Atomics.store(pw.ready, 0, -1);
  return up;
}
