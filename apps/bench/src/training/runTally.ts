// A hardware sampler's calls summed as they come: each call's report (its `onRun` hook) becomes a
// one-call summary, merged into the total by the same merge that joins a resumed run's sessions.

/** Sums the run infos of a sampler's calls. */
export interface RunTally<Info, Summary> {
  /** The sampler's `onRun` hook. */
  readonly onRun: (info: Info) => void;
  /** The calls so far, or undefined before the first. */
  total(): Summary | undefined;
}

/**
 * A tally whose total is `merge` over the one-call summaries `one` makes of each report.
 *
 * @example
 * const tally = runTally(ibmCallSummary, mergeIbmRuns);
 * const sampler = createIbmSampler({ onRun: tally.onRun });
 */
export function runTally<Info, Summary>(
  one: (info: Info) => Summary,
  merge: (a: Summary | undefined, b: Summary | undefined) => Summary | undefined,
): RunTally<Info, Summary> {
  let summary: Summary | undefined;
  return {
    onRun(info) {
      summary = merge(summary, one(info));
    },
    total: () => summary,
  };
}
