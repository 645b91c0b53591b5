/**
 * A statevector simulator of diabatic quantum annealing, its calibrated `dqa` sampler, the
 * effective-temperature integral, fidelity tools and an OpenQASM 3 export.
 *
 * @packageDocumentation
 * @module @boltzmann/dqa-sim
 */
export { DqaError, isDqaError } from './errors.js';
export type { DqaErrorCode } from './errors.js';
export { compileSchedule, SCHEDULE_PRESETS } from './schedule.js';
export { loadScheduleParser } from './scheduleParser.js';
export type { CompiledSchedule, ScheduleFunction, ScheduleSpec } from './schedule.js';
export { effectiveTemperature } from './effectiveTemperature.js';
export {
  annealDistribution,
  annealStatevector,
  calibrationGains,
  DEFAULT_MAX_QUBITS,
  DQA_MAX_STEPS,
  estimateMemoryBytes,
} from './anneal.js';
export type { AnnealOptions, CalibrationGains } from './anneal.js';
export type {
  AnnealCircuit,
  AnnealLayer,
  IsingProblem,
  MixerLayer,
  PhaseLayer,
  Statevector,
} from './types.js';
export { annealCircuit } from './annealCircuit.js';
export type { Calibration, Gains } from './internal/plan.js';
export { energyVector } from './energyVector.js';
export { DQA_MAX_SHOTS, sampleShots } from './sampleShots.js';
export { dqaSampler } from './dqaSampler.js';
export type { DqaSamplerOptions } from './dqaSampler.js';
export { toQasm3 } from './toQasm3.js';
export type { QasmOptions } from './toQasm3.js';
export { fidelity, fidelitySweep } from './fidelity.js';
export type { FidelityReport, FidelityRow, FidelitySweepInput } from './fidelity.js';
