/**
 * Sampler plugins for quantum hardware: D-Wave Leap (SAPI v3), Amazon Braket and IBM Quantum
 * (Qiskit Runtime Sampler V2, circuits routed onto the device), with dry runs, bounded retries and
 * coded errors.
 *
 * @packageDocumentation
 * @module @boltzmann/quantum-adapters
 */
export { AdapterError, adapterErrorOf, isAdapterError } from './shared/errors.js';
export type { AdapterErrorCode, AdapterErrorOptions, AdapterErrorReason } from './shared/errors.js';
export { decodeQpAnswer, encodeQpProblem, qpFullRows } from './dwave/qpCodec.js';
export type { QpAnswer, QpProblemData } from './dwave/qpCodec.js';
export type { QpTerms, SolverGraph } from './embedding/solverGraph.js';
export {
  chimeraCliqueCapacity,
  chimeraCliqueEmbedding,
  chimeraGraph,
  chimeraIndex,
} from './embedding/chimera.js';
export type { ChimeraShape } from './embedding/chimera.js';
export {
  embedIsing,
  unembedMajority,
  uniformTorqueCompensation,
  validateEmbedding,
} from './embedding/embedding.js';
export type {
  EmbeddedIsing,
  Embedding,
  EmbeddingCheck,
  LogicalIsing,
  UnembedResult,
} from './embedding/embedding.js';
export { classifyDwaveError } from './dwave/classifyDwaveError.js';
export {
  createSapiClient,
  DEFAULT_DWAVE_REGION,
  DEFAULT_SAPI_MAX_RESPONSE_BYTES,
  redactSecret,
} from './dwave/sapiClient.js';
export type {
  SapiClient,
  SapiClientOptions,
  SapiJob,
  SapiProblemState,
  SapiProblemStatus,
  SapiSolver,
  SapiSolverIdentity,
} from './dwave/sapiTypes.js';
export type { RetryPolicy } from './shared/retry.js';
export { DWAVE_PROBLEMS_PER_SUBMIT } from './dwave/dwaveRun.js';
export type { PollBackoff } from './shared/retry.js';
export { selectDwaveSolver } from './dwave/dwaveSolver.js';
export type { DwaveSolverFilter } from './dwave/dwaveSolver.js';
export { createDwaveSampler, dwaveSampler } from './dwave/dwaveSampler.js';
export type { DwaveRunInfo, DwaveSampler, DwaveSamplerOptions } from './dwave/dwaveSamplerTypes.js';
export { batchProblemToBqm, dimodBqmJson } from './dwave/bqmJson.js';
export { dwaveCostEstimate } from './dwave/dwaveCost.js';
export type { DwaveCostInput } from './dwave/dwaveCost.js';
export { ADVANTAGE_4_1_TIMING, dwaveAccessTime } from './dwave/dwaveTiming.js';
export type { DwaveAccessTime, DwaveTimingData } from './dwave/dwaveTiming.js';
export type { DimodBqmJson } from './dwave/bqmJson.js';
export { costOf } from './shared/costEstimate.js';
export type { Cost, CostEstimate, CostLimit } from './shared/costEstimate.js';
export { createDryRunWriter } from './shared/dryRun.js';
export type { DryRunCall, DryRunOptions, DryRunWriter } from './shared/dryRun.js';
export { classifyBraketError } from './braket/classifyBraketError.js';
export { decodeBraketResults } from './braket/braketResults.js';
export { batchProblemToQasm } from './braket/braketQasm.js';
export {
  BRAKET_PRICING_SOURCE,
  BRAKET_SHOT_RATES,
  BRAKET_TASK_FEE_USD,
  braketCostEstimate,
  braketShotRate,
} from './braket/braketCost.js';
export type { BraketShotRate } from './braket/braketCost.js';
export {
  braketSampler,
  createBraketSampler,
  DEFAULT_BRAKET_MAX_RESPONSE_BYTES,
  DEFAULT_BRAKET_MAX_RESULT_BYTES,
  SV1_DEVICE_ARN,
} from './braket/braketSampler.js';
export type {
  BraketRunInfo,
  BraketSampler,
  BraketSamplerOptions,
} from './braket/braketSamplerTypes.js';
export { greedyCliqueEmbedding } from './embedding/greedyCliqueEmbedding.js';
export type { GreedyEmbeddingOptions } from './embedding/greedyCliqueEmbedding.js';
export {
  pegasusCliqueCapacity,
  pegasusCliqueEmbedding,
  pegasusGraph,
  pegasusIndex,
  pegasusNiceIndex,
} from './embedding/pegasus.js';
export {
  zephyrChimeraIndex,
  zephyrCliqueCapacity,
  zephyrCliqueEmbedding,
  zephyrGraph,
  zephyrIndex,
} from './embedding/zephyr.js';
export { createIbmSampler, DEFAULT_IBM_MAX_SPINS, ibmSampler } from './ibm/ibmSampler.js';
export type { IbmRunInfo, IbmSampler, IbmSamplerOptions } from './ibm/ibmSamplerTypes.js';
export { selectLayout, transpileAnneal } from './ibm/transpile.js';
export type { DeviceLayout, TranspileOptions } from './ibm/transpile.js';
export { IBM_BRISBANE_SNAPSHOT, IBM_FEZ_SNAPSHOT, knownIbmDevice } from './ibm/knownDevices.js';
export {
  estimateIbmUsage,
  IBM_JOB_OVERHEAD_SECONDS,
  IBM_OPEN_PLAN_SECONDS,
} from './ibm/ibmUsage.js';
export { circuitFidelity } from './ibm/circuitFidelity.js';
export type { CircuitFidelity } from './ibm/circuitFidelity.js';
export { DEFAULT_MIN_FIDELITY } from './ibm/trotterSteps.js';
export type { StepChoice } from './ibm/trotterSteps.js';
export type { IbmUsageEstimate } from './ibm/ibmUsage.js';
export type {
  IbmBackendConfiguration,
  IbmBackendProperties,
  IbmBackendStatus,
  IbmNduv,
  IbmTarget,
  IbmTwoQubitBasis,
  IsaCircuit,
  IsaCircuitStats,
} from './ibm/ibmTypes.js';
export { createRuntimeClient } from './ibm/runtimeClient.js';
export { decodeSamplerResults } from './ibm/ibmResults.js';
export type { SamplerPubLayout } from './ibm/ibmResults.js';
export { classifyIbmError } from './ibm/classifyIbmError.js';
export { DEFAULT_IBM_POLL_BACKOFF } from './ibm/runtimeJobs.js';
export {
  DEFAULT_IAM_ENDPOINT,
  DEFAULT_IBM_API_VERSION,
  DEFAULT_IBM_MAX_RESPONSE_BYTES,
  DEFAULT_RUNTIME_REGION,
  RUNTIME_REGIONS,
} from './ibm/runtimeOptions.js';
export type {
  ResponseLimit,
  RuntimeClient,
  RuntimeClientOptions,
  RuntimeJobMetrics,
  RuntimeJobState,
  RuntimeJobStatus,
  RuntimeSession,
  RuntimeSessionMode,
  RuntimeSessionRequest,
  SamplerJobRequest,
  SamplerPub,
  SamplerPubParams,
  SubmittedSamplerJob,
} from './ibm/runtimeTypes.js';
