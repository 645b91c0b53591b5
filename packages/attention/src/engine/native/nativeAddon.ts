/**
 * The native engine addon (native/addon.c, built by node-gyp at install): loaded once per thread
 * through node-gyp-build, which finds `prebuilds/<platform>-<arch>/` or `build/Release/`. Where it
 * cannot load (a browser, no compiler at install, another platform) the result says why, and the
 * engine runs its WebAssembly kernels instead.
 */
import { nodeBuiltin } from '@boltzmann/ising-core/internal';

/** The kernels of one ISA bound to one arena, named and called as the WAT modules' exports. */
export type NativeKernels = Readonly<Record<string, (...args: number[]) => number | undefined>>;

/** The addon's interface. */
export interface NativeAddon {
  /** Binds every kernel of `isa` to the arena under `view` (a typed array from byte 0). */
  bind(view: Uint8Array | Float32Array, isa: string): NativeKernels;
  /** The ISAs this CPU runs, best first (`avx512`, `avx2`, `base`; `neon` on arm64). */
  isas(): string[];
  /** Test-only switches (native/kernels.h), process-wide, for every ISA; the engine never sets them. */
  readonly testing?: NativeTesting;
}

/** The addon's test-only switches: paths a test cannot reach otherwise. */
export interface NativeTesting {
  /** While on, the GEMM's padded last columns (gemm.c's pad_take) fail to allocate. */
  failPadAllocations(on: boolean): void;
  /** GEMM products (of any call, since load) whose last columns took the scalar fallback. */
  padFallbacks(): number;
}

/** The addon, or why it is not there. */
export type NativeLoad =
  | { readonly addon: NativeAddon; readonly reason?: undefined }
  | { readonly addon?: undefined; readonly reason: string };

let loaded: NativeLoad | undefined;

/** The folder of @boltzmann/attention's package.json, above this module (source or dist). */
function packageRoot(
  fs: typeof import('node:fs'),
  path: typeof import('node:path'),
  url: typeof import('node:url'),
): string | undefined {
  let dir = path.dirname(url.fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest)) {
      const { name } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string };
      if (name === '@boltzmann/attention') return dir;
    }
    const up = path.dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/** Loads the addon once (per thread); never throws. */
export function loadNativeAddon(): NativeLoad {
  if (loaded !== undefined) return loaded;
  loaded = tryLoad();
  return loaded;
}

function tryLoad(): NativeLoad {
  const mod = nodeBuiltin<typeof import('node:module')>('node:module');
  const fs = nodeBuiltin<typeof import('node:fs')>('node:fs');
  const path = nodeBuiltin<typeof import('node:path')>('node:path');
  const url = nodeBuiltin<typeof import('node:url')>('node:url');
  if (mod === undefined || fs === undefined || path === undefined || url === undefined)
    return { reason: 'not on Node.js (the browser runs the WebAssembly engine)' };
  const root = packageRoot(fs, path, url);
  if (root === undefined) return { reason: "@boltzmann/attention's package.json was not found" };
  const require = mod.createRequire(path.join(root, 'package.json'));
  try {
    const build = require('node-gyp-build') as (dir: string) => NativeAddon;
    return { addon: build(root) };
  } catch (cause) {
    const message = cause instanceof Error ? cause.message.split('\n')[0] : String(cause);
    return { reason: `the native addon did not load (${message}); was it built at install?` };
  }
}
