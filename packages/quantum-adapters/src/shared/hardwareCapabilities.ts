import type { SamplerCapabilities } from '@boltzmann/ising-core';

/** What a hardware sampler (D-Wave, Braket, IBM) offers: remote, asynchronous, sampled, with a dry-run mode, up to `maxSpins` spins. */
export const hardwareCapabilities = (maxSpins: number): SamplerCapabilities => ({
  exact: false,
  maxSpins,
  async: true,
  deterministic: false,
  dryRun: true,
  remote: true,
});
