import {
  VALIDATION_SEED,
  bracketTrainingTask,
  charTrainingStream,
  charValidationSet,
  loadTinyShakespeare,
  mqarTrainingTask,
} from '@boltzmann/datasets';
import type { TinyShakespeare, TrainingStream } from '@boltzmann/datasets';
import { createRng } from '@boltzmann/ising-core';
import { join } from 'node:path';
import type { RunConfig } from '../types.js';
import { repoRoot } from '../paths.js';
import { recallOf } from './recallSettings.js';

/** One training or evaluation batch in the trainer's layout (row-major B × T). */
export interface TrainBatch {
  readonly inputs: Int32Array;
  readonly targets: Int32Array;
  /** 1 where the position counts in the loss (brackets: closing brackets). */
  readonly mask?: Float32Array;
}

/** A run's data: a resumable training stream and a fixed evaluation set. */
export interface TaskData {
  readonly vocabSize: number;
  readonly outputSize: number;
  next(batchSize: number): TrainBatch;
  /** The fixed evaluation batches (identical for every variant and seed). */
  readonly evalBatches: readonly TrainBatch[];
  /** `bench gpt`: fixed random batches of the train split, evaluated beside `evalBatches` (val). */
  readonly trainEvalBatches?: readonly TrainBatch[];
  saveState(): readonly number[];
  restoreState(state: readonly number[]): void;
}

const EVAL_CHUNK = 256;

let corpus: { key: string; value: Promise<TinyShakespeare> } | undefined;

/**
 * Tiny Shakespeare, loaded once per process: `--data` path, else `$BOLTZMANN_DATA_DIR`,
 * else the copy shipped at `<repo>/data/tinyshakespeare/input.txt`. A configured folder
 * without the file is a coded error (DATASET_NOT_FOUND), never a silent download.
 */
export function shakespeareCorpus(dataPath: string | undefined): Promise<TinyShakespeare> {
  const key = dataPath ?? '';
  if (corpus?.key !== key) {
    const options =
      dataPath !== undefined
        ? { path: dataPath }
        : process.env.BOLTZMANN_DATA_DIR
          ? {}
          : { dataDir: join(repoRoot(), 'data') };
    corpus = { key, value: loadTinyShakespeare(options) };
  }
  return corpus.value;
}

function chunk(
  inputs: Int32Array,
  targets: Int32Array,
  mask: Float32Array | undefined,
  T: number,
): TrainBatch[] {
  const rows = inputs.length / T;
  const out: TrainBatch[] = [];
  for (let r = 0; r < rows; r += EVAL_CHUNK) {
    const end = Math.min(rows, r + EVAL_CHUNK);
    const b: TrainBatch = {
      inputs: inputs.slice(r * T, end * T),
      targets: targets.slice(r * T, end * T),
      ...(mask ? { mask: mask.slice(r * T, end * T) } : {}),
    };
    out.push(b);
  }
  return out;
}

/** The bench's view of a shared training stream: batches without `batchSize` (the trainer derives it). */
function trainStream(stream: TrainingStream): Omit<TaskData, 'evalBatches'> {
  return {
    vocabSize: stream.vocabSize,
    outputSize: stream.outputSize,
    next(batchSize) {
      const { inputs, targets, mask } = stream.next(batchSize);
      return { inputs, targets, ...(mask ? { mask } : {}) };
    },
    saveState: () => stream.saveState(),
    restoreState: (s) => stream.restoreState(s),
  };
}

/**
 * Builds the data of one run with `@boltzmann/datasets`' training tasks: the training stream is
 * seeded from the run's seed (offset so it differs from the weight-initialization stream) and
 * its state is checkpointed.
 *
 * @param config the run config.
 * @param dataPath explicit Tiny Shakespeare file, if any.
 * @returns the task data.
 * @throws DatasetError codes from `@boltzmann/datasets` (missing/corrupt file, bad bracket or
 *   MQAR spec); BENCH_INVALID_JOB for an MQAR run without its settings.
 */
export async function createTaskData(config: RunConfig, dataPath?: string): Promise<TaskData> {
  const T = config.length;
  if (config.dataset === 'shakespeare') {
    const text = await shakespeareCorpus(dataPath);
    const stream = trainStream(charTrainingStream(text, T, config.seed));
    if (config.gpt) {
      // nanoGPT's estimate_loss: `evalBatches` random batches of each split. Drawn once from a
      // fixed seed, so every variant, seed and evaluation step sees the same text.
      const rows = config.gpt.evalBatches * config.batchSize;
      const split = (name: 'train' | 'validation', seed: number): TrainBatch[] => {
        const b = text.sampleBatch(name, rows, T, createRng(seed));
        return chunk(b.inputs, b.targets, undefined, T);
      };
      return {
        ...stream,
        evalBatches: split('validation', VALIDATION_SEED),
        trainEvalBatches: split('train', VALIDATION_SEED + 1),
      };
    }
    const evalSet = charValidationSet(text, T, config.evalWindows);
    return { ...stream, evalBatches: chunk(evalSet.inputs, evalSet.targets, undefined, T) };
  }
  if (config.dataset === 'mqar') {
    const r = recallOf(config);
    const task = mqarTrainingTask({ ...r, length: T, numKvPairs: r.kvPairs, seed: config.seed });
    return {
      ...trainStream(task),
      evalBatches: chunk(task.test.inputs, task.test.targets, task.test.mask, T),
    };
  }
  const task = bracketTrainingTask({
    T,
    mode: config.mode,
    types: config.types as 1 | 2 | 3,
    seed: config.seed,
  });
  return {
    ...trainStream(task),
    evalBatches: chunk(task.test.inputs, task.test.targets, task.test.mask, T),
  };
}
