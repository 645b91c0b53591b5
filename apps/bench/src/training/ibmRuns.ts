// What a run's IBM calls did, for its record: the ibm sampler reports each call through its
// `onRun` hook (the jobs, and the Trotter steps and expected fidelity it chose for each spin
// count), and this sums them.
import type { IbmRunInfo } from '@boltzmann/quantum-adapters';
import type { IbmRunSummary } from '../recordTypes.js';
import { runTally } from './runTally.js';
import type { RunTally } from './runTally.js';

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

/** One IBM call as a summary: its jobs, shots and each spin count's step choice. */
function ibmCallSummary(info: IbmRunInfo): IbmRunSummary {
  return {
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
}

/** Sums the run infos of an ibm sampler's calls. */
export type IbmRunTally = RunTally<IbmRunInfo, IbmRunSummary>;

/** A tally of IBM calls: their count, jobs, shots and each spin count's step choice. */
export const ibmRunTally = (): IbmRunTally => runTally(ibmCallSummary, mergeIbmRuns);
