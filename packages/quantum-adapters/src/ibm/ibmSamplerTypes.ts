// Public types of the ibm sampler: its options, what one run did, and the sampler itself.
import type { QasmOptions } from '@boltzmann/dqa-sim';
import type { IsingBatch, SampleResult, Sampler } from '@boltzmann/ising-core';
import type { DryRunOptions } from '../shared/dryRun.js';
import type { StepChoice } from './trotterSteps.js';
import type { PollBackoff } from '../shared/retry.js';
import type { RetryPolicy } from '../shared/retry.js';
import type { IbmBackendConfiguration, IbmBackendProperties } from './ibmTypes.js';

/**
 * Options of the `ibm` sampler (IBM Quantum, Qiskit Runtime Sampler V2).
 *
 * @category IBM Quantum
 */
export interface IbmSamplerOptions {
  /** IBM Cloud API key (default: `IBM_CLOUD_API_KEY`). Sent only to IAM, never written anywhere. */
  readonly apiKey?: string;
  /** The Qiskit Runtime instance CRN (default: `IBM_QUANTUM_CRN`); required for real runs. */
  readonly serviceCrn?: string;
  /** `'us-east'` (default) or `'eu-de'`. */
  readonly region?: string;
  /** Runtime base URL override (http or https), e.g. a local test server; replaces the region's. */
  readonly endpoint?: string;
  /** IAM token URL override (http or https); the API key goes only here. */
  readonly iamEndpoint?: string;
  /** `IBM-API-Version` header, a date `YYYY-MM-DD` (default the client's pinned date). */
  readonly apiVersion?: string;
  /**
   * Backend name, e.g. `ibm_fez` (required for real runs). A dry run routes onto `device` when given,
   * else onto the recorded snapshot of this backend (`ibm_fez`, the default, or `ibm_brisbane`).
   */
  readonly backend?: string;
  /**
   * The backend's `configuration` (and optionally `properties`) given directly instead of read from
   * Runtime: a dry run uses it to route circuits without any request.
   */
  readonly device?: {
    readonly configuration: IbmBackendConfiguration;
    readonly properties?: IbmBackendProperties;
  };
  /** Shots per problem (default 1000, at most 100,000: the `max_shots` IBM backends report). */
  readonly shots?: number;
  /** DQA circuit options passed to dqa-sim (default: dqa-sim's defaults with `calibrate: 'linear-response'`). */
  readonly anneal?: Omit<QasmOptions, 'dialect' | 'measure' | 'beta'>;
  /** Couplings as fractional `rzz` when the backend offers it (default false). */
  readonly fractionalGates?: boolean;
  /**
   * The expected circuit fidelity (Π (1 − ε) over gates and readouts, from the calibration) the
   * Trotter steps are chosen by when `anneal.steps` is not given: the most steps (≤ 64, at τ/K = 0.25)
   * whose circuit stays at or above it (default 0.25).
   */
  readonly minFidelity?: number;
  /** Refuse (ADAPTER_LOW_FIDELITY) a real run whose circuits fall below `minFidelity` (default false: run, and report it). */
  readonly strictFidelity?: boolean;
  /** `'batch'` (default): the call's jobs run in one Runtime batch; `'none'`: plain jobs. */
  readonly sessionMode?: 'batch' | 'none';
  /** Sampler V2 dynamical decoupling, sent as `params.options.dynamical_decoupling` (default: the service's, off). */
  readonly dynamicalDecoupling?: IbmDynamicalDecoupling;
  /** Sampler V2 Pauli twirling, sent as `params.options.twirling` (default: the service's, off). */
  readonly twirling?: IbmTwirling;
  /**
   * Most QPU seconds each job may use, sent as the job's top-level `cost` (what the Python client
   * sends for `max_execution_time`): an integer in [1, 10800]; the service cancels a job that
   * exceeds it, and caps it at its own limit. Default: none sent (the service's limit).
   */
  readonly maxExecutionTimeSeconds?: number;
  /**
   * Tags added to every job's `tags`, after `'boltzmann-attention'` (always sent). IBM's REST API
   * documents no job priority field, so there is no priority option.
   */
  readonly tags?: readonly string[];
  /**
   * Most `POST jobs` per minute (default 5: "rate limited to 5 jobs per minute per user", IBM's
   * Qiskit Runtime REST reference); one sampler's submissions wait for a free slot of any
   * 60-second window.
   */
  readonly maxJobsPerMinute?: number;
  /** Most pubs (circuits) per job (default: the backend's `max_experiments`, else 300, capped at this). */
  readonly maxPubsPerJob?: number;
  /** Largest spin count (= qubits on the path) accepted (default 16). */
  readonly maxSpins?: number;
  /** Deadline of one HTTP request in ms (default 60 000). */
  readonly requestTimeoutMs?: number;
  /** Retry policy for retryable failures. */
  readonly retry?: Partial<RetryPolicy>;
  /** Deadline of one `sample()` call in ms (default 2 hours: jobs queue; at most 30 days). */
  readonly deadlineMs?: number;
  /** Pause between job status polls (default 1 s × 1.5^k, capped at 30 s). */
  readonly pollBackoff?: Partial<PollBackoff>;
  /** Largest Runtime answer read, in bytes (default 64 MiB). */
  readonly maxResponseBytes?: number;
  /** The fetch implementation (default the global fetch). */
  readonly fetch?: typeof fetch;
  /** Seed of the retry jitter. */
  readonly seed?: number;
  /** Write the IAM, session and job requests (key redacted) and the routed circuits instead of sending them. */
  readonly dryRun?: DryRunOptions;
  /** Called after each successful run. */
  readonly onRun?: (info: IbmRunInfo) => void;
  /**
   * Receives one line per IAM and Runtime request, job poll and retry, the key and tokens
   * redacted: the progress of jobs that queue for minutes or hours.
   */
  readonly debug?: (line: string) => void;
}

/**
 * What one `sample()` call did.
 *
 * @category IBM Quantum
 */
export interface IbmRunInfo {
  readonly backend: string;
  /** Runtime job ids, in submission order. */
  readonly jobIds: readonly string[];
  /** The batch session, when one was opened. */
  readonly sessionId?: string;
  readonly shots: number;
  /** Physical qubits each problem of n spins ran on, by n. */
  readonly layouts: Readonly<Record<number, readonly number[]>>;
  /** The Trotter steps, anneal time and expected fidelity of each spin count's circuits. */
  readonly steps: readonly StepChoice[];
}

/**
 * An `ibm` sampler: asynchronous `sample()`, plus the description of the latest run.
 *
 * @category IBM Quantum
 */
export interface IbmSampler extends Sampler {
  sample(batch: IsingBatch): Promise<SampleResult>;
  lastRunInfo(): IbmRunInfo | undefined;
}

/**
 * Sampler V2 `dynamical_decoupling` (qiskit-ibm-runtime `options/dynamical_decoupling_options.py`),
 * in camelCase; each field is sent under its snake_case name only when given.
 */
export interface IbmDynamicalDecoupling {
  /** `enable` (service default false). */
  readonly enable?: boolean;
  /** `sequence_type` (service default `'XX'`). */
  readonly sequenceType?: 'XX' | 'XpXm' | 'XY4';
  /** `extra_slack_distribution` (service default `'middle'`). */
  readonly extraSlackDistribution?: 'middle' | 'edges';
  /** `scheduling_method` (service default `'alap'`). */
  readonly schedulingMethod?: 'alap' | 'asap';
  /** `skip_reset_qubits` (service default false). */
  readonly skipResetQubits?: boolean;
}

/**
 * Sampler V2 `twirling` (qiskit-ibm-runtime `options/twirling_options.py`), in camelCase; each
 * field is sent under its snake_case name only when given. The pub's shots are kept either way.
 */
export interface IbmTwirling {
  /** `enable_gates`: twirl 2-qubit Clifford gates (Sampler default false). */
  readonly enableGates?: boolean;
  /** `enable_measure`: twirl measurements (Sampler default false). */
  readonly enableMeasure?: boolean;
  /** `num_randomizations`: an integer ≥ 1 or `'auto'` (default). */
  readonly numRandomizations?: number | 'auto';
  /** `shots_per_randomization`: an integer ≥ 1 or `'auto'` (default). */
  readonly shotsPerRandomization?: number | 'auto';
  /** `strategy` (service default `'active-accum'`). */
  readonly strategy?: 'active' | 'active-accum' | 'active-circuit' | 'all';
}
