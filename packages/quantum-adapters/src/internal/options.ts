import { assertPluginOptions, assertSpinLimit, isIsingError } from '@boltzmann/ising-core';
import type { IsingBatch } from '@boltzmann/ising-core';
import { invalidArgument } from '../errors.js';

/**
 * ising-core's {@link assertPluginOptions} with this package's error: a misspelt option
 * (`numRead` for `numReads`) would otherwise be ignored silently, and a remote run is the worst
 * place to find out. Throws ADAPTER_INVALID_ARGUMENT with ising-core's message.
 */
export function assertKnownOptions(who: string, options: unknown, known: readonly string[]): void {
  try {
    assertPluginOptions(who, options, known);
  } catch (error) {
    if (isIsingError(error)) throw invalidArgument(error.message);
    throw error;
  }
}

/** Returns `value` when it is a positive integer, else throws ADAPTER_INVALID_ARGUMENT naming it. */
export function positiveInt(value: number, what: string): number {
  if (!Number.isInteger(value) || value < 1) throw invalidArgument(`${what} must be a positive integer, got ${String(value)}`);
  return value;
}

/** Rejects batches a remote sampler cannot take: empty (ADAPTER_INVALID_ARGUMENT), too many spins (IsingError ISING_TOO_MANY_SPINS). */
export function assertBatchFits(batch: IsingBatch, maxSpins: number, who: string): void {
  if (batch.size < 1) throw invalidArgument(`${who}: the batch is empty`);
  for (let q = 0; q < batch.size; q++) {
    const n = batch.spins[q]!;
    // The sampler contract's own code (IsingError), so callers handle every sampler's refusal alike.
    assertSpinLimit(n, maxSpins, `the ${who} sampler (problem ${q}; option maxSpins)`);
  }
  if (!Number.isFinite(batch.beta) || batch.beta <= 0) throw invalidArgument(`${who}: beta must be finite and positive, got ${batch.beta}`);
}
