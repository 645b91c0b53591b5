// How a run's sampler is named on screen and in reports (grid/whatRuns.ts, report/writeReport.ts).
import { usesSampler } from '@boltzmann/ising-core';
import type { RunConfig } from './types.js';

/** A run's sampler and options as shown: `dqa {"shots":256}`, or `no sampler` for softmax-like variants. */
export function samplerText(c: RunConfig): string {
  if (c.sampler === 'none' || !usesSampler(c.variant)) return 'no sampler';
  const options = JSON.stringify(c.samplerOptions);
  return options === '{}' ? c.sampler : `${c.sampler} ${options}`;
}
