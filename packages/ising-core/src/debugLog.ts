/**
 * The packages' one logger: silent unless asked, in the manner of the `debug` npm package.
 * A message goes out when its namespace (`boltzmann:attention`, `boltzmann:ising-core`, …) matches
 * the enabled list: `enableDebug(…)` if called, else the `DEBUG` environment variable on Node, else
 * `localStorage.debug` in a browser. A list is comma- or space-separated; `*` matches anything and a
 * leading `-` excludes (`DEBUG=boltzmann:*,-boltzmann:ising-core`). Messages go to stderr on Node and
 * to `console.debug` elsewhere.
 */

/** A namespace's logger: call it with a message; `enabled` says whether it prints now. */
export interface DebugLogger {
  (message: string): void;
  readonly namespace: string;
  readonly enabled: boolean;
}

interface Patterns {
  readonly source: string;
  readonly include: readonly RegExp[];
  readonly exclude: readonly RegExp[];
}

let explicit: string | undefined;
let cached: Patterns | undefined;

function toRegExp(pattern: string): RegExp {
  const body = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${body}$`);
}

function parse(source: string): Patterns {
  const include: RegExp[] = [];
  const exclude: RegExp[] = [];
  for (const word of source.split(/[\s,]+/).filter(Boolean)) {
    if (word.startsWith('-')) exclude.push(toRegExp(word.slice(1)));
    else include.push(toRegExp(word));
  }
  return { source, include, exclude };
}

/** The enabled list now: `enableDebug`'s, else `DEBUG` (Node), else `localStorage.debug`. */
function currentSource(): string {
  if (explicit !== undefined) return explicit;
  const g = globalThis as {
    process?: { env?: Record<string, string | undefined> };
    localStorage?: { getItem?: (key: string) => string | null };
  };
  const fromEnv = g.process?.env?.DEBUG;
  if (fromEnv !== undefined) return fromEnv;
  try {
    return g.localStorage?.getItem?.('debug') ?? '';
  } catch {
    return ''; // storage denied (sandboxed frame, privacy mode)
  }
}

function isEnabled(namespace: string): boolean {
  const source = currentSource();
  if (cached?.source !== source) cached = parse(source);
  if (cached.exclude.some((r) => r.test(namespace))) return false;
  return cached.include.some((r) => r.test(namespace));
}

function write(line: string): void {
  const stderr = (globalThis as { process?: { stderr?: { write?: (s: string) => unknown } } })
    .process?.stderr;
  if (typeof stderr?.write === 'function') stderr.write(`${line}\n`);
  else console.debug(line);
}

/**
 * Turns the packages' diagnostic messages on or off, overriding `DEBUG` and `localStorage.debug`:
 * `enableDebug('boltzmann:*')` turns them all on, `enableDebug('')` all off, `enableDebug(undefined)`
 * goes back to the environment.
 *
 * @summary Turns the packages' diagnostic messages on or off, overriding `DEBUG` and `localStorage.debug`.
 * @param namespaces a comma- or space-separated list; `*` matches anything, a leading `-` excludes.
 * @example
 * import { enableDebug } from '@boltzmann/ising-core';
 *
 * enableDebug('boltzmann:*'); // e.g. initBackend() now reports the TensorFlow.js backend it chose
 * enableDebug(undefined); // back to the DEBUG environment variable
 * @category Runtime
 */
export function enableDebug(namespaces: string | undefined): void {
  explicit = namespaces;
}

/**
 * The logger of one namespace (`boltzmann:<package>`): prints `namespace message` when the
 * namespace is enabled (see {@link enableDebug}), nothing otherwise.
 *
 * @example
 * const log = createDebug('boltzmann:attention');
 * log('TensorFlow.js backend "wasm"'); // printed only under DEBUG=boltzmann:*
 */
export function createDebug(namespace: string): DebugLogger {
  const logger = (message: string): void => {
    if (isEnabled(namespace)) write(`${namespace} ${message}`);
  };
  Object.defineProperty(logger, 'namespace', { value: namespace, enumerable: true });
  Object.defineProperty(logger, 'enabled', { get: () => isEnabled(namespace), enumerable: true });
  return logger as DebugLogger;
}
