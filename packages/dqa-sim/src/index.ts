export { DqaError, isDqaError } from './errors.js';
export type { DqaErrorCode } from './errors.js';
export { compileSchedule, SCHEDULE_PRESETS } from './schedule.js';
export type { CompiledSchedule, ScheduleFunction, ScheduleSpec } from './schedule.js';
export { effectiveTemperature } from './effectiveTemperature.js';
export { annealDistribution, annealStatevector, calibrationGains, DEFAULT_MAX_QUBITS, estimateMemoryBytes } from './anneal.js';
export type { AnnealOptions, CalibrationGains, IsingProblem, Statevector } from './anneal.js';
export type { Calibration, Gains } from './internal/plan.js';
export { energyVector } from './energyVector.js';
