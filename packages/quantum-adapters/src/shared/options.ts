import { assertPluginOptions, assertSpinLimit, optionKeys } from '@boltzmann/ising-core';
import { echo } from '@boltzmann/ising-core/internal';
import type { QasmOptions } from '@boltzmann/dqa-sim';
import type { IsingBatch, SamplerOptionSpec } from '@boltzmann/ising-core';
import type { DryRunOptions } from './dryRun.js';
import { invalidArgument } from './errors.js';
import type { PollBackoff } from './retry.js';
import type { RetryPolicy } from './retry.js';

const DRY_RUN_KEYS = optionKeys<DryRunOptions>({
  dir: true,
  fallback: true,
  fallbackOptions: true,
});
const RETRY_KEYS = optionKeys<RetryPolicy>({
  maxAttempts: true,
  baseDelayMs: true,
  maxDelayMs: true,
});
const POLL_BACKOFF_KEYS = optionKeys<PollBackoff>({ initialMs: true, factor: true, maxMs: true });

/**
 * ising-core's {@link assertPluginOptions} with this package's error: a misspelt option
 * (`numRead` for `numReads`) would otherwise be ignored silently, and a remote run is the worst
 * place to find out. Throws ADAPTER_INVALID_ARGUMENT with ising-core's message.
 */
export function assertKnownOptions(
  who: string,
  options: unknown,
  known: readonly (string | SamplerOptionSpec)[],
): void {
  assertPluginOptions(who, options, known, invalidArgument);
}

/**
 * {@link assertKnownOptions} for a plugin's options and the nested settings both plugins share
 * (`dryRun`, `retry`, `pollBackoff`), whose misspellings would be as silent.
 */
export function assertAdapterOptions(
  who: string,
  options: unknown,
  known: readonly (string | SamplerOptionSpec)[],
): void {
  assertKnownOptions(who, options, known);
  if (options === undefined) return;
  const o = options as { dryRun?: unknown; retry?: unknown; pollBackoff?: unknown };
  assertKnownOptions(`${who} dryRun`, o.dryRun, DRY_RUN_KEYS);
  assertKnownOptions(`${who} retry`, o.retry, RETRY_KEYS);
  assertKnownOptions(`${who} pollBackoff`, o.pollBackoff, POLL_BACKOFF_KEYS);
}

/**
 * Returns `value` when it is a positive integer (at most `max`, when given), else throws
 * ADAPTER_INVALID_ARGUMENT naming it and the bound.
 */
export function positiveInt(value: number, what: string, max?: number): number {
  if (!Number.isInteger(value) || value < 1)
    throw invalidArgument(`${what} must be a positive integer, got ${echo(value)}`);
  if (max !== undefined && value > max)
    throw invalidArgument(`${what} must be at most ${max}, got ${echo(value)}`);
  return value;
}

/**
 * Returns `value` when it is a function or absent, else throws ADAPTER_INVALID_ARGUMENT, so a
 * `debug: true` fails when the options are checked and not as a TypeError at the first request.
 */
export function optionalFunction<F>(value: F | undefined, what: string): F | undefined {
  if (value !== undefined && typeof value !== 'function')
    throw invalidArgument(`${what} must be a function, got ${echo(value)}`);
  return value;
}

/**
 * Parses an endpoint option at creation, so a typo fails there and not at the first request.
 * @returns the URL, when `value` is an absolute `http:` or `https:` URL; else throws ADAPTER_INVALID_ARGUMENT naming it.
 */
export function httpUrl(value: unknown, what: string): URL {
  let url: URL | undefined;
  try {
    url = typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (url === undefined)
    throw invalidArgument(`${what} must be an absolute http(s) URL, got ${echo(value)}`);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw invalidArgument(
      `${what} must be an http: or https: URL, got ${echo(url.protocol)} in ${echo(value)}`,
    );
  return url;
}

/** Rejects batches a remote sampler cannot take: empty (ADAPTER_INVALID_ARGUMENT), too many spins (IsingError ISING_TOO_MANY_SPINS). */
export function assertBatchFits(batch: IsingBatch, maxSpins: number, who: string): void {
  if (batch.size < 1) throw invalidArgument(`${who}: the batch is empty`);
  for (let q = 0; q < batch.size; q++) {
    const n = batch.spins[q]!;
    // The sampler contract's own code (IsingError), so callers handle every sampler's refusal alike.
    assertSpinLimit(n, maxSpins, `the ${who} sampler (problem ${q}; option maxSpins)`);
  }
  if (!Number.isFinite(batch.beta) || batch.beta <= 0)
    throw invalidArgument(`${who}: beta must be finite and positive, got ${batch.beta}`);
}

/**
 * Rejects a `token` option (or another credential option, named by `name`) that is not a string.
 * The message names only the type: a token put in the wrong place (a number, an object) is still
 * a credential.
 */
export function assertTokenOption(
  token: unknown,
  name = 'token',
): asserts token is string | undefined {
  if (token !== undefined && typeof token !== 'string')
    throw invalidArgument(
      `${name} must be a string, got ${token === null ? 'null' : `a value of type ${typeof token}`} (not shown)`,
    );
}

/**
 * The circuit options the gate-model plugins' `anneal` may carry (braket, ibm): read by dqa-sim's
 * circuit export and by the `'dqa'` dry-run fallback.
 */
export const ANNEAL_CIRCUIT_KEYS = optionKeys<Omit<QasmOptions, 'dialect' | 'measure' | 'beta'>>({
  tau: true,
  steps: true,
  order: true,
  schedule: true,
  calibrate: true,
  maxQubits: true,
});
