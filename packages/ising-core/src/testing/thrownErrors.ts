// What a call threw, for the tests of every package: each coded error (IsingError, DqaError,
// AttentionError, DatasetError, AdapterError, BenchError) carries a string `code`, read here by
// duck typing so that one helper serves them all. Exported from `@boltzmann/ising-core/testing`
// only, never from the runtime API.

/**
 * What a call threw: its `code` (when it has a string one) and its message.
 *
 * @category Assertions
 */
export interface Thrown {
  readonly code?: string;
  readonly message: string;
}

function thrownOf(error: unknown): Thrown {
  const e = error as { code?: unknown; message?: unknown } | null;
  const message = typeof e?.message === 'string' ? e.message : String(error);
  return typeof e?.code === 'string' ? { code: e.code, message } : { message };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * Test helper: runs `run` and returns what it threw as `{ code, message }` (`code` undefined for
 * an error without one), or `{ message: 'no error' }` when it returned, so a test asserts an
 * error's code and wording in one line whatever package's error class it is.
 *
 * @summary Test helper: what `run` threw, as `{ code, message }`.
 * @param run the call expected to throw.
 * @returns the thrown code and message.
 * @example
 * import { createRng } from '@boltzmann/ising-core';
 * import { thrownBy } from '@boltzmann/ising-core/testing';
 *
 * console.log(thrownBy(() => createRng(Number.POSITIVE_INFINITY)).code); // 'ISING_INVALID_ARGUMENT'
 * @category Assertions
 */
export function thrownBy(run: () => unknown): Thrown {
  try {
    run();
  } catch (error) {
    return thrownOf(error);
  }
  return { message: 'no error' };
}

/**
 * {@link thrownBy} for asynchronous work: awaits the promise (or what `work` returns) and returns
 * how it was rejected — or how `work` threw before returning — as `{ code, message }`, or
 * `{ message: 'no error' }` when it settled without error.
 *
 * @summary {@link thrownBy} for asynchronous work.
 * @param work a promise, or a call that returns one (or throws).
 * @returns the rejection's code and message.
 * @example
 * import { estimateExactAsync } from '@boltzmann/ising-core';
 * import type { IsingBatch } from '@boltzmann/ising-core';
 * import { rejectionOf } from '@boltzmann/ising-core/testing';
 *
 * const { code, message } = await rejectionOf(estimateExactAsync({} as IsingBatch));
 * console.log(code, message); // ISING_INVALID_ARGUMENT …
 * @category Assertions
 */
export async function rejectionOf(work: PromiseLike<unknown> | (() => unknown)): Promise<Thrown> {
  try {
    await (typeof work === 'function' ? work() : work);
  } catch (error) {
    return thrownOf(error);
  }
  return { message: 'no error' };
}

/**
 * Test helper: the `code` of the coded error `run` throws, or `'no error'` when it returns, so a
 * test asserts a code in one line.
 *
 * A throw without a string code (a stray `TypeError`) propagates, so the test fails with its own
 * stack. When `run` returns a promise (or `run` is one), the result is a promise of the code it
 * rejects with, under the same rules.
 *
 * @param run the call expected to throw (or a promise expected to reject).
 * @returns the code, or `'no error'`.
 * @example
 * import { createRng } from '@boltzmann/ising-core';
 * import { codeOf } from '@boltzmann/ising-core/testing';
 *
 * console.log(codeOf(() => createRng(Number.NaN))); // 'ISING_INVALID_ARGUMENT'
 * console.log(await codeOf(Promise.resolve(1))); // 'no error'
 * @category Assertions
 */
export function codeOf(run: PromiseLike<unknown> | (() => PromiseLike<unknown>)): Promise<string>;
export function codeOf(run: () => unknown): string;
export function codeOf(run: PromiseLike<unknown> | (() => unknown)): string | Promise<string> {
  const codeOrRethrow = (error: unknown): string => {
    const { code } = thrownOf(error);
    if (code === undefined) throw error;
    return code;
  };
  let result: unknown;
  try {
    result = typeof run === 'function' ? run() : run;
  } catch (error) {
    return codeOrRethrow(error);
  }
  if (!isThenable(result)) return 'no error';
  return Promise.resolve(result).then(() => 'no error', codeOrRethrow);
}
