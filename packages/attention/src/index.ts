/**
 * Boltzmann attention for TensorFlow.js: the four attention variants as differentiable ops,
 * the Transformer and GPT of the experiments, the AdamW trainer, and the fused WebAssembly
 * training engine.
 *
 * @packageDocumentation
 * @module @boltzmann/attention
 */
export { AttentionError, isAttentionError } from './core/errors.js';
export type { AttentionErrorCode } from './core/errors.js';
export { initBackend } from './tfjs/backend.js';
export type { BackendName } from './tfjs/backend.js';
export {
  ATTENTION_VARIANTS,
  assertAttentionVariant,
  isAttentionVariant,
  usesSampler,
} from './core/variants.js';
export type { AttentionVariant } from './core/variants.js';
export { causalAttentionWeights, withDeferredOpErrors } from './tfjs/causalAttentionWeights.js';
export type { CausalOpSource } from './tfjs/causalAttentionWeights.js';
export { headBatches } from './model/headEstimates.js';
export { prepareEstimates } from './tfjs/prepareEstimates.js';
export { DEFAULT_SAMPLER_TIMEOUT_MS } from './model/samplerDeadline.js';
export type {
  MagnetizationSource,
  PreparedEstimates,
  PreparedHead,
  ResidentHead,
} from './model/headEstimates.js';
export { attentionWeights, causalMask } from './tfjs/attentionWeights.js';
export type { AttentionWeightsOptions } from './tfjs/attentionWeights.js';
export { resolveTransformerConfig } from './core/transformerConfig.js';
export { FLOAT32_MAX, MAX_MODEL_FILE_BYTES, MODEL_LIMITS } from './core/modelLimits.js';
export { parseCouplingForm } from './core/couplingForm.js';
export { boltzmannAttention, prepareBoltzmannAttention } from './tfjs/boltzmannAttention.js';
export type { BoltzmannAttentionOptions } from './tfjs/boltzmannAttention.js';
export type { CouplingForm, ParsedCouplingForm } from './core/couplingForm.js';
export type {
  CouplingInit,
  ResolvedTransformerConfig,
  TransformerConfig,
} from './core/transformerConfigTypes.js';
export { createTransformer } from './tfjs/transformer.js';
export type {
  PassOptions,
  Transformer,
  TransformerParameter,
  TransformerPrepared,
} from './tfjs/modelTypes.js';
export type { TransformerJSON } from './core/modelFile.js';
export { withMaxLength } from './core/modelFile.js';
export { loadTransformer, readTransformer, saveTransformer } from './tfjs/serialization.js';
export type { SamplerOverrides, SaveTransformerOptions } from './tfjs/serialization.js';
export { decodeModelFile, encodeModelFile, parseModelFile } from './core/modelSafetensors.js';
export { decodeSafetensors, looksLikeSafetensors } from './core/safetensorsReader.js';
export { encodeSafetensors } from './core/safetensorsWriter.js';
export type { SafetensorsTensorInput } from './core/safetensorsWriter.js';
export { MAX_SAFETENSORS_HEADER_BYTES } from './core/safetensorsTypes.js';
export type {
  SafetensorsContents,
  SafetensorsDtype,
  SafetensorsTensor,
} from './core/safetensorsTypes.js';
export { maskedCrossEntropy } from './tfjs/loss.js';
export { createTrainer } from './tfjs/trainer.js';
export { createEngine } from './engine/engine.js';
export type { Engine, EngineOptions, EnginePass } from './engine/engineApi.js';
export type {
  EngineBackendInfo,
  EngineBackendRequest,
} from './engine/native/engineBackend.js';
export { describeEngineBackend } from './engine/native/engineBackend.js';
export { engineBackendInfo } from './engine/engineKernels.js';
export { createEngineTrainer } from './engine/engineTrainer.js';
export type {
  EngineModel,
  EngineTrainer,
  EngineTrainerOptions,
  EngineWeights,
} from './engine/engineTrainer.js';
export { engineModelOf } from './tfjs/engineModelOf.js';
export { engineThreadsUnsupported, setEngineWorkerFactory } from './engine/parallel/workerPool.js';
export type { TokenBatch } from './model/tokenBatch.js';
export type {
  Trainer,
  TrainerOptions,
  TrainerState,
  TrainStepResult,
} from './tfjs/trainer.js';
export { evaluate } from './tfjs/evaluate.js';
export { combineEvaluations, perplexity } from './model/evaluation.js';
export type { Evaluation } from './model/evaluation.js';
