import { IsingError } from '../errors.js';
import type { Rng } from '../rng.js';

/** Rows and their occurrences, before energies are added. */
export interface Rows {
  readonly states: Int8Array;
  readonly occurrences?: Float64Array;
  readonly probabilities?: Float64Array;
}

/** Largest spin count whose `2^n` states `sampleIsing` lists or keeps as a distribution. */
export const DENSE_SPIN_LIMIT = 24;

/** Throws ISING_TOO_MANY_SPINS when `2^n` states are too many to list. */
export function assertDenseSpins(n: number, what: string): void {
  if (n > DENSE_SPIN_LIMIT)
    throw new IsingError(
      'ISING_TOO_MANY_SPINS',
      `sampleIsing: ${what} needs all 2^${n} states; it takes at most ${DENSE_SPIN_LIMIT} spins`,
    );
}

/**
 * Checks a distribution over `2^n` states (bit `j` of the index ⇔ `s_j = +1`): the right length,
 * finite, non-negative, positive total.
 *
 * @throws {IsingError} ISING_BAD_SAMPLES, ISING_NOT_FINITE
 */
export function checkDistribution(p: unknown, n: number, who: string): Float64Array {
  if (!(p instanceof Float64Array) || p.length !== 2 ** n)
    throw new IsingError(
      'ISING_BAD_SAMPLES',
      `${who} answered a distribution that is not a Float64Array of 2^${n} probabilities`,
    );
  let total = 0;
  for (let s = 0; s < p.length; s++) {
    const v = p[s]!;
    if (!Number.isFinite(v)) throw new IsingError('ISING_NOT_FINITE', `${who}: p[${s}] is ${v}`);
    if (v < 0) throw new IsingError('ISING_BAD_SAMPLES', `${who}: p[${s}] is ${v}; it must be ≥ 0`);
    total += v;
  }
  if (!(total > 0)) throw new IsingError('ISING_BAD_SAMPLES', `${who}: every probability is 0`);
  return p;
}

/** Writes the spins of state index `index` (bit `j` ⇔ `s_j = +1`) at `offset`. */
function writeState(states: Int8Array, offset: number, index: number, n: number): void {
  for (let j = 0; j < n; j++) states[offset + j] = (index >>> j) & 1 ? 1 : -1;
}

/** `reads` independent draws from `p` (inverse CDF, binary search), one row each. */
export function drawDense(p: Float64Array, n: number, reads: number, rng: Rng): Rows {
  const cdf = new Float64Array(p.length);
  let acc = 0;
  for (let s = 0; s < p.length; s++) cdf[s] = acc += p[s]!;
  const states = new Int8Array(reads * n);
  for (let i = 0; i < reads; i++) {
    const u = rng.next() * acc;
    let lo = 0;
    let hi = cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cdf[mid]! > u) hi = mid;
      else lo = mid + 1;
    }
    writeState(states, i * n, lo, n);
  }
  return { states };
}

/** Every state once, in index order, with `p` normalized (dimod's ExactSolver lists every state once). */
export function enumerateDense(p: Float64Array, n: number): Rows {
  let total = 0;
  for (const v of p) total += v;
  const states = new Int8Array(p.length * n);
  for (let s = 0; s < p.length; s++) writeState(states, s * n, s, n);
  return { states, probabilities: p.map((v) => v / total) };
}

/** The product distribution `∏_j (1 + m_j s_j)/2` over all `2^n` states. */
export function productDistribution(m: Float64Array, n: number): Float64Array {
  const p = new Float64Array(2 ** n).fill(1);
  for (let s = 0; s < p.length; s++)
    for (let j = 0; j < n; j++) p[s]! *= (1 + ((s >>> j) & 1 ? m[j]! : -m[j]!)) / 2;
  return p;
}

/** `reads` rows of independent spins with `p(s_j = +1) = (1 + m_j)/2`. */
export function drawProduct(m: Float64Array, n: number, reads: number, rng: Rng): Rows {
  const states = new Int8Array(reads * n);
  for (let i = 0; i < reads; i++)
    for (let j = 0; j < n; j++) states[i * n + j] = rng.next() < (1 + m[j]!) / 2 ? 1 : -1;
  return { states };
}

/** `⟨s_j⟩` of a distribution over `2^n` states. */
export function denseMagnetization(p: Float64Array, n: number): Float64Array {
  const m = new Float64Array(n);
  let total = 0;
  for (let s = 0; s < p.length; s++) {
    total += p[s]!;
    for (let j = 0; j < n; j++) m[j]! += (s >>> j) & 1 ? p[s]! : -p[s]!;
  }
  for (let j = 0; j < n; j++) m[j]! /= total;
  return m;
}
