export { AdapterError, isAdapterError } from './errors.js';
export type { AdapterErrorCode, AdapterErrorOptions, AdapterErrorReason } from './errors.js';
export { decodeQpAnswer, encodeQpProblem, qpFullRows } from './qpCodec.js';
export type { QpAnswer, QpProblemData, QpTerms, SolverGraph } from './qpCodec.js';
export { chimeraCliqueCapacity, chimeraCliqueEmbedding, chimeraGraph, chimeraIndex } from './chimera.js';
export type { ChimeraShape } from './chimera.js';
export { embedIsing, unembedMajority, uniformTorqueCompensation, validateEmbedding } from './embedding.js';
export type { EmbeddedIsing, Embedding, EmbeddingCheck, LogicalIsing, UnembedResult } from './embedding.js';
