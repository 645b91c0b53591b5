// Sampler V2 pubs run as Runtime jobs: split into jobs, optionally inside one batch session,
// polled to a terminal state, their results fetched; on any failure the jobs still pending are
// cancelled (best effort, bounded), and the session is closed in every case.
import { echo } from '@boltzmann/ising-core/internal';
import { invalidArgument, isAdapterError } from '../shared/errors.js';
import type { PollBackoff } from '../shared/retry.js';
import { positiveInt } from '../shared/options.js';
import { deadlineError, sleep } from '../shared/retry.js';
import { classifyIbmJobFailure } from './classifyIbmError.js';
import { createSubmissionThrottle } from './submissionThrottle.js';
import type { SubmissionThrottle } from './submissionThrottle.js';
import type { ResponseLimit, RuntimeClient, SamplerPub } from './runtimeTypes.js';

/**
 * Polling cadence of the `ibm` sampler: 1 s × 1.5^k, capped at 30 s (jobs queue for minutes).
 *
 * @category IBM Quantum
 */
export const DEFAULT_IBM_POLL_BACKOFF: PollBackoff = {
  initialMs: 1_000,
  factor: 1.5,
  maxMs: 30_000,
};

/** Options of {@link runSamplerJobs}. */
export interface RunSamplerJobsOptions {
  /** Backend name, e.g. `ibm_fez`. */
  readonly backend: string;
  /** Every pub of the run, in order. */
  readonly pubs: readonly SamplerPub[];
  /** Most pubs in one job (the backend's `max_experiments` or less). */
  readonly maxPubsPerJob: number;
  /** `'batch'`: the jobs run in one batch session (opened here, closed at the end); `'none'`: plain jobs. */
  readonly sessionMode: 'batch' | 'none';
  /** The run's deadline or the caller's abort. */
  readonly signal: AbortSignal;
  /** Pause between status rounds. */
  readonly backoff: PollBackoff;
  /** Bound of the clean-up (cancelling pending jobs, closing the session), in ms. */
  readonly cancelTimeoutMs: number;
  /** Tags of every job. */
  readonly tags?: readonly string[];
  /** Sampler V2 `options` of every job. */
  readonly options?: Readonly<Record<string, unknown>>;
  /** The top-level `cost` (max execution seconds) of every job. */
  readonly maxExecutionTimeSeconds?: number;
  /**
   * Paces the `POST jobs` (share one across calls, as the sampler does). Default: a new one at
   * IBM's documented 5 jobs per minute, for this run only.
   */
  readonly throttle?: SubmissionThrottle;
  /** `max_ttl` of the batch session, in seconds. */
  readonly maxSessionTtlSeconds?: number;
  /** The byte limit of each job's results answer, by job index (none: `maxResponseBytes`). */
  readonly resultLimit?: (job: number) => ResponseLimit;
}

/** What {@link runSamplerJobs} returns. */
export interface SamplerJobsResult {
  /** Runtime job ids, in submission order. */
  readonly jobIds: readonly string[];
  /** The batch session, when one was opened. */
  readonly sessionId?: string;
  /** The results answer of each job, in job order (job j holds pubs j·maxPubsPerJob …). */
  readonly results: readonly unknown[];
}

/** Runs `call` within `timeoutMs`, ignoring its failure (a clean-up that must not hide the real error). */
async function bestEffort(
  timeoutMs: number,
  call: (signal: AbortSignal) => Promise<unknown>,
): Promise<void> {
  try {
    await call(AbortSignal.timeout(timeoutMs));
  } catch {
    // Best effort: the run already has its result or a more useful error.
  }
}

/** Polls the pending jobs until each has ended, storing the results of those DONE. */
async function pollUntilDone(
  client: RuntimeClient,
  pending: Map<string, number>,
  results: unknown[],
  o: RunSamplerJobsOptions,
): Promise<void> {
  for (let k = 0; pending.size > 0; k++) {
    for (const [id, j] of [...pending]) {
      const { status, reason } = await client.jobStatus(id, o.signal);
      if (status === 'DONE') {
        results[j] = await client.jobResults(id, o.signal, o.resultLimit?.(j));
        pending.delete(id);
      } else if (status === 'ERROR' || status === 'CANCELLED') {
        pending.delete(id);
        throw classifyIbmJobFailure(id, status, reason);
      }
    }
    if (pending.size > 0) {
      const b = o.backoff;
      await sleep(Math.min(b.maxMs, b.initialMs * b.factor ** k), o.signal);
    }
  }
}

/**
 * Runs `pubs` on `backend` as Sampler V2 jobs of at most `maxPubsPerJob` pubs each, inside one
 * batch session when `sessionMode` is `'batch'`, and returns each job's results answer (decode them
 * with `decodeSamplerResults`). Jobs are submitted one after another, paced by `throttle`, then
 * polled with `backoff`
 * until each is DONE. A job that ends ERROR fails the run with ADAPTER_PROBLEM_FAILED (its reason
 * in the message), one CANCELLED with ADAPTER_PROBLEM_CANCELLED. On any failure, abort or deadline,
 * the jobs still pending are cancelled (each `POST jobs/{id}/cancel`, all within
 * `cancelTimeoutMs`, failures ignored); the session is closed (no new jobs) in every case.
 *
 * @throws {AdapterError} the failing request's or job's error; the signal's reason (or
 * ADAPTER_TIMEOUT) on abort; ADAPTER_INVALID_ARGUMENT for no pubs or a bad maxPubsPerJob.
 */
export async function runSamplerJobs(
  client: RuntimeClient,
  o: RunSamplerJobsOptions,
): Promise<SamplerJobsResult> {
  const per = positiveInt(o.maxPubsPerJob, 'maxPubsPerJob');
  if (o.pubs.length === 0) throw invalidArgument('runSamplerJobs needs at least one pub');
  if (o.sessionMode !== 'batch' && o.sessionMode !== 'none')
    throw invalidArgument(`sessionMode must be "batch" or "none", got ${echo(o.sessionMode)}`);
  const jobs = Array.from({ length: Math.ceil(o.pubs.length / per) }, (_, j) =>
    o.pubs.slice(j * per, (j + 1) * per),
  );
  const jobIds: string[] = [];
  const pending = new Map<string, number>();
  const results: unknown[] = new Array(jobs.length);
  let sessionId: string | undefined;
  const throttle = o.throttle ?? createSubmissionThrottle();
  try {
    if (o.sessionMode === 'batch') {
      const request = { backend: o.backend, mode: 'batch' as const };
      const ttl = o.maxSessionTtlSeconds;
      sessionId = (
        await client.createSession(
          ttl === undefined ? request : { ...request, maxTtlSeconds: ttl },
          o.signal,
        )
      ).id;
    }
    for (const [j, pubs] of jobs.entries()) {
      const { tags, options, maxExecutionTimeSeconds } = o;
      const request = {
        backend: o.backend,
        pubs,
        sessionId,
        tags,
        options,
        maxExecutionTimeSeconds,
      };
      const { id } = await throttle.submit(o.signal, () =>
        client.submitSamplerJob(request, o.signal),
      );
      jobIds.push(id);
      pending.set(id, j);
    }
    await pollUntilDone(client, pending, results, o);
    return sessionId === undefined ? { jobIds, results } : { jobIds, sessionId, results };
  } catch (error) {
    const ids = [...pending.keys()];
    if (ids.length > 0)
      await bestEffort(o.cancelTimeoutMs, (signal) =>
        Promise.allSettled(ids.map((id) => client.cancelJob(id, signal))),
      );
    if (!isAdapterError(error) && o.signal.aborted) throw deadlineError(o.signal);
    throw error;
  } finally {
    const id = sessionId;
    if (id !== undefined)
      await bestEffort(o.cancelTimeoutMs, (signal) => client.closeSession(id, signal));
  }
}
