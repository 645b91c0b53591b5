import { createRng } from '@boltzmann/ising-core';
import type { BracketMode, BracketTypes } from './bracketStrings.js';
import { bracketTask } from './bracketTask.js';
import { assertIntInRange } from './internal/assert.js';
import type { BracketTask } from './bracketTask.js';
import type { CharCorpus } from './charCorpus.js';
import { mqar, mqarBatch } from './mqar.js';
import type { Mqar, MqarOptions } from './mqar.js';

/**
 * Added to a run's seed to seed its training-data stream, so that the data stream differs from
 * the weight-initialization stream seeded with the run's seed itself.
 * @category Training tasks
 */
export const TRAINING_DATA_SEED_OFFSET = 0x5eed;

/**
 * Seed of the fixed validation windows: shared by every run, so every variant sees the same text.
 *
 * @category Training tasks
 */
export const VALIDATION_SEED = 1234;

/**
 * One batch in a trainer's layout: row-major `batchSize × T`.
 *
 * @category Training tasks
 */
export interface TrainingBatch {
  readonly inputs: Int32Array;
  readonly targets: Int32Array;
  /** 1 where the position is scored (brackets: the closing brackets); absent when all are. */
  readonly mask?: Float32Array;
  readonly batchSize: number;
}

/**
 * A seeded, resumable training stream of one task.
 *
 * @category Training tasks
 */
export interface TrainingStream {
  /** Number of input token ids. */
  readonly vocabSize: number;
  /** Number of output classes: the vocabulary (next character) or T (brackets: the opener's position). */
  readonly outputSize: number;
  /** The next `batchSize` training sequences. */
  next(batchSize: number): TrainingBatch;
  /** The stream's state, for checkpoints. */
  saveState(): readonly number[];
  /** Resumes the stream from {@link TrainingStream.saveState}. */
  restoreState(state: readonly number[]): void;
}

/**
 * Next-character prediction: random training windows of `T + 1` characters of the train split,
 * drawn from `createRng(seed + TRAINING_DATA_SEED_OFFSET)`.
 *
 * @param corpus the character corpus (e.g. Tiny Shakespeare).
 * @param T context length.
 * @param seed the run's seed.
 * @returns the stream; `outputSize` is the vocabulary size.
 * @throws {DatasetError} DATASET_INVALID_ARGUMENT from `next` for a bad batch size or T.
 * @example
 * import { charTrainingStream, createCharCorpus } from '@boltzmann/datasets';
 *
 * const text = 'to be or not to be, that is the question; '.repeat(20);
 * const stream = charTrainingStream(createCharCorpus(text), 16, 0);
 * const { inputs, targets } = stream.next(32);
 * console.log(inputs.length, targets.length);
 * @category Training tasks
 */
export function charTrainingStream(corpus: CharCorpus, T: number, seed: number): TrainingStream {
  const rng = createRng(seed + TRAINING_DATA_SEED_OFFSET);
  return {
    vocabSize: corpus.vocab.size,
    outputSize: corpus.vocab.size,
    next(batchSize) {
      const b = corpus.sampleBatch('train', batchSize, T, rng);
      return { inputs: b.inputs, targets: b.targets, batchSize: b.batchSize };
    },
    saveState: () => rng.save(),
    restoreState: (state) => rng.restore(state),
  };
}

/**
 * The fixed evaluation set of next-character prediction: `windows` windows of the validation
 * split drawn with {@link VALIDATION_SEED}, the same for every variant and seed.
 *
 * @param corpus the character corpus.
 * @param T context length.
 * @param windows number of windows.
 * @returns the windows as one batch.
 * @throws {DatasetError} DATASET_INVALID_ARGUMENT for a bad T or count, or a too short split.
 * @example
 * import { charValidationSet, createCharCorpus } from '@boltzmann/datasets';
 *
 * const corpus = createCharCorpus('to be or not to be, that is the question; '.repeat(20));
 * const evalSet = charValidationSet(corpus, 16, 32);
 * console.log(evalSet.batchSize);
 * @category Training tasks
 */
export function charValidationSet(corpus: CharCorpus, T: number, windows: number): TrainingBatch {
  const b = corpus.validationWindows(T, windows, VALIDATION_SEED);
  return { inputs: b.inputs, targets: b.targets, batchSize: b.batchSize };
}

/**
 * Options of {@link bracketTrainingTask}.
 *
 * @category Training tasks
 */
export interface BracketTrainingOptions {
  /** String length. */
  readonly T: number;
  readonly mode: BracketMode;
  readonly types: BracketTypes;
  /** The run's seed; the stream is seeded with `seed + TRAINING_DATA_SEED_OFFSET`. */
  readonly seed: number;
}

/**
 * Bracket matching as a training stream, with its fixed held-out test set.
 *
 * @category Training tasks
 */
export interface BracketTrainingTask extends TrainingStream {
  /** The underlying task (vocabulary, counts, strings). */
  readonly task: BracketTask;
  /** Every held-out string (or a fixed sample of them), masked at the closing brackets. */
  readonly test: TrainingBatch;
}

/**
 * Bracket matching (METHOD.md §5): at every closing bracket predict its opener's position.
 * The training stream is `bracketTask` seeded with `seed + TRAINING_DATA_SEED_OFFSET`.
 *
 * @param options T, mode, types and the run's seed.
 * @returns the stream and the test set; `outputSize` is T.
 * @throws {DatasetError} DATASET_INVALID_ARGUMENT for a bad spec (see `bracketTask`).
 * @example
 * import { bracketTrainingTask } from '@boltzmann/datasets';
 *
 * const { next, test } = bracketTrainingTask({ T: 16, mode: 'prefix', types: 2, seed: 0 });
 * console.log(next(32).inputs.length, test.batchSize);
 * @category Training tasks
 */
export function bracketTrainingTask(options: BracketTrainingOptions): BracketTrainingTask {
  const task = bracketTask({
    T: options.T,
    mode: options.mode,
    types: options.types,
    seed: options.seed + TRAINING_DATA_SEED_OFFSET,
  });
  const { test } = task;
  return {
    task,
    vocabSize: task.vocab.length,
    outputSize: options.T,
    next(batchSize) {
      const b = task.nextBatch(batchSize);
      return { inputs: b.tokens, targets: b.targets, mask: b.mask, batchSize: b.batchSize };
    },
    test: {
      inputs: test.tokens,
      targets: test.targets,
      mask: test.mask,
      batchSize: test.batchSize,
    },
    saveState: () => task.saveState(),
    restoreState: (state) => task.restoreState(state),
  };
}

/**
 * Options of {@link mqarTrainingTask}: the task's settings and the run's seed.
 *
 * @category Training tasks
 */
export interface MqarTrainingOptions extends Omit<MqarOptions, 'seed' | 'testSeed'> {
  /** The run's seed; the training set is drawn with `seed + TRAINING_DATA_SEED_OFFSET`. */
  readonly seed: number;
}

/**
 * MQAR as a training stream, with its fixed held-out test set.
 *
 * @category Training tasks
 */
export interface MqarTrainingTask extends TrainingStream {
  /** The underlying task (settings, sets). */
  readonly task: Mqar;
  /** Every test sequence, masked at the queries. */
  readonly test: TrainingBatch;
}

/**
 * Multi-query associative recall ({@link mqar}) as a training stream: the training set is drawn
 * from `seed + TRAINING_DATA_SEED_OFFSET` and the test set from {@link VALIDATION_SEED}, so every
 * run of a grid is tested on the same sequences. The stream goes through the training set in
 * epochs, each in a fresh random order (as Zoology's data loader shuffles).
 *
 * @summary Multi-query associative recall ({@link mqar}) as a training stream.
 * @param options the task's settings and the run's seed.
 * @returns the stream and the test set; `outputSize` is the vocabulary.
 * @throws {DatasetError} DATASET_INVALID_ARGUMENT for a bad setting (see `mqar`).
 * @example
 * import { mqarTrainingTask } from '@boltzmann/datasets';
 *
 * const task = mqarTrainingTask({ vocabSize: 256, length: 64, numKvPairs: 8, trainExamples: 4096, testExamples: 256, seed: 0 });
 * const { inputs, targets, mask } = task.next(32);
 * console.log(inputs.length, targets.length, mask?.length);
 * @category Training tasks
 */
export function mqarTrainingTask(options: MqarTrainingOptions): MqarTrainingTask {
  const seed = options.seed + TRAINING_DATA_SEED_OFFSET;
  const task = mqar({ ...options, seed, testSeed: VALIDATION_SEED });
  const n = task.train.count;
  // The order's own stream (forked, so it does not replay the words that drew the set).
  const rng = createRng(seed).fork();
  let epochStart = rng.save();
  let order: Int32Array = new Int32Array(0);
  let cursor = 0;
  const shuffle = (): void => {
    order = Int32Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i > 0; i--) {
      const j = rng.nextInt(i + 1);
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
  };
  shuffle();
  const test = mqarBatch(task.test);
  return {
    task,
    vocabSize: task.vocabSize,
    outputSize: task.vocabSize,
    next(batchSize) {
      const rows = new Int32Array(assertIntInRange('batchSize', batchSize, 1, 1 << 20));
      for (let b = 0; b < batchSize; b++) {
        if (cursor === n) {
          epochStart = rng.save();
          shuffle();
          cursor = 0;
        }
        rows[b] = order[cursor++]!;
      }
      return mqarBatch(task.train, rows);
    },
    test,
    saveState: () => [...epochStart, cursor],
    restoreState(state) {
      const at = state[state.length - 1];
      assertIntInRange('the saved cursor', at, 0, n);
      rng.restore(state.slice(0, -1));
      epochStart = rng.save();
      shuffle();
      cursor = at as number;
    },
  };
}
