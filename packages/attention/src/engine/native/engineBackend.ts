/**
 * Which kernels the engine runs: the native addon's (native/addon.c, at the CPU's vector width) or
 * the WebAssembly modules' (f32x4). Both have the same functions, named as the WAT modules'
 * exports and called with the same arguments, so a kernel wrapper (engine/<op>.ts) takes its
 * exports from {@link engineModuleExports} and does not know which runs. `'auto'` picks native
 * where the addon loads and has every kernel of every module, else WebAssembly, and says why.
 */
import { AttentionError } from '../../core/errors.js';
import { type NativeAddon, type NativeKernels, loadNativeAddon } from './nativeAddon.js';

/**
 * The backend asked for: native where it can run (`'auto'`), native or fail, or WebAssembly.
 *
 * @category Engine
 */
export type EngineBackendRequest = 'auto' | 'native' | 'wasm';

/**
 * The backend that runs, and why not native when it is not.
 *
 * @category Engine
 */
export interface EngineBackendInfo {
  readonly name: 'native' | 'wasm';
  /** `avx512`, `avx2`, `base` (SSE2), `neon`; `f32x4` for WebAssembly. */
  readonly isa: string;
  /** Float lanes of one vector. */
  readonly lanes: number;
  /** Why the native backend does not run (with `name: 'wasm'` under `'auto'`). */
  readonly reason?: string;
}

/** A chosen backend, as the kernel wrappers take it (`undefined` means WebAssembly). */
export interface KernelBackend {
  readonly info: EngineBackendInfo;
  /** The addon, for `name: 'native'`. */
  readonly addon?: NativeAddon;
}

const LANES: Readonly<Record<string, number>> = { avx512: 16, avx2: 8, base: 4, neon: 4 };

/** The WebAssembly backend, with the reason native does not run (if asked). */
export function wasmBackend(reason?: string): KernelBackend {
  return {
    info: { name: 'wasm', isa: 'f32x4', lanes: 4, ...(reason === undefined ? {} : { reason }) },
  };
}

function unavailable(reason: string): AttentionError {
  return new AttentionError(
    'ATTENTION_BACKEND_UNAVAILABLE',
    `the native engine backend cannot run: ${reason}`,
  );
}

/**
 * The backend for `request`: WebAssembly for `'wasm'`; the native addon at `isa` (default: the
 * best this CPU runs) for `'native'` and `'auto'`. `'native'` throws
 * `ATTENTION_BACKEND_UNAVAILABLE` with the reason where the addon does not load or lacks the ISA;
 * `'auto'` falls back to WebAssembly with the reason. Whether the addon has every kernel is checked
 * as the kernels are bound (createEngineKernels).
 */
export function resolveEngineBackend(
  request: EngineBackendRequest = 'auto',
  isa?: string,
): KernelBackend {
  if (request !== 'auto' && request !== 'native' && request !== 'wasm')
    throw new AttentionError(
      'ATTENTION_INVALID_ARGUMENT',
      `backend must be 'auto', 'native' or 'wasm', got ${String(request)}`,
    );
  if (request === 'wasm') return wasmBackend();
  const loaded = loadNativeAddon();
  let reason = loaded.reason;
  const isas = loaded.addon?.isas() ?? [];
  const chosen = isa ?? isas[0];
  if (reason === undefined && (chosen === undefined || !isas.includes(chosen)))
    reason = `this CPU does not run the ${String(chosen)} kernels (it runs: ${isas.join(', ')})`;
  if (reason !== undefined) {
    if (request === 'native') throw unavailable(reason);
    return wasmBackend(reason);
  }
  const name = chosen as string;
  return { info: { name: 'native', isa: name, lanes: LANES[name] ?? 4 }, addon: loaded.addon };
}

/**
 * One line: `engine: native avx512 (16 lanes), 2 threads` or `engine: wasm f32x4 (native addon: …)`.
 *
 * @category Engine
 */
export function describeEngineBackend(info: EngineBackendInfo, threads?: number): string {
  const on = threads === undefined ? '' : `, ${threads} thread${threads === 1 ? '' : 's'}`;
  if (info.name === 'native') return `engine: native ${info.isa} (${info.lanes} lanes)${on}`;
  const why = info.reason === undefined ? '' : ` (native addon: ${info.reason})`;
  return `engine: wasm ${info.isa}${on}${why}`;
}

/** The addon's kernels bound to a memory, bound again whenever its buffer changes (a grow). */
interface Binding {
  buffer: ArrayBuffer;
  kernels: NativeKernels;
}

/** The arena as this file needs it (arena.ts's EngineMemory; arena.ts imports this file). */
interface BoundMemory {
  readonly buffer: ArrayBuffer;
}

const bindings = new WeakMap<BoundMemory, Map<string, Binding>>();

/** The native kernels of `isa` on `memory`'s current buffer (one binding per memory and ISA). */
function boundKernels(memory: BoundMemory, addon: NativeAddon, isa: string): () => NativeKernels {
  const byIsa = bindings.get(memory) ?? new Map<string, Binding>();
  bindings.set(memory, byIsa);
  let binding = byIsa.get(isa);
  if (binding === undefined) {
    binding = { buffer: memory.buffer, kernels: addon.bind(new Uint8Array(memory.buffer), isa) };
    byIsa.set(isa, binding);
  }
  const b = binding;
  return () => {
    const buffer = memory.buffer;
    if (buffer !== b.buffer) {
      b.kernels = addon.bind(new Uint8Array(buffer), isa);
      b.buffer = buffer;
    }
    return b.kernels;
  };
}

/**
 * The functions a kernel wrapper calls: `wasm`'s exports (one generated module instantiated on
 * `memory`) on WebAssembly, or the native kernels of the same names. Throws
 * `ATTENTION_BACKEND_UNAVAILABLE` naming the kernels the addon lacks.
 */
export function engineModuleExports(
  wasm: { readonly names: readonly string[]; instantiate(): unknown },
  memory: BoundMemory,
  what: string,
  backend: KernelBackend | undefined,
): unknown {
  if (backend?.addon === undefined) return wasm.instantiate();
  const current = boundKernels(memory, backend.addon, backend.info.isa);
  const kernels = current();
  const missing = wasm.names.filter((n) => typeof kernels[n] !== 'function');
  if (missing.length > 0)
    throw unavailable(
      `the addon has no ${what} kernel${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`,
    );
  const out: Record<string, (...args: number[]) => number | undefined> = {};
  for (const name of wasm.names) out[name] = (...args) => current()[name]!(...args);
  return out;
}
