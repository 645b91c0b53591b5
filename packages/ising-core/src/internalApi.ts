/**
 * `@boltzmann/ising-core/internal`: the plumbing the workspace's other packages (`@boltzmann/*`)
 * share with this one, and only the names they import: echoing values into error messages, error
 * brands, bounded reads of untrusted streams and files, credentials kept out of saved options and
 * messages, atomic file writes, Node built-ins reached from isomorphic code, the debug logger, the
 * worker thread helpers of the attention engine and the recipes its threads rebuild the built-in
 * samplers from.
 *
 * Not public API and not covered by semver: any release may change or remove a name here, so
 * import it only from a `@boltzmann/*` package released together with this one. Left out of the
 * reference documentation.
 *
 * @internal
 * @packageDocumentation
 */
export { recordingOf } from './convergenceRecorder.js';
export { createDebug } from './debugLog.js';
export { echo } from './echo.js';
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
export type { PoolThread } from './internal/pool/poolThread.js';
export { nodeBuiltin } from './nodeBuiltin.js';
export { readBounded } from './readBounded.js';
export type { BoundedSource } from './readBounded.js';
export { readRegularFile } from './readRegularFile.js';
export type { RegularFileRefusal } from './readRegularFile.js';
export { mergeSecretOptions, redactSecrets, splitSecretOptions } from './secretOptions.js';
export { isSecretKey, keyWords } from './secretKeys.js';
export { atomicTempWriter, writeFileAtomic } from './writeFileAtomic.js';
