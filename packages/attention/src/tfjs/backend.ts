import * as tf from '@tensorflow/tfjs';
import { createDebug } from '@boltzmann/ising-core/internal';
import { AttentionError } from '../core/errors.js';

/**
 * A TensorFlow.js backend: `'wasm'` and `'cpu'`, which `initBackend` can start by itself, or the
 * name of any backend registered with tfjs (`'webgl'`, `'webgpu'`, `'tensorflow'` from
 * tfjs-node, your own).
 * @summary A TensorFlow.js backend.
 * @category Runtime
 */
export type BackendName = 'wasm' | 'cpu' | (string & {});

/**
 * Keeps tfjs's cpu backend from printing its "install tfjs-node" banner on its first tensor in
 * Node: this package runs on cpu on purpose when asked to, and its README promises a quiet start.
 * Only that one message is affected (the backend's first-use flag; tfjs warns nothing else there).
 */
export function quietCpuBanner(): void {
  const backend = tf.findBackend('cpu') as { firstUse?: boolean } | null;
  if (backend !== null && backend.firstUse === true) backend.firstUse = false;
}

/** The default report of `initBackend`: silent unless `DEBUG=boltzmann:attention` (or `boltzmann:*`). */
const debug = createDebug('boltzmann:attention');
const debugLog = (message: string): void => debug(message.replace(/^@boltzmann\/attention: /, ''));

let pending: Promise<BackendName> | undefined;
let pendingPreference: BackendName | undefined;

const PROCESS_EVENTS = ['uncaughtException', 'unhandledRejection'] as const;

/**
 * Runs `start` and then removes the `uncaughtException` / `unhandledRejection` listeners it
 * added. tfjs-backend-wasm's emscripten glue installs both, rethrowing from inside its own
 * code, so a user's unhandled rejection would exit the process with code 7 and a trace into
 * the glue instead of Node's own report of the user's error.
 */
async function withoutGlueListeners<T>(start: () => Promise<T>): Promise<T> {
  // The untyped view: Node's overloads do not take the union of the two event names.
  type Listener = (...args: unknown[]) => void;
  const proc = (
    globalThis as {
      process?: {
        listeners(e: string): Listener[];
        removeListener(e: string, l: Listener): unknown;
      };
    }
  ).process;
  if (typeof proc?.listeners !== 'function') return start();
  const before = new Map(PROCESS_EVENTS.map((e) => [e, new Set(proc.listeners(e))]));
  try {
    return await start();
  } finally {
    for (const event of PROCESS_EVENTS) {
      for (const listener of proc.listeners(event)) {
        if (!before.get(event)!.has(listener)) proc.removeListener(event, listener);
      }
    }
  }
}

/** The package that provides the wasm backend: an optional peer dependency, loaded on first use. */
export const WASM_BACKEND_PACKAGE = '@tensorflow/tfjs-backend-wasm';

/** True when `error` (or an error it wraps, as loaders and test runners do) says a module is not installed. */
function isMissingModule(error: unknown): boolean {
  for (
    let e: unknown = error, depth = 0;
    e !== undefined && e !== null && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (
      code === 'ERR_MODULE_NOT_FOUND' ||
      code === 'MODULE_NOT_FOUND' ||
      /Cannot find (module|package)/.test(String(message))
    )
      return true;
  }
  return false;
}

/**
 * Registers the wasm backend by importing its package (once). The `cpu` backend ships with
 * `@tensorflow/tfjs` itself.
 *
 * @throws {AttentionError} ATTENTION_BACKEND_UNAVAILABLE naming the package when it is not installed.
 */
async function registerWasm(): Promise<void> {
  if (tf.findBackendFactory('wasm') !== null) return;
  try {
    // A literal specifier, so that bundlers see (and can split out) the optional package.
    await import('@tensorflow/tfjs-backend-wasm');
  } catch (error) {
    const missing = isMissingModule(error);
    throw new AttentionError(
      'ATTENTION_BACKEND_UNAVAILABLE',
      missing
        ? `the wasm backend needs the package ${WASM_BACKEND_PACKAGE}: install it (pnpm add ${WASM_BACKEND_PACKAGE}@^4.22.0) or call initBackend('cpu')`
        : `${WASM_BACKEND_PACKAGE} failed to load: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}

/** Starts a backend registered by the user (no fallback: they chose it). */
async function activateRegistered(
  name: string,
  log: (message: string) => void,
): Promise<BackendName> {
  if (tf.findBackendFactory(name) === null)
    throw new AttentionError(
      'ATTENTION_BACKEND_UNAVAILABLE',
      `no TensorFlow.js backend "${name}" is registered: import its package first (e.g. @tensorflow/tfjs-backend-${name}), or use 'wasm' or 'cpu'`,
    );
  if (!(await tf.setBackend(name)))
    throw new AttentionError(
      'ATTENTION_BACKEND_UNAVAILABLE',
      `the TensorFlow.js backend "${name}" is registered but could not start here`,
    );
  await tf.ready();
  log(`@boltzmann/attention: TensorFlow.js backend "${name}"`);
  return name;
}

async function activate(
  preferred: BackendName,
  log: (message: string) => void,
): Promise<BackendName> {
  if (preferred !== 'wasm' && preferred !== 'cpu') return activateRegistered(preferred, log);
  const order: BackendName[] = preferred === 'wasm' ? ['wasm', 'cpu'] : ['cpu'];
  const failures: string[] = [];
  for (const name of order) {
    try {
      if (name === 'wasm') await registerWasm();
      if (await withoutGlueListeners(() => tf.setBackend(name))) {
        await tf.ready();
        quietCpuBanner();
        log(`@boltzmann/attention: TensorFlow.js backend "${name}"`);
        return name;
      }
      failures.push(`${name}: setBackend returned false`);
    } catch (error) {
      failures.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (name === 'wasm')
      log(
        `@boltzmann/attention: wasm backend unavailable (${failures.at(-1)}); falling back to cpu`,
      );
  }
  throw new AttentionError(
    'ATTENTION_BACKEND_UNAVAILABLE',
    `no TensorFlow.js backend could start (${failures.join('; ')})`,
  );
}

/**
 * Selects the TensorFlow.js backend: `wasm` (SIMD; default) with the `cpu` backend as a
 * fallback, `cpu` only, or any backend registered with tfjs by name (`'webgl'`, `'webgpu'`,
 * `'tensorflow'`…; import its package first), with no fallback. The ops and the layer run on
 * whichever is active. Idempotent: repeated calls with the same preference share one
 * initialization; a different preference switches the backend.
 *
 * @summary Selects the TensorFlow.js backend.
 * @param preferred `'wasm'` (default), `'cpu'` or a registered backend's name.
 * @param options.log where to report the chosen backend and a fallback (default: nowhere, unless the
 *   `boltzmann:attention` debug namespace is enabled: `DEBUG=boltzmann:*` on Node, `enableDebug`
 *   of `@boltzmann/ising-core` anywhere; pass `console.info` to always print).
 * @returns the backend now active.
 * @throws {AttentionError} ATTENTION_BACKEND_UNAVAILABLE when no backend starts, or the named
 *   one is not registered or cannot start; ATTENTION_INVALID_ARGUMENT for a name that is not a
 *   non-empty string.
 * @example
 * import { initBackend } from '@boltzmann/attention';
 *
 * const backend = await initBackend(); // 'wasm', or 'cpu' if wasm cannot start
 * console.log(backend);
 * @category Runtime
 */
export function initBackend(
  preferred: BackendName = 'wasm',
  options: { log?: (message: string) => void } = {},
): Promise<BackendName> {
  if (typeof preferred !== 'string' || preferred.length === 0) {
    return Promise.reject(
      new AttentionError(
        'ATTENTION_INVALID_ARGUMENT',
        `backend ${JSON.stringify(preferred)} is not 'wasm', 'cpu' or a registered backend's name`,
      ),
    );
  }
  if (pending !== undefined && pendingPreference === preferred) return pending;
  pendingPreference = preferred;
  const attempt = activate(preferred, options.log ?? debugLog);
  pending = attempt;
  // A failed start must not poison later calls.
  attempt.catch(() => {
    if (pending === attempt) pending = undefined;
  });
  return attempt;
}
