import { createRng } from '@boltzmann/ising-core';
import { echo } from '@boltzmann/ising-core/internal';
import type { Rng } from '@boltzmann/ising-core';
import { AdapterError, isAdapterError } from './errors.js';

/**
 * How failed calls are retried: exponential backoff with full jitter, bounded attempts.
 *
 * @category HTTP
 */
export interface RetryPolicy {
  /** Total attempts including the first (default 4). */
  readonly maxAttempts: number;
  /** Backoff before retry `k` is uniform in `[0, min(maxDelayMs, baseDelayMs·2^k)]` (default 200 ms). */
  readonly baseDelayMs: number;
  /**
   * Cap of one wait before a retry (default 10 s), a server's `Retry-After` included: a server
   * asking for 28 hours gets `maxDelayMs`, so a bare client call never sleeps for longer.
   */
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 200, maxDelayMs: 10_000 };

/**
 * Polling cadence between long polls: `initialMs · factor^k`, capped (the official client uses 50 ms × 1.3^k).
 *
 * @category HTTP
 */
export interface PollBackoff {
  readonly initialMs: number;
  readonly factor: number;
  readonly maxMs: number;
}

/** Resolves `retry` options against the defaults, rejecting nonsense early. */
export function resolveRetry(partial: Partial<RetryPolicy> | undefined): RetryPolicy {
  const policy = { ...DEFAULT_RETRY, ...partial };
  if (!Number.isInteger(policy.maxAttempts) || policy.maxAttempts < 1) {
    throw new AdapterError(
      'ADAPTER_INVALID_ARGUMENT',
      `retry.maxAttempts must be a positive integer, got ${echo(policy.maxAttempts)}`,
      { reason: 'rejected', retryable: false },
    );
  }
  for (const key of ['baseDelayMs', 'maxDelayMs'] as const) {
    if (!Number.isFinite(policy[key]) || policy[key] < 0) {
      throw new AdapterError(
        'ADAPTER_INVALID_ARGUMENT',
        `retry.${key} must be a finite number ≥ 0, got ${echo(policy[key])}`,
        { reason: 'rejected', retryable: false },
      );
    }
  }
  return policy;
}

/**
 * Longest delay one Node timer takes (2^31 − 1 ms, about 24.8 days): a longer one overflows, is
 * run after 1 ms and warns (`TimeoutOverflowWarning`), so {@link longTimeout} waits in slices.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Longest `deadlineMs` a sampler accepts: 30 days. Hardware queues can hold a job for days, so the
 * bound is generous; it exists so that a typo (`1e12`) is refused when the sampler is created.
 */
export const MAX_DEADLINE_MS = 30 * 86_400_000;

/**
 * Calls `fn` once after `ms` milliseconds, however long: beyond {@link MAX_TIMER_MS} it waits in
 * slices of at most that, counting the slices down (no wall clock, which may jump).
 *
 * @returns a function that cancels the wait.
 */
export function longTimeout(ms: number, fn: () => void): () => void {
  let left = Math.max(0, ms);
  let timer: ReturnType<typeof setTimeout>;
  const arm = (): void => {
    const slice = Math.min(left, MAX_TIMER_MS);
    left -= slice;
    timer = setTimeout(left > 0 ? arm : fn, slice);
  };
  arm();
  return () => clearTimeout(timer);
}

/** Deadline-aware sleep: rejects with the signal's reason when it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(deadlineError(signal));
      return;
    }
    const cancel = longTimeout(ms, () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    });
    const onAbort = (): void => {
      cancel();
      reject(deadlineError(signal!));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The error a run gets when its overall deadline (or the caller's signal) fires. */
export function deadlineError(signal: AbortSignal): AdapterError {
  const reason: unknown = signal.reason;
  if (isAdapterError(reason)) return reason;
  return new AdapterError(
    'ADAPTER_TIMEOUT',
    'the run was aborted before it finished (deadline reached or caller aborted)',
    { reason: 'timeout', retryable: true, cause: reason },
  );
}

/** When the signal of each {@link runDeadline} fires (epoch ms), so {@link withRetry} can see it coming. */
const deadlines = new WeakMap<AbortSignal, number>();

/** The epoch-ms deadline of a signal made by {@link runDeadline}, or `undefined` for any other signal. */
export function deadlineOf(signal: AbortSignal | undefined): number | undefined {
  return signal === undefined ? undefined : deadlines.get(signal);
}

/**
 * A deadline for a whole run: aborts with ADAPTER_TIMEOUT after `ms` (any length: a deadline
 * beyond {@link MAX_TIMER_MS} waits in slices), or when `outer` aborts. `at` is the epoch-ms time
 * it fires; {@link withRetry} reads it from the signal.
 */
export function runDeadline(
  ms: number,
  what: string,
  outer?: AbortSignal,
): { signal: AbortSignal; at: number; clear: () => void } {
  const controller = new AbortController();
  const at = Date.now() + ms;
  deadlines.set(controller.signal, at);
  const cancel = longTimeout(ms, () => {
    controller.abort(
      new AdapterError(
        'ADAPTER_TIMEOUT',
        `${what} did not finish within its deadline of ${ms} ms`,
        { reason: 'timeout', retryable: true },
      ),
    );
  });
  const onOuter = (): void => controller.abort(outer!.reason);
  outer?.addEventListener('abort', onOuter, { once: true });
  if (outer?.aborted) onOuter();
  return {
    signal: controller.signal,
    at,
    clear: () => {
      cancel();
      outer?.removeEventListener('abort', onOuter);
    },
  };
}

/** Options of {@link withRetry}. */
export interface RetryOptions {
  /** Aborts a wait between attempts (rejecting with {@link deadlineError}). */
  readonly signal?: AbortSignal;
  /**
   * Epoch ms after which no retry may start (default: the deadline of `signal` when it comes from
   * {@link runDeadline}). A retry whose wait would end at or after it is not waited for: the last
   * error is thrown at once, since the deadline would fire first anyway.
   */
  readonly deadline?: number;
  readonly rng?: Rng;
  readonly shouldRetry?: (e: AdapterError) => boolean;
  readonly onRetry?: (e: AdapterError, delayMs: number) => void;
}

/**
 * Calls `attempt` until it succeeds, a non-retryable error occurs, attempts run out, or `signal`
 * aborts. Only {@link AdapterError}s with `retryable: true` (and passing `shouldRetry`) are retried.
 * The wait before a retry is the jittered backoff or the server's `retryAfterMs`, whichever is
 * longer, and never more than `policy.maxDelayMs`.
 */
export async function withRetry<T>(
  attempt: (index: number) => Promise<T>,
  policy: RetryPolicy,
  options: RetryOptions = {},
): Promise<T> {
  const rng = options.rng ?? createRng(Date.now());
  for (let k = 0; ; k++) {
    try {
      return await attempt(k);
    } catch (error) {
      if (!isAdapterError(error) || !error.retryable || k + 1 >= policy.maxAttempts) throw error;
      if (options.shouldRetry !== undefined && !options.shouldRetry(error)) throw error;
      if (options.signal?.aborted) throw error;
      const backoff = rng.next() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** k);
      const delay = Math.min(policy.maxDelayMs, Math.max(backoff, error.retryAfterMs ?? 0));
      const deadline = options.deadline ?? deadlineOf(options.signal);
      if (deadline !== undefined && Date.now() + delay >= deadline) throw error;
      options.onRetry?.(error, delay);
      await sleep(delay, options.signal);
    }
  }
}

/** Parses an HTTP `Retry-After` (seconds or HTTP date) into milliseconds. */
export function parseRetryAfter(
  value: string | null | undefined,
  now = Date.now(),
): number | undefined {
  if (value === null || value === undefined || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}
