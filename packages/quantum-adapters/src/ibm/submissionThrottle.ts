// Paces job submissions to IBM's documented rate limit on `POST jobs`: "This request is rate
// limited to 5 jobs per minute per user" (Qiskit Runtime REST reference, "Run a job",
// https://quantum.cloud.ibm.com/docs/api/qiskit-runtime-rest/tags/jobs).
import { positiveInt } from '../shared/options.js';
import { sleep } from '../shared/retry.js';

/** Default most `POST jobs` per minute: 5, IBM's documented limit. */
export const DEFAULT_IBM_JOBS_PER_MINUTE = 5;

/** The window the limit counts submissions in, in ms. */
export const RATE_WINDOW_MS = 60_000;

/** Time as the throttle reads it: the real clock, or a test's. */
export interface ThrottleClock {
  now(): number;
  /** Waits `ms`; rejects when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Paces submissions so that at most `maxPerMinute` end in any 60-second window. */
export interface SubmissionThrottle {
  readonly maxPerMinute: number;
  /**
   * Runs `send` once at most `maxPerMinute − 1` earlier submissions ended within the last
   * minute, and counts it when it settles (accepted or not: it may have reached the service).
   * Submissions are serialized. Rejects with the signal's reason if it aborts while waiting.
   */
  submit<T>(signal: AbortSignal | undefined, send: () => Promise<T>): Promise<T>;
}

/** Options of {@link createSubmissionThrottle}. */
export interface SubmissionThrottleOptions {
  /** Default: `Date.now` and the package's abortable sleep. */
  readonly clock?: ThrottleClock;
  /** Receives one line per wait. */
  readonly debug?: (line: string) => void;
}

/**
 * A sliding-window throttle: the k-th submission waits until the (k − max)-th ended a minute ago.
 * Each submission is timed when its answer arrives, later than the service saw it, so no window
 * the service counts can hold more than `maxPerMinute`. One per sampler, shared by its calls.
 * @throws {AdapterError} ADAPTER_INVALID_ARGUMENT unless `maxPerMinute` is a positive integer.
 */
export function createSubmissionThrottle(
  maxPerMinute: number = DEFAULT_IBM_JOBS_PER_MINUTE,
  options: SubmissionThrottleOptions = {},
): SubmissionThrottle {
  const max = positiveInt(maxPerMinute, 'maxJobsPerMinute');
  const clock = options.clock ?? { now: () => Date.now(), sleep };
  const ended: number[] = []; // when the latest `max` submissions ended, oldest first
  let tail: Promise<unknown> = Promise.resolve();

  async function take<T>(signal: AbortSignal | undefined, send: () => Promise<T>): Promise<T> {
    if (ended.length >= max) {
      const wait = ended[0]! + RATE_WINDOW_MS - clock.now();
      if (wait > 0) {
        options.debug?.(
          `ibm: ${max} job(s) submitted within the last minute (maxJobsPerMinute ${max}): next in ${(wait / 1000).toFixed(1)} s`,
        );
        await clock.sleep(wait, signal);
      }
    }
    try {
      return await send();
    } finally {
      ended.push(clock.now());
      if (ended.length > max) ended.shift();
    }
  }

  return {
    maxPerMinute: max,
    submit(signal, send) {
      const turn = tail.then(() => take(signal, send));
      tail = turn.catch(() => undefined);
      return turn;
    },
  };
}
