import { assertSpinLimit, DEFAULT_EXACT_SPIN_LIMIT, revalidateBatch } from '../../batch.js';
import { echo } from '../../echo.js';
import { IsingError } from '../../errors.js';
import type { IsingBatch } from '../../types.js';
import type { ExactProblems } from './exactKernel.js';

/** Reads `maxSpins` from options (default 24) and checks it. */
export function resolveMaxSpins(maxSpins: number | undefined): number {
  const limit = maxSpins ?? DEFAULT_EXACT_SPIN_LIMIT;
  // 2^30 states would overflow the 32-bit state indices the kernels use.
  if (!Number.isInteger(limit) || limit < 1 || limit > 30) {
    throw new IsingError(
      'ISING_INVALID_ARGUMENT',
      `maxSpins must be an integer in [1, 30], got ${echo(maxSpins)}`,
    );
  }
  return limit;
}

/**
 * Validates a `threads` option: `'auto'` (also for `undefined`) or a positive integer. Counts above
 * the core count are capped where the threads start (`capThreadCount`), not here, so this stays free
 * of Node built-ins.
 *
 * @throws {IsingError} ISING_INVALID_ARGUMENT naming the value.
 */
export function resolveThreads(threads: unknown, who = 'threads'): 'auto' | number {
  if (threads === undefined || threads === 'auto') return 'auto';
  if (typeof threads !== 'number' || !Number.isInteger(threads) || threads < 1) {
    throw new IsingError(
      'ISING_INVALID_ARGUMENT',
      `${who} must be 'auto' or a positive integer, got ${echo(threads)}`,
    );
  }
  return threads;
}

/**
 * Re-validates a batch (it may be a hand-built object rather than one from `createIsingBatch`)
 * and enforces the exact-enumeration spin limit.
 *
 * @throws {IsingError} ISING_SHAPE_MISMATCH, ISING_NOT_FINITE, ISING_INVALID_ARGUMENT, ISING_TOO_MANY_SPINS
 */
export function validateExactBatch(batch: IsingBatch, maxSpins: number, who: string): IsingBatch {
  const checked = revalidateBatch(batch, who);
  let maxN = 0;
  for (let q = 0; q < checked.size; q++) maxN = Math.max(maxN, checked.spins[q]!);
  assertSpinLimit(maxN, maxSpins, who);
  return checked;
}

/** The kernel's view of a validated batch (no copies). */
export function problemsOf(batch: IsingBatch): ExactProblems {
  return {
    stride: batch.stride,
    beta: batch.beta,
    couplings: batch.couplings,
    spins: batch.spins,
    fields: batch.fields,
  };
}

/** `m = 2 P(s = +1) − 1` where a spin exists, zero elsewhere. */
export function magnetizationFromUp(
  up: Float64Array,
  spins: Int32Array,
  stride: number,
): Float64Array {
  const m = new Float64Array(up.length);
  for (let q = 0; q < spins.length; q++) {
    const start = q * stride;
    for (let j = 0; j < spins[q]!; j++) m[start + j] = 2 * up[start + j]! - 1;
  }
  return m;
}

/** Total enumeration work `Σ_q 2^{n_q}` of a batch. */
export function totalStates(spins: Int32Array): number {
  let t = 0;
  for (let q = 0; q < spins.length; q++) t += 2 ** spins[q]!;
  return t;
}

/**
 * Splits the problems into at most `parts` groups of nearly equal work `Σ 2^n`, each a
 * contiguous run of spin counts (largest first): in a causal batch one thread then takes the
 * longest rows and another the rest, so each enumerates fewer distinct lengths (one coupling
 * table and one ∂J transform per length) and keeps smaller tables in cache than an interleaved
 * split would.
 */
export function partitionProblems(spins: Int32Array, parts: number): Int32Array[] {
  const order = Array.from(spins.keys()).sort((a, b) => spins[b]! - spins[a]! || a - b);
  const total = totalStates(spins);
  const share = total / parts;
  const groups: number[][] = Array.from({ length: parts }, () => []);
  let before = 0;
  for (const q of order) {
    const w = 2 ** spins[q]!;
    // The group whose share holds this problem's midpoint.
    groups[Math.min(parts - 1, Math.floor((before + w / 2) / share))]!.push(q);
    before += w;
  }
  return groups.filter((g) => g.length > 0).map((g) => Int32Array.from(g.sort((a, b) => a - b)));
}

/** Copies the rows `indices` of a `size × stride` array into a new compact array. */
export function gatherRows(
  source: Float64Array,
  indices: Int32Array,
  stride: number,
): Float64Array {
  const out = new Float64Array(indices.length * stride);
  for (let i = 0; i < indices.length; i++)
    out.set(source.subarray(indices[i]! * stride, indices[i]! * stride + stride), i * stride);
  return out;
}

/** Writes compact rows back to their places in a `size × stride` array. */
export function scatterRows(
  target: Float64Array,
  rows: Float64Array,
  indices: Int32Array,
  stride: number,
): void {
  for (let i = 0; i < indices.length; i++)
    target.set(rows.subarray(i * stride, i * stride + stride), indices[i]! * stride);
}

/** The sub-batch of `indices` as compact arrays a worker can own (its buffers are transferable). */
export function compactProblems(p: ExactProblems, indices: Int32Array): ExactProblems {
  const spins = new Int32Array(indices.length);
  for (let i = 0; i < indices.length; i++) spins[i] = p.spins[indices[i]!]!;
  return {
    stride: p.stride,
    beta: p.beta,
    couplings: p.couplings.slice(),
    spins,
    fields: gatherRows(p.fields, indices, p.stride),
  };
}
