// Types of the SAPI v3 client: its options, the client, and the solver/problem/job resources.
import type { AdapterError } from '../shared/errors.js';
import type { RetryPolicy } from '../shared/retry.js';
import type { QpProblemData } from './qpCodec.js';

/**
 * Options of {@link createSapiClient}.
 *
 * @category D-Wave
 */
export interface SapiClientOptions {
  /** SAPI token; defaults to `process.env.DWAVE_API_TOKEN`. Never logged or put in error messages. */
  readonly token?: string;
  /** Region code (default `na-west-1`) → `https://<region>.cloud.dwavesys.com/sapi/v2/`. */
  readonly region?: string;
  /** Full SAPI base URL (http or https); overrides `region` (e.g. a local test server). Checked at creation. */
  readonly endpoint?: string;
  /**
   * Largest answer body read, in bytes (default 64 MiB, {@link DEFAULT_SAPI_MAX_RESPONSE_BYTES}): a
   * larger `Content-Length` is refused before reading, and a body that grows past it is cut off
   * (its connection closed) with ADAPTER_RESPONSE_TOO_LARGE.
   */
  readonly maxResponseBytes?: number;
  /** The fetch implementation (default the global one). */
  readonly fetch?: typeof fetch;
  /** Deadline of one HTTP request, in ms (default 60 000); long polls add their own wait on top. */
  readonly requestTimeoutMs?: number;
  /** Retry policy for retryable failures. */
  readonly retry?: Partial<RetryPolicy>;
  /** Receives one redacted line per request and retry. */
  readonly debug?: (line: string) => void;
  /** Seed of the backoff jitter. */
  readonly seed?: number;
}

/**
 * A solver's `identity` object, echoed verbatim in submissions.
 *
 * @category D-Wave
 */
export interface SapiSolverIdentity {
  readonly name: string;
  readonly version?: Record<string, unknown>;
}

/**
 * One entry of `GET solvers/remote/` (SAPI v3).
 *
 * @category D-Wave
 */
export interface SapiSolver {
  readonly identity: SapiSolverIdentity;
  readonly status?: string;
  readonly avg_load?: number;
  readonly description?: string;
  readonly properties: Record<string, unknown>;
}

/**
 * SAPI problem lifecycle states.
 *
 * @category D-Wave
 */
export type SapiProblemState = 'PENDING' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED' | 'CANCELLED';

/**
 * A problem status object; `answer` is present on completed problems fetched individually.
 *
 * @category D-Wave
 */
export interface SapiProblemStatus {
  readonly id: string;
  readonly status: SapiProblemState;
  readonly answer?: unknown;
  readonly error_message?: string;
  readonly [key: string]: unknown;
}

/**
 * One job of a `POST problems/` body.
 *
 * @category D-Wave
 */
export interface SapiJob {
  readonly solver: SapiSolverIdentity;
  readonly type: 'ising' | 'qubo';
  readonly data: QpProblemData;
  readonly params: Record<string, unknown>;
  readonly label?: string;
}

/**
 * A minimal SAPI v3 client over `fetch`. Every method honours `signal` and the request deadline.
 *
 * @category D-Wave
 */
export interface SapiClient {
  /** Base URL in use, ending in `/`. */
  readonly endpoint: string;
  /** `GET solvers/remote/`. */
  listSolvers(signal?: AbortSignal): Promise<SapiSolver[]>;
  /** `POST problems/` with up to 20 jobs; per job either a status or the classified per-item error. */
  submitProblems(
    jobs: readonly SapiJob[],
    signal?: AbortSignal,
  ): Promise<(SapiProblemStatus | AdapterError)[]>;
  /** `GET problems/?id=…&timeout=N`: statuses without answers; the server may hold the request up to N s. */
  pollProblems(
    ids: readonly string[],
    timeoutSeconds: number,
    signal?: AbortSignal,
  ): Promise<SapiProblemStatus[]>;
  /** `GET problems/{id}/`: status with `answer` when completed. */
  getProblem(id: string, signal?: AbortSignal): Promise<SapiProblemStatus>;
  /** `DELETE problems/` with the ids (best effort: per-item refusals are ignored). */
  cancelProblems(ids: readonly string[], signal?: AbortSignal): Promise<void>;
}
