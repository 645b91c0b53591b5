import { createRng } from '@boltzmann/ising-core';
import type { Rng } from '@boltzmann/ising-core';
import { encodeBracketStrings, bracketVocab } from './bracketEncoding.js';
import type { BracketBatch } from './bracketEncoding.js';
import {
  DEFAULT_ENUMERATION_LIMIT,
  enumerateBracketStrings,
  sampleBracketString,
} from './bracketStrings.js';
import type { BracketMode, BracketTypes } from './bracketStrings.js';
import { DatasetError } from './errors.js';
import { assertFiniteNumber, assertIntInRange, describe } from './internal/assert.js';
import { checkBracketSpec } from './internal/bracketSpec.js';
import { bracketTable } from './internal/bracketTable.js';
import { fnv1a32 } from './internal/fnv1a.js';

/**
 * Whether a bracket string belongs to the held-out test set: FNV-1a (32-bit) of the string is
 * divisible by 5, which holds out about 20 % of the distinct strings.
 *
 * It depends on the string only — not on any seed, model or run — so every variant and seed shares
 * one split.
 *
 * @param s a bracket string.
 * @returns true when `s` is held out (never trained on).
 * @example
 * import { isHeldOutBracketString } from '@boltzmann/datasets';
 *
 * console.log(isHeldOutBracketString('(()())')); // whether this string is in the test split
 * @category Brackets
 */
export function isHeldOutBracketString(s: string): boolean {
  return fnv1a32(s) % 5 === 0;
}

/**
 * Options of {@link bracketTask}.
 *
 * @category Brackets
 */
export interface BracketTaskOptions {
  /** String length (≥ 2; even for `balanced`). */
  T: number;
  /** Default `'balanced'`. */
  mode?: BracketMode;
  /** Default 1. */
  types?: BracketTypes;
  /** Seed of the training stream. Default 0. */
  seed?: number;
  /** Spaces with at most this many strings are enumerated (the test set is then every held-out string). Default 200,000. */
  enumerationLimit?: number;
  /** Size of the test sample when the space is too large to enumerate. Default 2048. */
  testSize?: number;
  /** Seed of that test sample; independent of `seed` so all runs share it. Default 0. */
  testSeed?: number;
}

/**
 * A bracket-matching task: a seeded training stream and a fixed held-out test set.
 *
 * @category Brackets
 */
export interface BracketTask {
  readonly T: number;
  readonly mode: BracketMode;
  readonly types: BracketTypes;
  /** Token characters in id order ({@link bracketVocab}). */
  readonly vocab: readonly string[];
  /** Exact number of distinct strings. */
  readonly totalCount: bigint;
  /** True when the space was enumerated and `test` holds every held-out string. */
  readonly enumerated: boolean;
  /** Number of distinct training strings when enumerated, else undefined. */
  readonly trainCount: number | undefined;
  /** The test set: all held-out strings (in rank order) or a fixed sample of distinct ones. */
  readonly test: BracketBatch;
  /**
   * The next `batchSize` training strings, each uniform over the non-held-out strings.
   * @throws {DatasetError} DATASET_INVALID_ARGUMENT when batchSize is not a positive integer.
   */
  nextBatch(batchSize: number): BracketBatch;
  /** The generator state, for checkpoints. */
  saveState(): readonly number[];
  /** Resumes the training stream from {@link BracketTask.saveState}. */
  restoreState(state: readonly number[]): void;
}

/**
 * Builds the bracket-matching task of METHOD.md §5: strings drawn uniformly by path counting,
 * about 20 % of the distinct strings held out by hash ({@link isHeldOutBracketString}).
 * Training draws a uniform string and redraws while it is held out; rejection leaves the
 * distribution uniform on the remaining strings.
 *
 * @summary Builds the bracket-matching task of METHOD.md §5.
 * @param options see {@link BracketTaskOptions}.
 * @returns the task.
 * @throws {DatasetError} DATASET_INVALID_ARGUMENT for a bad spec or option, or a space so small
 *   that the train or the test side is empty (e.g. T = 2).
 * @example
 * import { bracketTask } from '@boltzmann/datasets';
 *
 * const task = bracketTask({ T: 16, mode: 'prefix', seed: 1 });
 * const batch = task.nextBatch(64); // tokens, targets (pointer or -1), mask
 * const accuracyOn = task.test; // all 2,583 held-out strings
 * console.log(batch.tokens.length, accuracyOn.tokens.length);
 * @category Brackets
 */
export function bracketTask(options: BracketTaskOptions): BracketTask {
  if (options === null || typeof options !== 'object') {
    throw new DatasetError(
      'DATASET_INVALID_ARGUMENT',
      `options must be an object, got ${describe(options)}`,
    );
  }
  const { T, mode, types } = checkBracketSpec(
    options.T,
    options.mode ?? 'balanced',
    options.types ?? 1,
  );
  const seed = assertFiniteNumber('seed', options.seed ?? 0);
  const testSeed = assertFiniteNumber('testSeed', options.testSeed ?? 0);
  const limit = assertIntInRange(
    'enumerationLimit',
    options.enumerationLimit ?? DEFAULT_ENUMERATION_LIMIT,
    0,
  );
  const testSize = assertIntInRange('testSize', options.testSize ?? 2048, 1, 1_000_000);
  const totalCount = bracketTable(T, mode, types).total;
  const describeSpec = `T = ${T}, mode '${mode}', ${types} type(s)`;

  let testStrings: string[];
  let trainCount: number | undefined;
  const enumerated = totalCount <= BigInt(limit);
  if (enumerated) {
    const all = enumerateBracketStrings(T, mode, types, limit);
    testStrings = all.filter(isHeldOutBracketString);
    trainCount = all.length - testStrings.length;
    if (trainCount === 0 || testStrings.length === 0) {
      throw new DatasetError(
        'DATASET_INVALID_ARGUMENT',
        `${describeSpec} has ${all.length} string(s), ${testStrings.length} held out: the train or test side is empty; use a larger T`,
      );
    }
  } else {
    // The held-out side is about a fifth of more than `limit` strings; cap the attempts anyway.
    const rng = createRng(testSeed);
    const chosen = new Set<string>();
    let attempts = 0;
    while (chosen.size < testSize) {
      if (++attempts > 100 * testSize + 10_000) {
        throw new DatasetError(
          'DATASET_INVALID_ARGUMENT',
          `could not draw ${testSize} distinct held-out strings for ${describeSpec}; lower testSize`,
        );
      }
      const s = sampleBracketString(T, mode, types, rng);
      if (isHeldOutBracketString(s)) chosen.add(s);
    }
    testStrings = [...chosen];
  }
  const test = encodeBracketStrings(testStrings);

  const rng: Rng = createRng(seed);
  return {
    T,
    mode,
    types,
    vocab: bracketVocab(types),
    totalCount,
    enumerated,
    trainCount,
    test,
    nextBatch(batchSize: number): BracketBatch {
      assertIntInRange('batchSize', batchSize, 1, 1 << 20);
      const strings: string[] = [];
      while (strings.length < batchSize) {
        const s = sampleBracketString(T, mode, types, rng);
        if (!isHeldOutBracketString(s)) strings.push(s);
      }
      return encodeBracketStrings(strings);
    },
    saveState: () => rng.save(),
    restoreState: (state) => rng.restore(state),
  };
}
