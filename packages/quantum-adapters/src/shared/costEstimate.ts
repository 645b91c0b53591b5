// What a hardware sampler's calls would cost, reckoned before anything is sent: each adapter's dry
// run writes one `CostEstimate` as `estimate.json` beside its requests (`ibm-0001/estimate.json`,
// `dwave-0001/…`, `braket-0001/…`), in unit costs that a caller scales by its own traffic (the
// bench multiplies them by the problems and jobs of a step and of a whole grid, and checks the
// total against `--budget`).

/**
 * A cost in the units providers bill: QPU seconds (IBM, D-Wave) and US dollars (Braket).
 *
 * @category Dry runs and costs
 */
export interface Cost {
  /** Billed QPU seconds (IBM: the time the QPU is locked; D-Wave: QPU access time). */
  readonly qpuSeconds?: number;
  /** US dollars at the documented rates named in `rates`. */
  readonly usd?: number;
}

/**
 * A limit to print beside an estimate, e.g. IBM's Open Plan: 600 QPU seconds a 28-day window.
 *
 * @category Dry runs and costs
 */
export interface CostLimit extends Cost {
  /** What the limit is and where it is documented. */
  readonly what: string;
}

/**
 * The unit costs of one provider's calls, with how each was reckoned.
 *
 * @category Dry runs and costs
 */
export interface CostEstimate {
  readonly provider: 'ibm' | 'dwave' | 'braket';
  /** What one problem costs (one circuit of an IBM job, one D-Wave problem, one Braket task). */
  readonly perProblem: Cost;
  /** What one job adds beside its problems (IBM: the per-job overhead; D-Wave, Braket: none). */
  readonly perJob: Cost;
  /** Problems one job carries at most (IBM: pubs per job; D-Wave: problems per submit; Braket: 1). */
  readonly problemsPerJob: number;
  /** The call the dry run wrote: its problems and jobs, and their cost by the unit costs. */
  readonly call: Cost & { readonly problems: number; readonly jobs: number };
  /** The most jobs the adapter submits a minute (IBM's documented rate limit), when it paces them. */
  readonly maxJobsPerMinute?: number;
  /** Documented limits to show beside the totals (none when the provider documents none). */
  readonly limits: readonly CostLimit[];
  /** How each figure was reckoned: the sources and dates of rates, defaults, what is left out. */
  readonly assumptions: readonly string[];
}

/**
 * The cost of `problems` problems in `jobs` jobs at `estimate`'s unit costs.
 *
 * @category Dry runs and costs
 */
export function costOf(estimate: CostEstimate, problems: number, jobs: number): Cost {
  const sum = (unit: 'qpuSeconds' | 'usd'): number | undefined => {
    const p = estimate.perProblem[unit];
    const j = estimate.perJob[unit];
    if (p === undefined && j === undefined) return undefined;
    return (p ?? 0) * problems + (j ?? 0) * jobs;
  };
  const qpuSeconds = sum('qpuSeconds');
  const usd = sum('usd');
  return {
    ...(qpuSeconds === undefined ? {} : { qpuSeconds }),
    ...(usd === undefined ? {} : { usd }),
  };
}
