// What a run's D-Wave calls did, for its record: the dwave sampler reports each call through its
// `onRun` hook (chain breaks, reads, QPU time), and this sums them.
import type { DwaveRunInfo } from '@boltzmann/quantum-adapters';
import type { DwaveRunSummary } from '../recordTypes.js';
import { runTally } from './runTally.js';
import type { RunTally } from './runTally.js';

/**
 * Two stretches of D-Wave calls together (either may be undefined: none), e.g. a resumed run's
 * earlier sessions (from its checkpoint) and this one.
 */
export function mergeDwaveRuns(
  a: DwaveRunSummary | undefined,
  b: DwaveRunSummary | undefined,
): DwaveRunSummary | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  const reads = a.reads + b.reads;
  return {
    calls: a.calls + b.calls,
    problems: a.problems + b.problems,
    reads,
    chainBreakFraction:
      reads > 0 ? (a.chainBreakFraction * a.reads + b.chainBreakFraction * b.reads) / reads : 0,
    maxProblemChainBreakFraction: Math.max(
      a.maxProblemChainBreakFraction,
      b.maxProblemChainBreakFraction,
    ),
    maxChainLength: Math.max(a.maxChainLength, b.maxChainLength),
    qpuAccessTimeUs: a.qpuAccessTimeUs + b.qpuAccessTimeUs,
  };
}

/** One D-Wave call as a summary: its reads, chain breaks, longest chain and QPU time. */
function dwaveCallSummary(info: DwaveRunInfo): DwaveRunSummary {
  let worst = 0;
  for (const f of info.chainBreakFractions) if (f > worst) worst = f;
  return {
    calls: 1,
    problems: info.chainBreakFractions.length,
    reads: info.reads,
    chainBreakFraction: info.chainBreakFraction,
    maxProblemChainBreakFraction: worst,
    maxChainLength: info.maxChainLength,
    qpuAccessTimeUs: info.qpuAccessTimeUs,
  };
}

/** Sums the run infos of a dwave sampler's calls. */
export type DwaveRunTally = RunTally<DwaveRunInfo, DwaveRunSummary>;

/**
 * A tally of D-Wave calls: their chain-break fraction over every read (each call's fraction
 * weighted by its reads), the worst problem's, the longest chain and the reported QPU time.
 *
 * @example
 * const tally = dwaveRunTally();
 * const sampler = createDwaveSampler({ onRun: tally.onRun });
 * await sampler.sample(batch); tally.total()?.chainBreakFraction;
 */
export const dwaveRunTally = (): DwaveRunTally => runTally(dwaveCallSummary, mergeDwaveRuns);
