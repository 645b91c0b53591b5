// The fake IBM Quantum server's state and scripting surface (fakeRuntimeServer.ts,
// fakeRuntimeRoutes.ts): IAM and Runtime on one local port. Test-only; types only.
import type { IncomingHttpHeaders } from 'node:http';
import type { Rng } from '@boltzmann/ising-core';
import type {
  IbmBackendConfiguration,
  IbmBackendProperties,
  IbmBackendStatus,
} from '../ibmTypes.js';
import type { ScriptedFailure } from '../../shared/testing/scriptedFailure.js';

export type { ScriptedFailure } from '../../shared/testing/scriptedFailure.js';

/** One request the fake saw (IAM and Runtime alike), its body as sent. */
export interface FakeRuntimeRequest {
  readonly method: string;
  /** Path and query, e.g. `/api/v1/jobs/job-1` or `/identity/token`. */
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** One pub of a submitted job, as the fake's `answerPub` gets it. */
export interface FakePub {
  /** Position in its job. */
  readonly index: number;
  readonly qasm: string;
  readonly params: unknown;
  readonly shots: number;
}

/** A pub's answer: its register, width and one hex string per shot. */
export interface FakePubAnswer {
  readonly register: string;
  readonly numBits: number;
  readonly samples: readonly string[];
}

/** Draws a pub's shots (deterministic given `rng`); throwing refuses the job with a 400. */
export type AnswerPub = (pub: FakePub, rng: Rng) => FakePubAnswer;

/** Runtime's job states, as the service spells them. */
export type FakeJobState = 'Queued' | 'Running' | 'Completed' | 'Failed' | 'Cancelled';

/** A submitted job: Queued, Running after half of `completeAfterMs`, then its `outcome`. */
export interface FakeRuntimeJob {
  readonly id: string;
  readonly backend: string;
  readonly sessionId?: string;
  status: FakeJobState;
  readonly submittedAt: number;
  readonly readyAt: number;
  outcome: 'Completed' | 'Failed' | 'Cancelled';
  reason?: string;
  /** The Sampler V2 results answer (served once Completed). */
  readonly results: Record<string, unknown>;
  readonly shots: number;
}

/** An open or closed session. */
export interface FakeSession {
  readonly id: string;
  readonly mode: string;
  readonly backend: string;
  readonly maxTtl?: number;
  acceptingJobs: boolean;
}

/** What the fake serves about one backend (`properties` absent → 404, as for a simulator). */
export interface FakeBackend {
  readonly configuration: IbmBackendConfiguration;
  readonly properties?: IbmBackendProperties;
  readonly status: IbmBackendStatus;
}

/** A scripted redirect: the next `times` requests whose "METHOD /path" matches go to `to` + path. */
export interface ScriptedRedirect {
  match: RegExp;
  status: number;
  /** Origin (e.g. a trap's url) the path is appended to. */
  to: string;
  times: number;
}

/** A local IBM Cloud IAM + Qiskit Runtime subset on 127.0.0.1. */
export interface FakeRuntime {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Runtime base URL, `${url}/api/v1/`. */
  readonly runtimeUrl: string;
  /** IAM token URL, `${url}/identity/token`. */
  readonly iamUrl: string;
  /** Every request, IAM's included, in arrival order. */
  readonly requests: FakeRuntimeRequest[];
  readonly jobs: Map<string, FakeRuntimeJob>;
  readonly sessions: Map<string, FakeSession>;
  readonly backends: Map<string, FakeBackend>;
  /** Every token IAM issued, in order. */
  readonly tokens: string[];
  /** Scripted failures, matched against "METHOD /path" (path without query). */
  failures: ScriptedFailure[];
  redirects: ScriptedRedirect[];
  /** Requests whose "METHOD /path" matches are never answered. */
  hang?: RegExp;
  /** `expires_in` of each new token, in seconds (default 3600). */
  tokenLifetimeSeconds: number;
  /** Jobs take this long to finish (default 20 ms). */
  completeAfterMs: number;
  /** Terminal state each new job reaches (default Completed). */
  outcome: 'Completed' | 'Failed' | 'Cancelled';
  failReason: string;
  /** Answers each pub (default: uniform shots over the register `bit[n] name;` the circuit declares). */
  answerPub: AnswerPub;
  /** A warning attached to each `POST jobs` answer (`messages`). */
  submitWarning?: string;
  /** Rewrites each results answer before it is served (malformed-result tests). */
  tamperResults?: (results: Record<string, unknown>) => unknown;
  close(): Promise<void>;
}
