import type { BatchEstimate, Sampler } from '@boltzmann/ising-core';
import { bruteForceEstimate } from '@boltzmann/ising-core/testing';

/**
 * The tests' independent reference for the layer: ising-core/testing's brute-force estimate
 * (moments and covariance VJPs state by state, O(n² 2^n) per problem) as a sampler.
 */
export function createReferenceSampler(name = 'reference'): Sampler {
  return {
    name,
    capabilities: { exact: true, maxSpins: 12, async: false, deterministic: true },
    estimate: bruteForceEstimate,
  };
}

/** The reference sampler answering through a promise that resolves after a timer (a stand-in for remote hardware). */
export function createDelayedSampler(inner: Sampler, delayMs = 1): Sampler {
  return {
    name: `${inner.name}-delayed`,
    capabilities: { ...inner.capabilities, async: true },
    estimate: (batch) =>
      new Promise<BatchEstimate>((resolve, reject) => {
        setTimeout(() => {
          try {
            resolve(inner.estimate!(batch) as BatchEstimate);
          } catch (error) {
            reject(error);
          }
        }, delayMs);
      }),
  };
}
