import { echo } from './echo.js';
import { IsingError } from './errors.js';

/**
 * A small, fast, seedable pseudo-random generator (xoshiro128**, seeded through splitmix32).
 * Deterministic across platforms; its state can be saved and restored for checkpoints.
 * @category Runtime
 */
export interface Rng {
  /** Uniform in [0, 1) with 32 random bits: {@link Rng.nextU32} / 2^32. */
  next(): number;
  /** The next 32-bit word of the stream, an integer uniform in [0, 2^32). */
  nextU32(): number;
  /**
   * An exactly uniform integer in [0, n) for an integer 1 ≤ n ≤ 2^32: `nextU32() % n`, redrawn
   * while the word falls in the incomplete top block (`≥ 2^32 − 2^32 mod n`). n = 1 draws nothing.
   * @throws {IsingError} ISING_INVALID_ARGUMENT when n is not an integer in [1, 2^32].
   */
  nextInt(n: number): number;
  /** Standard normal (Box–Muller). */
  normal(): number;
  /** An independent generator derived from this one (for workers, chains, …). */
  fork(): Rng;
  /** The current state, for checkpoints; `createRng(0).restore(state)` continues the stream. */
  save(): readonly number[];
  restore(state: readonly number[]): void;
}

const TWO_32 = 4294967296;

function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/**
 * An exactly uniform integer in [0, n) (1 ≤ n ≤ 2^32) from uniform 32-bit words: `word % n`,
 * redrawn while the word is in the incomplete top block `[2^32 − 2^32 mod n, 2^32)`.
 * Exported for the tests, which script the words.
 */
export function exactInt(nextWord: () => number, n: number): number {
  if (n === 1) return 0;
  const limit = TWO_32 - (TWO_32 % n);
  for (;;) {
    const x = nextWord();
    if (x < limit) return x % n;
  }
}

/**
 * Creates a seeded generator.
 *
 * @param seed any finite number; equal seeds give equal streams.
 * @throws {IsingError} ISING_INVALID_ARGUMENT when the seed is not finite.
 * @example
 * import { createRng } from '@boltzmann/ising-core';
 *
 * const rng = createRng(42);
 * const u = rng.next(); // uniform in [0, 1)
 * const k = rng.nextInt(10); // uniform in 0 … 9
 * console.log(u, k);
 * @category Runtime
 */
export function createRng(seed: number): Rng {
  if (!Number.isFinite(seed))
    throw new IsingError('ISING_INVALID_ARGUMENT', `seed must be finite, got ${echo(seed)}`);
  const mix = splitmix32(Math.floor(seed) ^ Math.floor(seed / 2 ** 32));
  const s = new Uint32Array([mix(), mix(), mix(), mix()]);
  if ((s[0]! | s[1]! | s[2]! | s[3]!) === 0) s[0] = 1;
  let spare: number | undefined;

  const nextU32 = (): number => {
    const s0 = s[0]!;
    const s1 = s[1]!;
    const s2 = s[2]!;
    const s3 = s[3]!;
    const x = Math.imul(s1, 5);
    const result = Math.imul((x << 7) | (x >>> 25), 9) >>> 0;
    const t = s1 << 9;
    s[2] = s2 ^ s0;
    s[3] = s3 ^ s1;
    s[1] = s1 ^ s[2]!;
    s[0] = s0 ^ s[3]!;
    s[2] = s[2]! ^ t;
    s[3] = (s[3]! << 11) | (s[3]! >>> 21);
    return result;
  };

  const rng: Rng = {
    next: () => nextU32() / TWO_32,
    nextU32,
    nextInt(n) {
      if (!Number.isInteger(n) || n < 1 || n > TWO_32)
        throw new IsingError(
          'ISING_INVALID_ARGUMENT',
          `nextInt needs an integer in [1, 2^32], got ${echo(n)}`,
        );
      return exactInt(nextU32, n);
    },
    normal() {
      if (spare !== undefined) {
        const v = spare;
        spare = undefined;
        return v;
      }
      let u = 0;
      while (u === 0) u = rng.next();
      const v = rng.next();
      const r = Math.sqrt(-2 * Math.log(u));
      spare = r * Math.sin(2 * Math.PI * v);
      return r * Math.cos(2 * Math.PI * v);
    },
    fork: () => createRng(nextU32() * TWO_32 + nextU32()),
    save: () => [s[0]!, s[1]!, s[2]!, s[3]!, spare ?? Number.NaN],
    restore(state) {
      if (state.length !== 5 || state.slice(0, 4).some((v) => !Number.isInteger(v))) {
        throw new IsingError(
          'ISING_INVALID_ARGUMENT',
          'rng state must be the 5 numbers save() returned',
        );
      }
      s.set(state.slice(0, 4));
      // JSON turns the NaN of "no spare" into null: both mean none.
      const v = state[4];
      spare = typeof v === 'number' && !Number.isNaN(v) ? v : undefined;
    },
  };
  return rng;
}

/**
 * `floor(rng.next() · n)`: an integer in [0, n) whose probabilities are off uniform by up to
 * n/2^32 (relative).
 *
 * It is the mapping `Rng.nextInt` had before it became exact, kept under its own name for the
 * streams that must replay what was drawn with it (seeded clique embeddings, seeded test inputs).
 * New code uses {@link Rng.nextInt}.
 *
 * @param rng the generator (one `next()` per call).
 * @param n a positive integer.
 * @returns an integer in [0, n).
 * @throws {IsingError} ISING_INVALID_ARGUMENT when n is not a positive integer.
 * @example
 * import { createRng, floorScaledInt } from '@boltzmann/ising-core';
 *
 * const k = floorScaledInt(createRng(0), 10); // the same k as nextInt(10) gave before
 * console.log(k);
 * @category Runtime
 */
export function floorScaledInt(rng: Rng, n: number): number {
  if (!Number.isInteger(n) || n < 1)
    throw new IsingError(
      'ISING_INVALID_ARGUMENT',
      `floorScaledInt needs a positive integer, got ${echo(n)}`,
    );
  return Math.floor(rng.next() * n);
}
