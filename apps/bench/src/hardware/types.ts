// The shapes the hardware estimate's modules share (hardwareDryRun.ts, costLines.ts,
// hardwareGate.ts). A leaf: types only.
import type { Cost } from '@boltzmann/quantum-adapters';
import type { PendingRun } from '../grid/types.js';

/** Sampler calls and Ising problems (one per query position, head and sequence). */
export interface SamplerTraffic {
  readonly calls: number;
  readonly problems: number;
  /** D-Wave `POST problems/` requests: the dwave adapter submits at most `DWAVE_PROBLEMS_PER_SUBMIT` problems per request. */
  readonly submitRequests: number;
  /** IBM Sampler V2 jobs: the ibm adapter puts at most `pubsPerJob` circuits (one per problem) in a job. */
  readonly ibmJobs: number;
}

/** What a hardware grid's estimate found: its total cost and the circuit sizes below the fidelity threshold. */
export interface HardwareEstimate {
  /** The cost of the grid's runs still to train, when the sampler wrote an estimate. */
  readonly total: Cost | undefined;
  readonly below: readonly string[];
}

/** How `hardwareDryRun` runs: where its requests go and which runs are left to train. */
export interface DryRunOptions {
  /** The folder under the results folder the requests go to (default `dry-run`). */
  readonly folder?: string;
  /**
   * The runs left to train (a resumed grid's plan): finished runs are left out, resumed ones
   * counted from their checkpoint's step. Default: every run, from step 0.
   */
  readonly pending?: readonly PendingRun[];
}
