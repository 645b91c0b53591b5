// @boltzmann/ising-core/internal: plumbing the workspace's packages and apps share: echoing values
// into error messages, bounded reads of untrusted streams and files, credentials kept out of saved options
// and messages, atomic file writes, Node built-ins reached from isomorphic code, the worker
// thread helpers of the attention engine, and the recipes its threads rebuild the built-in
// samplers from. Not part of the public API: it may change in any release
// and is left out of the reference documentation.
export { assertFinite } from './batch.js';
export { recordingOf } from './convergenceRecorder.js';
export { createDebug } from './debugLog.js';
export type { DebugLogger } from './debugLog.js';
export { DEFAULT_ECHO_LENGTH, echo } from './echo.js';
export { ERROR_BRAND, hasErrorBrand } from './errorBrand.js';
export {
  canBlock,
  spawnThread,
  threadEntry,
  threadsUnsupported,
} from './internal/pool/poolThread.js';
export { shardRecipeOf } from './internal/pool/shardRecipe.js';
export type { ShardRecipe } from './internal/pool/shardRecipe.js';
export { samplerFromRecipe } from './internal/pool/shardSampler.js';
export type { PoolThread, WorkerEntry } from './internal/pool/poolThread.js';
export { emitWarning, nodeBuiltin } from './nodeBuiltin.js';
export { readBounded } from './readBounded.js';
export type { BoundedReader, BoundedSource } from './readBounded.js';
export { readRegularFile } from './readRegularFile.js';
export type { RegularFileRefusal } from './readRegularFile.js';
export { mergeSecretOptions, redactSecrets, splitSecretOptions } from './secretOptions.js';
export type { SplitOptions } from './secretOptions.js';
export { isSecretKey, keyWords } from './secretKeys.js';
export { redactUrlCredentials } from './urlCredentials.js';
export { atomicTempWriter, writeFileAtomic } from './writeFileAtomic.js';
