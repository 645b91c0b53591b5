// Types of the IBM Quantum Runtime client: its options, the client, and the session, job, status
// and metrics resources it reads. A leaf: types only.
import type { RetryPolicy } from '../shared/retry.js';
import type {
  IbmBackendConfiguration,
  IbmBackendProperties,
  IbmBackendStatus,
} from './ibmTypes.js';

/**
 * Options of {@link createRuntimeClient}.
 *
 * @category IBM Quantum
 */
export interface RuntimeClientOptions {
  /**
   * IBM Cloud API key; defaults to `process.env.IBM_CLOUD_API_KEY`. Sent only to `iamEndpoint`
   * (exchanged for a bearer token there), never to Runtime, never logged or put in a message.
   * Without any key the client can only be created with a `fetch` override (a test double): its
   * requests then carry no `Authorization` at all.
   */
  readonly apiKey?: string;
  /** The Runtime instance CRN, sent as `Service-CRN`; defaults to `IBM_QUANTUM_CRN`. Required unless `endpoint` is set. */
  readonly serviceCrn?: string;
  /** `'us-east'` (default) or `'eu-de'`; any other value is refused. */
  readonly region?: string;
  /** Full Runtime base URL (http or https), e.g. a local test server; overrides `region`. */
  readonly endpoint?: string;
  /** IAM token URL (http or https; default `https://iam.cloud.ibm.com/identity/token`). */
  readonly iamEndpoint?: string;
  /** `IBM-API-Version` header, a date `YYYY-MM-DD` (default {@link DEFAULT_IBM_API_VERSION}). */
  readonly apiVersion?: string;
  /** Deadline of one HTTP request (IAM's included), in ms (default 60 000). */
  readonly requestTimeoutMs?: number;
  /** Retry policy for retryable failures (429, 5xx, no answer). */
  readonly retry?: Partial<RetryPolicy>;
  /** Largest answer body read, in bytes (default 64 MiB, {@link DEFAULT_IBM_MAX_RESPONSE_BYTES}). */
  readonly maxResponseBytes?: number;
  /** The fetch implementation (default the global one). */
  readonly fetch?: typeof fetch;
  /** Seed of the backoff jitter. */
  readonly seed?: number;
  /** Receives one line per request and retry, the key and tokens redacted. */
  readonly debug?: (line: string) => void;
}

/**
 * A pub's parameter values: a dict keyed by the circuit's `input` names (preferred), or a positional
 * list (its order for OpenQASM 3 inputs is [UNCERTAIN]).
 * @category IBM Quantum
 */
export type SamplerPubParams =
  | Readonly<Record<string, number | readonly number[]>>
  | readonly (number | readonly number[])[];

/**
 * One Sampler V2 pub as sent: `[OpenQASM 3 text, parameter values or null, shots]`.
 *
 * @category IBM Quantum
 */
export type SamplerPub = readonly [qasm: string, params: SamplerPubParams | null, shots: number];

/**
 * What {@link RuntimeClient.submitSamplerJob} sends.
 *
 * @category IBM Quantum
 */
export interface SamplerJobRequest {
  /** Backend name, e.g. `ibm_fez`. */
  readonly backend: string;
  /** The pubs (ISA circuits). */
  readonly pubs: readonly SamplerPub[];
  /** Runs the job in this session (batch or dedicated). */
  readonly sessionId?: string;
  /** Job tags. */
  readonly tags?: readonly string[];
  /** Sampler V2 `options` (e.g. `{ default_shots, dynamical_decoupling, twirling }`), sent as given. */
  readonly options?: Readonly<Record<string, unknown>>;
  /** Most QPU seconds the job may use, sent as the top-level `cost` (an integer in [1, 10800]). */
  readonly maxExecutionTimeSeconds?: number;
}

/**
 * The answer of `POST /jobs`.
 *
 * @category IBM Quantum
 */
export interface SubmittedSamplerJob {
  readonly id: string;
  /** Warnings the service attached (`messages` of level warn, e.g. a nearly spent quota). */
  readonly warnings: readonly string[];
}

/**
 * A Runtime job's state as the Python client names it (API Completed → DONE, Failed → ERROR).
 *
 * @category IBM Quantum
 */
export type RuntimeJobState = 'QUEUED' | 'RUNNING' | 'DONE' | 'ERROR' | 'CANCELLED';

/**
 * `GET /jobs/{id}` reduced to its state.
 *
 * @category IBM Quantum
 */
export interface RuntimeJobStatus {
  readonly status: RuntimeJobState;
  /** Why it failed or was cancelled, when the service says. */
  readonly reason?: string;
}

/**
 * Session execution modes: `batch` (independent jobs, run as capacity allows) or `dedicated`.
 *
 * @category IBM Quantum
 */
export type RuntimeSessionMode = 'batch' | 'dedicated';

/**
 * What {@link RuntimeClient.createSession} sends.
 *
 * @category IBM Quantum
 */
export interface RuntimeSessionRequest {
  readonly backend: string;
  readonly mode: RuntimeSessionMode;
  /** Longest life of the session in seconds (`max_ttl`), within the plan's limits. */
  readonly maxTtlSeconds?: number;
}

/**
 * The answer of `POST /sessions`: its `id`, and whatever else the service returned.
 *
 * @category IBM Quantum
 */
export interface RuntimeSession {
  readonly id: string;
  readonly [key: string]: unknown;
}

/**
 * `GET /jobs/{id}/metrics`: the quantum time billed, when reported.
 *
 * @category IBM Quantum
 */
export interface RuntimeJobMetrics {
  /** `usage.quantum_seconds`, when present. */
  readonly quantumSeconds?: number;
  /** The whole answer. */
  readonly raw: Readonly<Record<string, unknown>>;
}

/**
 * A minimal Qiskit Runtime REST client over `fetch`.
 *
 * Every method honours `signal`, the request deadline and the client's retries, and throws only
 * AdapterErrors (the key and tokens redacted).
 * @category IBM Quantum
 */
export interface RuntimeClient {
  /** Runtime base URL in use, ending in `/`. */
  readonly endpoint: string;
  /** The `IBM-API-Version` sent. */
  readonly apiVersion: string;
  /** `GET backends/{name}/configuration`. */
  backendConfiguration(name: string, signal?: AbortSignal): Promise<IbmBackendConfiguration>;
  /** `GET backends/{name}/properties`; `undefined` on 404 (simulators have none). */
  backendProperties(name: string, signal?: AbortSignal): Promise<IbmBackendProperties | undefined>;
  /** `GET backends/{name}/status`. */
  backendStatus(name: string, signal?: AbortSignal): Promise<IbmBackendStatus>;
  /** `POST sessions` (not repeated once it may have reached the service). */
  createSession(request: RuntimeSessionRequest, signal?: AbortSignal): Promise<RuntimeSession>;
  /** `PATCH sessions/{id}` with `accepting_jobs: false`: its jobs still run; 404 is ignored. */
  closeSession(id: string, signal?: AbortSignal): Promise<void>;
  /** `POST jobs` with the `sampler` program (Sampler V2); not repeated once it may have been accepted. */
  submitSamplerJob(request: SamplerJobRequest, signal?: AbortSignal): Promise<SubmittedSamplerJob>;
  /** `GET jobs/{id}` reduced to its state and reason. */
  jobStatus(id: string, signal?: AbortSignal): Promise<RuntimeJobStatus>;
  /**
   * `GET jobs/{id}/results`: the parsed JSON (decode with `decodeSamplerResults`). `limit`, when
   * below the client's `maxResponseBytes`, bounds this answer (ADAPTER_RESPONSE_TOO_LARGE above it,
   * with its `advice`): the sampler derives it from the shots it asked for.
   */
  jobResults(id: string, signal?: AbortSignal, limit?: ResponseLimit): Promise<unknown>;
  /** `POST jobs/{id}/cancel`; a 409 (the job already ended) is ignored. */
  cancelJob(id: string, signal?: AbortSignal): Promise<void>;
  /** `GET jobs/{id}/metrics`. */
  jobMetrics(id: string, signal?: AbortSignal): Promise<RuntimeJobMetrics>;
}

/**
 * A byte limit for one answer that no option sets (it follows from the request), and what its refusal says.
 *
 * @category IBM Quantum
 */
export interface ResponseLimit {
  readonly maxBytes: number;
  /** The refusal's last sentence: why the limit is what it is, and whether a retry helps. */
  readonly advice: string;
}
