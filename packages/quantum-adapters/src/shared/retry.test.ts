import { createRng } from '@boltzmann/ising-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AdapterError } from './errors.js';
import {
  MAX_TIMER_MS,
  parseRetryAfter,
  resolveRetry,
  runDeadline,
  sleep,
  withRetry,
} from './retry.js';

const retryable = (retryAfterMs?: number) =>
  new AdapterError('ADAPTER_UNAVAILABLE', 'down', {
    reason: 'unavailable',
    retryable: true,
    retryAfterMs,
  });

describe('withRetry', () => {
  it('should retry retryable errors with full-jitter backoff bounded by min(max, base·2^k), up to maxAttempts', async () => {
    const delays: number[] = [];
    let calls = 0;
    await expect(
      withRetry(
        async () => {
          calls++;
          throw retryable();
        },
        { maxAttempts: 5, baseDelayMs: 4, maxDelayMs: 10 },
        { rng: createRng(1), onRetry: (_e, d) => delays.push(d) },
      ),
    ).rejects.toMatchObject({ code: 'ADAPTER_UNAVAILABLE' });
    expect(calls).toBe(5);
    expect(delays).toHaveLength(4);
    delays.forEach((d, k) => {
      expect(d).toBeGreaterThanOrEqual(0);
      expect(d).toBeLessThanOrEqual(Math.min(10, 4 * 2 ** k));
    });
  });

  it('should honour Retry-After (within maxDelayMs), stop on non-retryable errors, and return the first success', async () => {
    const delays: number[] = [];
    let calls = 0;
    const value = await withRetry(
      async () => {
        if (++calls < 3) throw retryable(15);
        return 'ok';
      },
      { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 20 },
      { onRetry: (_e, d) => delays.push(d) },
    );
    expect(value).toBe('ok');
    expect(delays).toEqual([15, 15]);
    let fatal = 0;
    await expect(
      withRetry(async () => {
        fatal++;
        throw new AdapterError('ADAPTER_AUTH', 'no', { reason: 'auth', retryable: false });
      }, resolveRetry({})),
    ).rejects.toMatchObject({ code: 'ADAPTER_AUTH' });
    expect(fatal).toBe(1);
  });

  it('should abort a backoff wait when the signal aborts', async () => {
    const controller = new AbortController();
    setTimeout(
      () =>
        controller.abort(
          new AdapterError('ADAPTER_TIMEOUT', 'caller gave up', {
            reason: 'timeout',
            retryable: true,
          }),
        ),
      30,
    );
    await expect(
      withRetry(
        async () => {
          throw retryable(10_000);
        },
        { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 10_000 },
        { signal: controller.signal },
      ),
    ).rejects.toMatchObject({ code: 'ADAPTER_TIMEOUT', message: 'caller gave up' });
    await expect(sleep(1)).resolves.toBeUndefined();
  });

  it('should cap Retry-After at maxDelayMs', async () => {
    const delays: number[] = [];
    let calls = 0;
    const started = Date.now();
    const value = await withRetry(
      async () => {
        if (++calls < 3) throw retryable(100_000_000);
        return 'ok';
      },
      { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 50 },
      { onRetry: (_e, d) => delays.push(d) },
    );
    expect(value).toBe('ok');
    expect(delays).toEqual([50, 50]);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('should fail at once with the last error when the deadline would fire before the retry', async () => {
    const deadline = runDeadline(5_000, 'test run');
    const started = Date.now();
    let calls = 0;
    await expect(
      withRetry(
        async () => {
          calls++;
          throw retryable(60_000);
        },
        { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 60_000 },
        { signal: deadline.signal },
      ),
    ).rejects.toMatchObject({ code: 'ADAPTER_UNAVAILABLE', message: 'down' });
    expect(calls).toBe(1);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(deadline.at).toBeGreaterThan(Date.now());
    deadline.clear();
    // An explicit deadline works the same without a signal.
    await expect(
      withRetry(
        async () => {
          throw retryable(500);
        },
        { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 1_000 },
        { deadline: Date.now() + 100 },
      ),
    ).rejects.toMatchObject({ code: 'ADAPTER_UNAVAILABLE' });
  });

  it('should reject nonsense policies', () => {
    expect(() => resolveRetry({ maxAttempts: 0 })).toThrow(
      expect.objectContaining({ code: 'ADAPTER_INVALID_ARGUMENT' }),
    );
    expect(() => resolveRetry({ baseDelayMs: -1 })).toThrow(
      expect.objectContaining({ code: 'ADAPTER_INVALID_ARGUMENT' }),
    );
  });
});

describe('parseRetryAfter', () => {
  it('should read seconds and HTTP dates', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter('0.5')).toBe(500);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
    const now = Date.parse('Sun, 29 Nov 2026 10:00:00 GMT');
    expect(parseRetryAfter('Sun, 29 Nov 2026 10:00:03 GMT', now)).toBe(3000);
    expect(parseRetryAfter('Sun, 29 Nov 2026 09:00:00 GMT', now)).toBe(0);
  });
});

describe('waits beyond 2^31 − 1 ms (one Node timer overflows and fires after 1 ms)', () => {
  afterEach(() => vi.useRealTimers());

  it('should sleep and hold a run deadline for their whole length, in timer slices', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const long = MAX_TIMER_MS + 1_000;
    let slept = false;
    void sleep(long).then(() => {
      slept = true;
    });
    const deadline = runDeadline(long, 'a long run');
    await vi.advanceTimersByTimeAsync(MAX_TIMER_MS);
    expect([slept, deadline.signal.aborted]).toEqual([false, false]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect([slept, deadline.signal.aborted]).toEqual([true, true]);
    expect(deadline.signal.reason).toMatchObject({ code: 'ADAPTER_TIMEOUT' });
    deadline.clear();
  });

  it('should cancel a sliced wait with clear() or the signal', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const deadline = runDeadline(3 * MAX_TIMER_MS, 'a cleared run');
    const controller = new AbortController();
    const waiting = sleep(3 * MAX_TIMER_MS, controller.signal);
    await vi.advanceTimersByTimeAsync(MAX_TIMER_MS + 1);
    deadline.clear();
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'ADAPTER_TIMEOUT' });
    await vi.advanceTimersByTimeAsync(3 * MAX_TIMER_MS);
    expect(deadline.signal.aborted).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });
});
