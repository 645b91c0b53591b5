import { createRng } from '@boltzmann/ising-core';
import { echo } from '@boltzmann/ising-core/internal';
import type { Rng } from '@boltzmann/ising-core';
import { createCharVocab } from './charVocab.js';
import type { CharVocab } from './charVocab.js';
import { DatasetError } from './errors.js';
import { assertFiniteNumber, assertIntInRange, describe } from './internal/assert.js';

/**
 * Which part of a corpus: the first `trainFraction` (train) or the rest (validation).
 *
 * @category Tiny Shakespeare
 */
export type CharSplit = 'train' | 'validation';

/**
 * A batch of next-character windows.
 *
 * Window `b` covers tokens `starts[b] .. starts[b] + T` (T+1 tokens); `inputs` holds the first T
 * and `targets` the last T, so every position predicts the next character. Both are row-major
 * `batchSize × T`.
 * @category Tiny Shakespeare
 */
export interface TokenBatch {
  readonly inputs: Int32Array;
  readonly targets: Int32Array;
  /** Offset of each window inside its split. */
  readonly starts: Int32Array;
  readonly batchSize: number;
  readonly T: number;
}

/**
 * A character-level corpus: the text, its vocabulary, the encoded splits and window samplers.
 *
 * @category Tiny Shakespeare
 */
export interface CharCorpus {
  readonly text: string;
  readonly vocab: CharVocab;
  /** The whole text encoded. */
  readonly tokens: Int32Array;
  /** The first `floor(trainFraction · n)` tokens (a view of `tokens`). */
  readonly train: Int32Array;
  /** The remaining tokens (a view of `tokens`). */
  readonly validation: Int32Array;
  /**
   * Random windows of T+1 tokens from one split, drawn with `rng` (uniform start offsets).
   * @throws {DatasetError} DATASET_INVALID_ARGUMENT for a bad split, batch size or T.
   */
  sampleBatch(split: CharSplit, batchSize: number, T: number, rng: Rng): TokenBatch;
  /**
   * The fixed evaluation set: `count` windows of T+1 tokens from the validation split, a
   * pure function of (T, count, seed), so every model variant is scored on the same windows.
   * @throws {DatasetError} DATASET_INVALID_ARGUMENT for a bad T, count or seed.
   */
  validationWindows(T: number, count: number, seed: number): TokenBatch;
}

/**
 * Options of {@link createCharCorpus}.
 *
 * @category Tiny Shakespeare
 */
export interface CharCorpusOptions {
  /** Fraction of the tokens (from the start) used for training; the rest is validation. Default 0.9. */
  trainFraction?: number;
}

/**
 * Encodes a text and splits it: the first `floor(trainFraction · n)` tokens train, the rest validate.
 *
 * @param text the corpus.
 * @param options see {@link CharCorpusOptions}.
 * @returns the corpus with its window samplers.
 * @throws {DatasetError} DATASET_INVALID_ARGUMENT when the text is empty, has fewer than 2 distinct
 *   characters, or a split would be shorter than 2 tokens (one window of T = 1).
 * @example
 * import { createRng } from '@boltzmann/ising-core';
 * import { createCharCorpus } from '@boltzmann/datasets';
 *
 * const corpus = createCharCorpus('to be or not to be, that is the question');
 * const batch = corpus.sampleBatch('train', 4, 8, createRng(1));
 * console.log(batch.inputs.length); // 4 · 8 token ids
 * @category Tiny Shakespeare
 */
export function createCharCorpus(text: string, options: CharCorpusOptions = {}): CharCorpus {
  const trainFraction = assertFiniteNumber('trainFraction', options.trainFraction ?? 0.9);
  if (trainFraction <= 0 || trainFraction >= 1) {
    throw new DatasetError(
      'DATASET_INVALID_ARGUMENT',
      `trainFraction must be in (0, 1), got ${trainFraction}`,
    );
  }
  const vocab = createCharVocab(text);
  const tokens = vocab.encode(text);
  if (vocab.size < 2) {
    // A vocabulary of one leaves nothing to predict, and tfjs's one-hot of depth 1 fails in training.
    throw new DatasetError(
      'DATASET_INVALID_ARGUMENT',
      `a character corpus needs at least 2 distinct characters; this text of ${tokens.length} characters has ` +
        `1 distinct character (${echo(vocab.chars[0])})`,
    );
  }
  const cut = Math.floor(trainFraction * tokens.length);
  if (cut < 2 || tokens.length - cut < 2) {
    throw new DatasetError(
      'DATASET_INVALID_ARGUMENT',
      `a text of ${tokens.length} characters split at ${trainFraction} leaves a split shorter than 2 tokens`,
    );
  }
  const train = tokens.subarray(0, cut);
  const validation = tokens.subarray(cut);
  return Object.freeze({
    text,
    vocab,
    tokens,
    train,
    validation,
    sampleBatch(split: CharSplit, batchSize: number, T: number, rng: Rng): TokenBatch {
      if (split !== 'train' && split !== 'validation') {
        throw new DatasetError(
          'DATASET_INVALID_ARGUMENT',
          `split must be 'train' or 'validation', got ${describe(split)}`,
        );
      }
      return sampleWindows(split === 'train' ? train : validation, batchSize, T, rng);
    },
    validationWindows: (T: number, count: number, seed: number) =>
      fixedWindows(validation, T, count, seed),
  });
}

/**
 * Draws `batchSize` windows of T+1 consecutive tokens with exactly uniform start offsets
 * in `[0, tokens.length − T − 1]`.
 *
 * @param tokens the encoded split.
 * @param batchSize number of windows (≥ 1).
 * @param T context length (≥ 1); each window has T+1 tokens.
 * @param rng the shared seeded generator (`createRng` from `@boltzmann/ising-core`).
 * @returns inputs/targets of shape `batchSize × T`.
 * @throws {DatasetError} DATASET_INVALID_ARGUMENT for a bad batch size, T, or a split shorter than T+1.
 * @example
 * import { createRng } from '@boltzmann/ising-core';
 * import { createCharCorpus, sampleWindows } from '@boltzmann/datasets';
 *
 * const corpus = createCharCorpus('to be or not to be, that is the question; '.repeat(20));
 * const { inputs, targets } = sampleWindows(corpus.train, 64, 12, createRng(0));
 * console.log(inputs.length, targets.length);
 * @category Tiny Shakespeare
 */
export function sampleWindows(
  tokens: Int32Array,
  batchSize: number,
  T: number,
  rng: Rng,
): TokenBatch {
  if (!(tokens instanceof Int32Array)) {
    throw new DatasetError(
      'DATASET_INVALID_ARGUMENT',
      `tokens must be an Int32Array, got ${describe(tokens)}`,
    );
  }
  assertIntInRange('batchSize', batchSize, 1, 1 << 24);
  assertIntInRange('T', T, 1);
  if (tokens.length < T + 1) {
    throw new DatasetError(
      'DATASET_INVALID_ARGUMENT',
      `T = ${T} needs at least ${T + 1} tokens, the split has ${tokens.length}`,
    );
  }
  if (rng === null || typeof rng !== 'object' || typeof rng.nextInt !== 'function') {
    throw new DatasetError(
      'DATASET_INVALID_ARGUMENT',
      `rng must be an Rng from createRng, got ${describe(rng)}`,
    );
  }
  const positions = tokens.length - T;
  const inputs = new Int32Array(batchSize * T);
  const targets = new Int32Array(batchSize * T);
  const starts = new Int32Array(batchSize);
  for (let b = 0; b < batchSize; b++) {
    const s = rng.nextInt(positions);
    starts[b] = s;
    inputs.set(tokens.subarray(s, s + T), b * T);
    targets.set(tokens.subarray(s + 1, s + T + 1), b * T);
  }
  return { inputs, targets, starts, batchSize, T };
}

/**
 * A fixed set of `count` windows: {@link sampleWindows} driven by `createRng(seed)`, so the
 * result depends only on (tokens, T, count, seed).
 *
 * @param tokens the encoded split (usually the validation split).
 * @param T context length.
 * @param count number of windows.
 * @param seed the seed of the window offsets.
 * @returns the windows.
 * @throws {DatasetError} DATASET_INVALID_ARGUMENT for a bad T, count, seed or a too short split.
 * @example
 * import { createCharCorpus, fixedWindows } from '@boltzmann/datasets';
 *
 * const corpus = createCharCorpus('to be or not to be, that is the question; '.repeat(20));
 * const evalSet = fixedWindows(corpus.validation, 12, 16, 1234); // the same 16 windows every call
 * console.log(evalSet.inputs.length);
 * @category Tiny Shakespeare
 */
export function fixedWindows(
  tokens: Int32Array,
  T: number,
  count: number,
  seed: number,
): TokenBatch {
  assertFiniteNumber('seed', seed);
  return sampleWindows(tokens, count, T, createRng(seed));
}
