/**
 * The datasets of the experiments: Tiny Shakespeare (loaded and verified), the
 * bracket-matching task and multi-query associative recall (MQAR).
 *
 * @packageDocumentation
 * @module @boltzmann/datasets
 */
export { DatasetError, isDatasetError } from './errors.js';
export type { DatasetErrorCode } from './errors.js';
export { createCharVocab } from './charVocab.js';
export type { CharVocab } from './charVocab.js';
export { createCharCorpus, fixedWindows, sampleWindows } from './charCorpus.js';
export type { CharCorpus, CharCorpusOptions, CharSplit, TokenBatch } from './charCorpus.js';
export {
  DATA_DIR_ENV,
  DEFAULT_DOWNLOAD_TIMEOUT_MS,
  DEFAULT_MAX_DOWNLOAD_BYTES,
  MAX_DATA_FILE_BYTES,
  TINY_SHAKESPEARE_SHA256,
  TINY_SHAKESPEARE_URL,
  loadTinyShakespeare,
  loadTinyShakespeareSync,
} from './tinyShakespeare.js';
export type {
  FetchLike,
  FetchResponseLike,
  TinyShakespeare,
  TinyShakespeareOptions,
} from './tinyShakespeare.js';
export { loadTinyShakespeareFrom } from './loadTinyShakespeareFrom.js';
export type {
  CorpusBytesSource,
  CorpusSource,
  CorpusSourceOptions,
  CorpusUrlSource,
  VerifiedCorpus,
} from './loadTinyShakespeareFrom.js';
export {
  DEFAULT_ENUMERATION_LIMIT,
  bracketStringAt,
  bracketStringRank,
  countBracketStrings,
  enumerateBracketStrings,
  sampleBracketString,
} from './bracketStrings.js';
export type { BracketMode, BracketTypes } from './bracketStrings.js';
export { bracketVocab, encodeBracketStrings, matchBrackets } from './bracketEncoding.js';
export type { BracketBatch } from './bracketEncoding.js';
export { bracketTask, isHeldOutBracketString } from './bracketTask.js';
export type { BracketTask, BracketTaskOptions } from './bracketTask.js';
export { MAX_MQAR_TOKENS, checkMqarSpec, mqar, mqarBatch, mqarGapWeights } from './mqar.js';
export type { Mqar, MqarBatch, MqarExamples, MqarOptions, MqarSpec } from './mqar.js';
export {
  TRAINING_DATA_SEED_OFFSET,
  VALIDATION_SEED,
  bracketTrainingTask,
  charTrainingStream,
  charValidationSet,
  mqarTrainingTask,
} from './trainingTasks.js';
export type {
  BracketTrainingOptions,
  BracketTrainingTask,
  MqarTrainingOptions,
  MqarTrainingTask,
  TrainingBatch,
  TrainingStream,
} from './trainingTasks.js';
