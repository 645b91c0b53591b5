import { createDebug } from './debugLog.js';

/**
 * A Node built-in module when this runs on Node, else `undefined`: the way the isomorphic
 * packages reach Node-only APIs (worker threads, `require`, the file system) without importing a
 * Node built-in at the top level, which would break every browser bundle. Synchronous, through
 * `process.getBuiltinModule` (Node ≥ 20.16).
 *
 * @example
 * const os = nodeBuiltin<typeof import('node:os')>('node:os');
 * const cores = os?.availableParallelism() ?? navigator.hardwareConcurrency;
 */
export function nodeBuiltin<T>(id: `node:${string}`): T | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  return proc?.getBuiltinModule?.(id) as T | undefined;
}

const debug = createDebug('boltzmann:ising-core');

/**
 * Reports a warning once per call site: `process.emitWarning` on Node (Node's own channel, which
 * `--no-warnings` and `process.on('warning')` control); elsewhere, silent unless the
 * `boltzmann:ising-core` debug namespace is enabled (`enableDebug`, `localStorage.debug`).
 *
 * @example
 * emitWarning('worker threads could not start', 'ISING_THREADS_UNAVAILABLE');
 */
export function emitWarning(message: string, code: string, type = 'IsingWarning'): void {
  const proc = (
    globalThis as {
      process?: { emitWarning?: (m: string, o: { type: string; code: string }) => void };
    }
  ).process;
  if (typeof proc?.emitWarning === 'function') proc.emitWarning(message, { type, code });
  else debug(`${type} [${code}]: ${message}`);
}
