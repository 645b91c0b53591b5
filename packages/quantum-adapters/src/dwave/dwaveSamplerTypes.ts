// Public types of the dwave sampler: its options, what one run did, and the sampler itself.
import type { IsingBatch, SampleResult, Sampler } from '@boltzmann/ising-core';
import type { DryRunOptions } from '../shared/dryRun.js';
import type { DwaveSolverFilter } from './dwaveSolver.js';
import type { Embedding, LogicalIsing } from '../embedding/embedding.js';
import type { PollBackoff } from '../shared/retry.js';
import type { SapiClientOptions, SapiSolver } from './sapiTypes.js';

/**
 * Options of the `dwave` sampler (all optional; the token may come from `DWAVE_API_TOKEN`).
 *
 * @category D-Wave
 */
export interface DwaveSamplerOptions extends SapiClientOptions {
  /** Solver name, or a filter (default: the least-loaded online QPU accepting `ising`). */
  readonly solver?: string | DwaveSolverFilter;
  /** Reads per problem (`num_reads`, default 100). */
  readonly numReads?: number;
  /** SAPI `auto_scale` (default true, SAPI's default). See the README on β and scaling. */
  readonly autoScale?: boolean;
  /** Extra SAPI parameters (`annealing_time`, `x_…`); they override the adapter's. */
  readonly params?: Readonly<Record<string, unknown>>;
  /** Chains per logical variable for the largest problem; smaller problems use the first chains. */
  readonly embedding?: Embedding;
  /** Fixed chain strength, or a rule; default {@link uniformTorqueCompensation} (prefactor 1.414) per problem. */
  readonly chainStrength?: number | ((problem: LogicalIsing) => number);
  /** Seed of the majority-vote tie coin and of the retry jitter (default 0). */
  readonly seed?: number;
  /** Deadline of one `sample()` call, submission to last answer, in ms (default 15 minutes). */
  readonly deadlineMs?: number;
  /** Long-poll wait per status request, 1–30 s (default 30). */
  readonly pollTimeoutSeconds?: number;
  /** Pause between status polls (default 50 ms × 1.3^k, capped at 5 s). */
  readonly pollBackoff?: Partial<PollBackoff>;
  /** Problem label shown in the Leap dashboard (default `boltzmann-attention`). */
  readonly label?: string;
  /** Largest spin count accepted (default 64, the K64 clique of a Chimera C16). */
  readonly maxSpins?: number;
  /** Solver definition to use without listing (dry runs use a full-yield Pegasus P16 stand-in when absent). */
  readonly solverDefinition?: SapiSolver;
  /** Write the requests (token redacted) and BQM files instead of sending them. */
  readonly dryRun?: DryRunOptions;
  /** Called after every successful run with the same object `lastRunInfo()` returns. */
  readonly onRun?: (info: DwaveRunInfo) => void;
}

/**
 * What one `sample()` call did.
 *
 * @category D-Wave
 */
export interface DwaveRunInfo {
  /** Solver id (`name;graph_id=…`). */
  readonly solver: string;
  /** SAPI problem ids, one per batch problem. */
  readonly problemIds: readonly string[];
  /** Chain strength used per problem (in submitted, β-scaled units). */
  readonly chainStrengths: readonly number[];
  /**
   * Per problem, the fraction of its chains broken in a read (qubits of one chain that disagree),
   * averaged over its reads: dwave-system's `chain_break_fraction` (`broken_chains(...).mean(axis=1)`,
   * dwave/embedding/transforms.py @47a633bc3839) weighted by each answer row's `num_occurrences`.
   */
  readonly chainBreakFractions: readonly number[];
  /** The same over every read of the call (each problem's fraction weighted by its reads). */
  readonly chainBreakFraction: number;
  /** Reads of the call, all problems together (the sum of the answers' `num_occurrences`). */
  readonly reads: number;
  /** Sum of `timing.qpu_access_time` over the answers, µs (0 when absent). */
  readonly qpuAccessTimeUs: number;
  /** Length of the longest chain. */
  readonly maxChainLength: number;
}

/**
 * A `dwave` sampler: `sample()` is asynchronous; `lastRunInfo()` describes the latest successful call.
 *
 * @category D-Wave
 */
export interface DwaveSampler extends Sampler {
  sample(batch: IsingBatch): Promise<SampleResult>;
  lastRunInfo(): DwaveRunInfo | undefined;
}
