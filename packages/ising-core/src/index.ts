/**
 * The Ising-model engine behind Boltzmann attention: exact energies, partition functions,
 * magnetizations, correlations and their vector–Jacobian products; the batched causal op; the
 * sampler contract, registry and built-in samplers (`exact`, `transfer-matrix`, `tap`,
 * `mean-field`, `gibbs`).
 *
 * @packageDocumentation
 * @module @boltzmann/ising-core
 */
// @boltzmann/ising-core: the public API. The workspace's shared plumbing (echo, bounded reads,
// secret handling, atomic writes, Node built-ins, thread helpers) is @boltzmann/ising-core/internal.
export { IsingError, isIsingError } from './errors.js';
export type { IsingErrorCode } from './errors.js';
export type {
  BatchEstimate,
  ConvergenceDiagnostics,
  IsingBatch,
  IsingGradients,
  MaybePromise,
  RealArray,
  SampleResult,
  SampleSet,
  Sampler,
  SamplerCapabilities,
  SamplerOptionSpec,
  SamplerPlugin,
  SamplerRegistry,
  SamplerPluginMap,
  AnySamplerPlugin,
  BandedCouplings,
} from './types.js';
export {
  createSamplerRegistry,
  defineSamplerPlugin,
  assertSamplerPlugin,
  couplingBandwidth,
} from './registry.js';
export {
  DEFAULT_EXACT_SPIN_LIMIT,
  assertBeta,
  assertSpinLimit,
  causalBatch,
  createIsingBatch,
} from './batch.js';
export type { CausalShape } from './batch.js';
export { assertPluginOptions, optionKeys, optionSpecs } from './pluginOptions.js';
export { createRng, floorScaledInt } from './rng.js';
export type { Rng } from './rng.js';
export { estimateFromSamples } from './sampleEstimate.js';
export { GIBBS_LIMITS, gibbsSampler } from './gibbs.js';
export type { GibbsOptions } from './gibbs.js';
export { meanFieldEstimate, meanFieldSampler } from './meanField.js';
export type { MeanFieldEstimate, MeanFieldGradients, MeanFieldOptions } from './meanField.js';
export { tapEstimate, tapSampler } from './tap.js';
export { FIXED_POINT_LIMITS } from './internal/fixedPointEstimate.js';
export type { TapEstimate, TapOptions } from './tap.js';
export { estimateExact, estimateExactAsync, disposeExactWorkers } from './estimateExact.js';
export type {
  AsyncExactBatchEstimate,
  ExactAsyncOptions,
  ExactBatchEstimate,
  ExactOptions,
} from './estimateExact.js';
export {
  MAX_EXACT_SAMPLES,
  boltzmannDistribution,
  correlations,
  energies,
  logPartition,
  magnetizations,
  sampleExact,
} from './exact.js';
export type { ExactModelOptions } from './exact.js';
export { causalBoltzmann, causalBoltzmannAsync } from './exactCausalAttention.js';
export { causalClosedForm, causalWeightsFromEstimate } from './causalWeights.js';
export type { CausalWeights, ClosedFormVariant } from './causalWeights.js';
export { meanCouplingByDistance } from './couplingByDistance.js';
export type {
  CausalBoltzmannAsyncOptions,
  CausalBoltzmannAsyncResult,
  CausalBoltzmannForward,
  CausalBoltzmannOptions,
  CausalBoltzmannResult,
  CausalVariant,
} from './exactCausalAttention.js';
export { estimateFromDense } from './denseEstimate.js';
export { enableDebug } from './debugLog.js';
export { startThreads, threadInfo } from './threadInfo.js';
export { setWorkerFactory } from './workerFactory.js';
export type { WebWorkerLike, WorkerFactory } from './workerFactory.js';
export type { ThreadInfo } from './threadInfo.js';
export { batchedMatMul } from './batchedMatMul.js';
export type { BatchedMatMulShape } from './batchedMatMul.js';
export { exactSampler } from './exactSampler.js';
export type { ExactSamplerOptions } from './exactSampler.js';
export { estimateBatch } from './estimateBatch.js';
export { ATTENTION_VARIANTS, isAttentionVariant, usesSampler } from './variants.js';
export type { AttentionVariant } from './variants.js';
export { mergeConvergence, recordConvergence } from './convergenceRecorder.js';
export type { ConvergenceSummary, RecordingSampler } from './convergenceRecorder.js';
export {
  DEFAULT_BANDWIDTH,
  MAX_BANDWIDTH,
  TRANSFER_MATRIX_SPIN_LIMIT,
  estimateTransferMatrix,
} from './transferMatrix.js';
export { transferMatrixSampler } from './transferMatrixSampler.js';
export type { TransferMatrixEstimate, TransferMatrixOptions } from './transferMatrix.js';
export type { ThreadsOption } from './internal/pool/threadsOption.js';
export { sampleIsing } from './sampling/sampleIsing.js';
export { IsingSampleSet } from './sampling/isingSampleSet.js';
export type {
  DimodArray,
  DimodSampleSetJson,
  IsingSampleSetInfo,
  SampleIsingOptions,
  SampleRow,
  SampleSource,
} from './sampling/types.js';
