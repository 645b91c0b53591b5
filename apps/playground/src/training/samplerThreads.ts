/**
 * The threads of the training worker: ising-core's sampler workers and the attention engine's,
 * Web Workers that Vite bundles from `@boltzmann/ising-core/worker` and
 * `@boltzmann/attention/engine-worker`. The sampler's start once, before the first training step
 * (a Web Worker only starts while its creator is free); the engine's when a run on 2 threads
 * starts. Both need a cross-origin-isolated page.
 */
import { setEngineWorkerFactory } from '@boltzmann/attention';
import EngineWorker from '@boltzmann/attention/engine-worker?worker';
import { setWorkerFactory, startThreads, threadInfo } from '@boltzmann/ising-core';
import type { ThreadInfo } from '@boltzmann/ising-core';
import IsingWorker from '@boltzmann/ising-core/worker?worker';

/** What the page shows about sampler threads. */
export interface SamplerThreads extends ThreadInfo {
  /** Why there is only the calling thread, when there is. */
  readonly reason?: string;
}

/** Starts the sampler workers this page can have (its cores, when it is cross-origin isolated). */
export async function startSamplerThreads(): Promise<SamplerThreads> {
  if (globalThis.crossOriginIsolated !== true) {
    return { ...threadInfo(), reason: 'the page is not cross-origin isolated (COOP/COEP headers)' };
  }
  setWorkerFactory(() => new IsingWorker());
  setEngineWorkerFactory(() => new EngineWorker());
  const info = await startThreads('auto');
  return info.available ? info : { ...info, reason: 'the sampler workers failed to start' };
}
