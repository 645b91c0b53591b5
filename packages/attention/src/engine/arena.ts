/**
 * The engine's arena: the one WebAssembly memory every kernel reads and writes by float offset,
 * how a generated kernel module is instantiated on it, and the checks of sizes and offsets that
 * every kernel wrapper shares.
 */
import { AttentionError } from '../core/errors.js';
import { type KernelBackend, engineModuleExports } from './native/engineBackend.js';

/** The few WebAssembly JS API members the engine uses (the workspace's type libraries lack them). */
export interface EngineMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

interface WasmApi {
  Memory: new (descriptor: { initial: number; maximum?: number; shared?: boolean }) => EngineMemory;
  Module: (new (
    bytes: Uint8Array,
  ) => object) & {
    exports(module: object): { readonly name: string; readonly kind: string }[];
  };
  Instance: new (module: object, imports: object) => { readonly exports: unknown };
}

const PAGE_FLOATS = 16384;

/** The most pages a shared arena may grow to (4 GiB), as every shared module's import declares. */
const SHARED_MAX_PAGES = 65536;

/** Whether `memory` is a shared arena (its buffer a SharedArrayBuffer). */
export function isSharedArena(memory: EngineMemory): boolean {
  const Shared = (globalThis as { SharedArrayBuffer?: new () => object }).SharedArrayBuffer;
  return Shared !== undefined && memory.buffer instanceof Shared;
}

function wasmApi(): WasmApi {
  const api = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  if (api === undefined)
    throw new AttentionError(
      'ATTENTION_BACKEND_UNAVAILABLE',
      'the engine needs WebAssembly, which this JavaScript engine does not have',
    );
  return api;
}

/**
 * A WebAssembly memory of at least `floats` float32 entries: the engine's arena, which every
 * kernel reads and writes by offset. View it as `new Float32Array(memory.buffer)` (again after
 * a `grow`, which detaches the old buffer).
 */
export function createArena(floats: number, options: { shared?: boolean } = {}): EngineMemory {
  if (!Number.isSafeInteger(floats) || floats < 0)
    throw new AttentionError(
      'ATTENTION_INVALID_ARGUMENT',
      `arena size must be a non-negative integer number of floats, got ${floats}`,
    );
  const initial = Math.max(1, Math.ceil(floats / PAGE_FLOATS));
  if (options.shared !== true) return new (wasmApi().Memory)({ initial });
  try {
    return new (wasmApi().Memory)({ initial, maximum: SHARED_MAX_PAGES, shared: true });
  } catch (cause) {
    throw new AttentionError(
      'ATTENTION_BACKEND_UNAVAILABLE',
      'a shared arena needs shared WebAssembly memory (SharedArrayBuffer: in a browser, a cross-origin-isolated page)',
      { cause },
    );
  }
}

function noSimd(what: string, cause: unknown): AttentionError {
  return new AttentionError(
    'ATTENTION_BACKEND_UNAVAILABLE',
    `the engine ${what} kernels need WebAssembly SIMD, which this engine cannot run`,
    { cause },
  );
}

/**
 * Instantiates one of the engine's generated modules on `memory`, in its variant for a plain or
 * a shared memory; throws `ATTENTION_BACKEND_UNAVAILABLE` without WebAssembly (SIMD). With a
 * native `backend`, returns the addon's kernels of the module's export names instead (bound to
 * `memory`), and throws `ATTENTION_BACKEND_UNAVAILABLE` if the addon lacks one.
 */
export function instantiateEngineModule(
  variants: { readonly plain: string; readonly shared: string },
  memory: EngineMemory,
  what: string,
  backend?: KernelBackend,
) {
  const base64 = isSharedArena(memory) ? variants.shared : variants.plain;
  let compiled: { api: WasmApi; module: object };
  try {
    const api = wasmApi();
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    compiled = { api, module: new api.Module(bytes) };
  } catch (cause) {
    throw noSimd(what, cause);
  }
  const { api, module } = compiled;
  const names = api.Module.exports(module)
    .filter((e) => e.kind === 'function')
    .map((e) => e.name);
  const instantiate = () => {
    try {
      return new api.Instance(module, { env: { memory } }).exports;
    } catch (cause) {
      throw noSimd(what, cause);
    }
  };
  return engineModuleExports({ names, instantiate }, memory, what, backend);
}

/** Throws `ATTENTION_INVALID_ARGUMENT` unless `value` is a non-negative safe integer. */
export function engineCount(kernel: string, name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new AttentionError(
      'ATTENTION_INVALID_ARGUMENT',
      `${kernel}: ${name} must be a non-negative integer, got ${String(value)}`,
    );
  return value;
}

/** Throws `ATTENTION_SHAPE_MISMATCH` unless `size` floats at `at` lie inside the arena. */
export function engineFits(kernel: string, name: string, at: number, size: number, arena: number) {
  engineCount(kernel, name, at);
  if (size > 0 && at + size > arena)
    throw new AttentionError(
      'ATTENTION_SHAPE_MISMATCH',
      `${kernel}: ${name} (${size} floats at ${at}) ends past the arena's ${arena} floats`,
    );
}
