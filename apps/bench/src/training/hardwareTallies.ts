// The hardware samplers' reports of their calls, kept for a run's record and checkpoint: the dwave
// sampler's chain breaks and QPU time (dwaveRuns.ts), the ibm sampler's jobs and chosen Trotter
// steps with their expected fidelity (ibmRuns.ts). Each reports through its `onRun` hook.
import type { DwaveRunSummary, IbmRunSummary } from '../recordTypes.js';
import { dwaveRunTally, mergeDwaveRuns } from './dwaveRuns.js';
import type { DwaveRunTally } from './dwaveRuns.js';
import { ibmRunTally, mergeIbmRuns } from './ibmRuns.js';
import type { IbmRunTally } from './ibmRuns.js';

/** What the record and checkpoint keep of a run's hardware calls (each absent without such calls). */
export interface HardwareRuns {
  readonly dwave?: DwaveRunSummary;
  readonly ibm?: IbmRunSummary;
}

/** The tallies of one run's sampler. */
export interface HardwareTallies {
  readonly dwave: DwaveRunTally;
  readonly ibm: IbmRunTally;
}

export const hardwareTallies = (): HardwareTallies => ({
  dwave: dwaveRunTally(),
  ibm: ibmRunTally(),
});

/** The options that make the run's sampler report its calls (none for other samplers). */
export function hardwareHooks(
  sampler: string,
  t: HardwareTallies,
): { onRun?: (info: never) => void } {
  if (sampler === 'dwave') return { onRun: t.dwave.onRun as (info: never) => void };
  if (sampler === 'ibm') return { onRun: t.ibm.onRun as (info: never) => void };
  return {};
}

/** The calls so far. */
export function hardwareRunsOf(t: HardwareTallies): HardwareRuns {
  const dwave = t.dwave.total();
  const ibm = t.ibm.total();
  return { ...(dwave === undefined ? {} : { dwave }), ...(ibm === undefined ? {} : { ibm }) };
}

/** Earlier sessions' calls (from the checkpoint) and this session's. */
export function mergeHardwareRuns(before: HardwareRuns, now: HardwareRuns): HardwareRuns {
  const dwave = mergeDwaveRuns(before.dwave, now.dwave);
  const ibm = mergeIbmRuns(before.ibm, now.ibm);
  return { ...(dwave === undefined ? {} : { dwave }), ...(ibm === undefined ? {} : { ibm }) };
}
