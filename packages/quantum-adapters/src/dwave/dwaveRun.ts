import { classifyDwaveProblemFailure } from './classifyDwaveError.js';
import { AdapterError, isAdapterError } from '../shared/errors.js';
import type { SapiClient, SapiJob, SapiProblemStatus } from './sapiTypes.js';
import { sleep } from '../shared/retry.js';
import type { PollBackoff } from '../shared/retry.js';

export const DEFAULT_POLL_BACKOFF: PollBackoff = { initialMs: 50, factor: 1.3, maxMs: 5_000 };

/**
 * Most problems the dwave adapter sends in one SAPI `POST problems/` request (its real runs and its
 * dry-run `submit-NNN.json` files alike); a batch of n problems takes ⌈n / 20⌉ requests.
 * @summary Most problems the dwave adapter sends in one SAPI `POST problems/` request (its real runs and its dry-run `submit-NNN.json` files alike).
 * @category D-Wave
 */
export const DWAVE_PROBLEMS_PER_SUBMIT = 20;
const STATUS_BATCH = 100;
const ANSWER_CONCURRENCY = 8;

/** Submits jobs, long-polls them to a terminal state and returns each answer in job order. */
export async function runDwaveJobs(
  client: SapiClient,
  jobs: readonly SapiJob[],
  options: {
    signal: AbortSignal;
    pollTimeoutSeconds: number;
    backoff: PollBackoff;
    cancelTimeoutMs: number;
  },
): Promise<{ ids: string[]; answers: unknown[] }> {
  const { signal } = options;
  const ids: string[] = [];
  const answers: unknown[] = new Array(jobs.length);
  const pending = new Map<string, number>();
  const completed = new Set<string>();
  const cancelPending = async (): Promise<void> => {
    if (pending.size === 0) return;
    try {
      await client.cancelProblems(
        [...pending.keys()],
        AbortSignal.timeout(options.cancelTimeoutMs),
      );
    } catch {
      // Best effort: the run is already failing with a more useful error.
    }
  };
  try {
    for (let start = 0; start < jobs.length; start += DWAVE_PROBLEMS_PER_SUBMIT) {
      const statuses = await client.submitProblems(
        jobs.slice(start, start + DWAVE_PROBLEMS_PER_SUBMIT),
        signal,
      );
      // Register every accepted job before reporting a refused one, so the catch below cancels them.
      const refused = statuses.find((s): s is AdapterError => s instanceof AdapterError);
      for (const [i, s] of statuses.entries()) {
        if (s instanceof AdapterError) continue;
        ids.push(s.id);
        pending.set(s.id, start + i);
        if (s.status === 'COMPLETED' && s.answer !== undefined) {
          answers[start + i] = s.answer;
          pending.delete(s.id);
        } else if (refused === undefined) settle(s);
      }
      if (refused) throw refused;
    }
    for (let k = 0; pending.size > 0; k++) {
      const batchIds = [...pending.keys()].slice(0, STATUS_BATCH);
      for (const s of await client.pollProblems(batchIds, options.pollTimeoutSeconds, signal))
        settle(s);
      // Answers of completed problems, a few requests at a time (one round trip each).
      const ready = [...pending.keys()].filter((id) => completed.has(id));
      const fetchNext = async (): Promise<void> => {
        for (let id = ready.pop(); id !== undefined; id = ready.pop()) {
          const full = await client.getProblem(id, signal);
          if (full.answer === undefined || full.answer === null) {
            throw new AdapterError(
              'ADAPTER_MALFORMED',
              `problem ${id} is COMPLETED but GET problems/${id}/ carries no answer`,
              { reason: 'malformed', retryable: false },
            );
          }
          answers[pending.get(id)!] = full.answer;
          pending.delete(id);
        }
      };
      await Promise.all(
        Array.from({ length: Math.min(ANSWER_CONCURRENCY, ready.length) }, fetchNext),
      );
      if (pending.size > 0) {
        const b = options.backoff;
        await sleep(Math.min(b.maxMs, b.initialMs * b.factor ** k), signal);
      }
    }
    return { ids, answers };
  } catch (error) {
    await cancelPending();
    if (!isAdapterError(error) && signal.aborted && isAdapterError(signal.reason))
      throw signal.reason;
    throw error;
  }

  function settle(s: SapiProblemStatus): void {
    if (!pending.has(s.id)) return;
    if (s.status === 'COMPLETED') completed.add(s.id);
    else if (s.status === 'FAILED') {
      pending.delete(s.id);
      throw classifyDwaveProblemFailure(s.id, s.error_message);
    } else if (s.status === 'CANCELLED') {
      pending.delete(s.id);
      throw new AdapterError(
        'ADAPTER_PROBLEM_CANCELLED',
        `problem ${s.id} was cancelled on the server before it ran`,
        { reason: 'rejected', retryable: false },
      );
    }
  }
}
