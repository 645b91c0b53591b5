/**
 * The one way this package's WebAssembly SIMD kernels are instantiated (split, matvec, transfer):
 * synchronously, from the base64 bytes their generated module ships, once per thread.
 */

/** The few WebAssembly JS API members used (the workspace's type libraries do not declare them). */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { readonly exports: unknown };
}

/**
 * Instantiates a module from its base64 bytes and returns its exports, or `null` when this engine
 * has no WebAssembly or cannot run it (no SIMD): the caller's JavaScript kernel then does the work.
 */
export function instantiateWasm<T>(base64: string): T | null {
  try {
    const api = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
    if (api === undefined) return null;
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    return new api.Instance(new api.Module(bytes)).exports as T;
  } catch {
    return null;
  }
}
