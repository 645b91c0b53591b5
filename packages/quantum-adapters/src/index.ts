export { AdapterError, isAdapterError } from './errors.js';
export type { AdapterErrorCode, AdapterErrorOptions, AdapterErrorReason } from './errors.js';
export { decodeQpAnswer, encodeQpProblem, qpFullRows } from './qpCodec.js';
export type { QpAnswer, QpProblemData, QpTerms, SolverGraph } from './qpCodec.js';
