// What a run's IBM calls did, for its record: the ibm sampler reports each call through its
// `onRun` hook (the jobs, and the Trotter steps and expected fidelity it chose for each spin
// count), and this sums them.
import type { IbmRunInfo } from '@boltzmann/quantum-adapters';
import type { IbmRunSummary } from '../types.js';

/** Earlier sessions' IBM calls (from the checkpoint) and this one's: counts add, the latest choices hold. */
export function mergeIbmRuns(
  a: IbmRunSummary | undefined,
  b: IbmRunSummary | undefined,
): IbmRunSummary | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  const bySpins = new Map(a.steps.map((s) => [s.spins, s]));
  for (const s of b.steps) bySpins.set(s.spins, s);
  return {
    backend: b.backend,
    calls: a.calls + b.calls,
    jobs: a.jobs + b.jobs,
    shots: b.shots,
    steps: [...bySpins.values()].sort((x, y) => x.spins - y.spins),
  };
}

/** Sums the run infos of an ibm sampler's calls. */
export interface IbmRunTally {
  /** The sampler's `onRun` hook. */
  readonly onRun: (info: IbmRunInfo) => void;
  /** The calls so far, or undefined before the first. */
  total(): IbmRunSummary | undefined;
}

/** A tally of IBM calls: their count, jobs, shots and each spin count's step choice. */
export function ibmRunTally(): IbmRunTally {
  let summary: IbmRunSummary | undefined;
  return {
    onRun(info) {
      const call: IbmRunSummary = {
        backend: info.backend,
        calls: 1,
        jobs: info.jobIds.length,
        shots: info.shots,
        steps: info.steps.map(({ spins, steps, tau, fidelity, source, belowThreshold }) => ({
          spins,
          steps,
          tau,
          ...(fidelity === undefined ? {} : { fidelity }),
          source,
          belowThreshold,
        })),
      };
      summary = mergeIbmRuns(summary, call);
    },
    total: () => summary,
  };
}
