/**
 * ising-core's threads in the training worker: its sampler workers are Web Workers that Vite
 * bundles from `@boltzmann/ising-core/worker`, started once, before the first training step (a
 * Web Worker only starts while its creator is free). They need a cross-origin-isolated page.
 */
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
  const info = await startThreads('auto');
  return info.available ? info : { ...info, reason: 'the sampler workers failed to start' };
}
