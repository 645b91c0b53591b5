import { expect } from 'vitest';
import { isAdapterError } from '../errors.js';

/** The fields of an `AdapterError` the adapter tests assert on. */
export interface Rejection {
  readonly code: string;
  readonly reason: string;
  readonly retryable: boolean;
  readonly message: string;
}

/**
 * Test helper: awaits `promise`, asserts it rejected with an `AdapterError`, and returns that error.
 * Not part of the public API (only the package's own tests import it).
 *
 * @param promise the call expected to reject.
 * @returns the rejection, typed for `toMatchObject` and field checks.
 * @throws Error when the promise resolves instead.
 */
export async function rejection(promise: Promise<unknown>): Promise<Rejection> {
  try {
    await promise;
  } catch (e) {
    expect(isAdapterError(e), String(e)).toBe(true);
    return e as never;
  }
  throw new Error('expected a rejection');
}

/**
 * Retry and polling settings short enough for the local fake servers, shared by the Braket and
 * D-Wave sampler tests; a fresh object per call so no test can leak changes into another.
 *
 * @returns backoff, retry and timeout options to spread into a sampler's options.
 */
export function fastTiming(): {
  pollBackoff: { initialMs: number; maxMs: number };
  retry: { baseDelayMs: number; maxDelayMs: number };
  requestTimeoutMs: number;
  deadlineMs: number;
} {
  return {
    pollBackoff: { initialMs: 5, maxMs: 20 },
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
    requestTimeoutMs: 2_000,
    deadlineMs: 10_000,
  };
}
