import { echo } from '@boltzmann/ising-core/internal';
import type { MaybePromise, Sampler } from '@boltzmann/ising-core';
import { AttentionError } from '../core/errors.js';
import type { AttentionErrorCode } from '../core/errors.js';

/**
 * The default longest wait for one answer of an asynchronous sampler: 30 minutes, generous for a
 * queued hardware job, yet a run whose sampler never answers fails instead of hanging forever.
 * @summary The default longest wait for one answer of an asynchronous sampler.
 * @category Training
 */
export const DEFAULT_SAMPLER_TIMEOUT_MS = 30 * 60 * 1000;

/** setTimeout's largest delay (about 24.8 days); a longer one would fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * A sampler timeout option: `undefined` gives {@link DEFAULT_SAMPLER_TIMEOUT_MS}; `0` and
 * `Infinity` mean no deadline; otherwise milliseconds up to setTimeout's limit.
 *
 * @throws {AttentionError} `code` (ATTENTION_INVALID_CONFIG by default) naming `name` and the value.
 */
export function checkSamplerTimeout(
  value: unknown,
  name = 'samplerTimeoutMs',
  code: AttentionErrorCode = 'ATTENTION_INVALID_CONFIG',
): number {
  const ms = value ?? DEFAULT_SAMPLER_TIMEOUT_MS;
  if (typeof ms !== 'number' || !(ms >= 0) || (Number.isFinite(ms) && ms > MAX_TIMER_MS)) {
    throw new AttentionError(
      code,
      `${name} must be milliseconds in [0, ${MAX_TIMER_MS}], or Infinity (0 and Infinity: no deadline), got ${echo(value)}`,
    );
  }
  return ms;
}

const isThenable = <T>(value: MaybePromise<T>): value is Promise<T> =>
  typeof (value as { then?: unknown } | null)?.then === 'function';

/**
 * Calls the sampler through `call` (usually `estimateBatch`) and awaits its answer for at most
 * `timeoutMs` (0 or Infinity: no deadline). The timer is cleared as soon as the call settles,
 * so nothing is left to keep the process alive; an abandoned call's late answer or failure is
 * ignored (and never an unhandled rejection). When `done` aborts (another call of the same step
 * failed), the deadline is dropped at once.
 *
 * @throws {AttentionError} ATTENTION_SAMPLER_TIMEOUT naming the sampler and the timeout;
 *   the sampler's errors unchanged (ising-core's ISING_SAMPLER_FAILED for whatever it threw).
 */
export async function callSampler<T>(
  sampler: Sampler,
  call: () => MaybePromise<T>,
  timeoutMs: number,
  done?: AbortSignal,
): Promise<T> {
  const pending = call();
  if (!isThenable(pending)) return pending;
  const answer = Promise.resolve(pending);
  if (timeoutMs === 0 || !Number.isFinite(timeoutMs)) return answer;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let drop: (() => void) | undefined;
  const deadline = new Promise<never>((_, reject) => {
    drop = () => {
      clearTimeout(timer);
      reject(done?.reason);
    };
    done?.addEventListener('abort', drop, { once: true });
    timer = setTimeout(() => {
      reject(
        new AttentionError(
          'ATTENTION_SAMPLER_TIMEOUT',
          `sampler ${echo(sampler.name)} did not answer within ${timeoutMs.toLocaleString('en-US')} ms ` +
            '(samplerTimeoutMs); its call was abandoned. Raise samplerTimeoutMs (0: no deadline) or check the sampler',
        ),
      );
    }, timeoutMs);
  });
  try {
    return await Promise.race([answer, deadline]);
  } finally {
    clearTimeout(timer);
    if (drop) done?.removeEventListener('abort', drop);
  }
}
