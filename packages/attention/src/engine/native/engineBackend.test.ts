import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isAttentionError } from '../../core/errors.js';
import { createArena, instantiateEngineModule } from '../arena.js';
import { createEngineKernels } from '../engineKernels.js';
import { wasmBase64 as adamWShared } from '../kernels/adamW/adamWSharedWasm.generated.js';
import { wasmBase64 as adamWPlain } from '../kernels/adamW/adamWWasm.generated.js';
import {
  describeEngineBackend,
  type KernelBackend,
  resolveEngineBackend,
} from './engineBackend.js';
import { type NativeAddon, loadNativeAddon } from './nativeAddon.js';

const kernelsDir = fileURLToPath(new URL('../kernels/', import.meta.url));

/** Every function export of every WAT module (the names the native addon must have). */
function watExports(): string[] {
  const names = new Set<string>();
  for (const op of readdirSync(kernelsDir, { withFileTypes: true })) {
    if (!op.isDirectory()) continue;
    for (const file of readdirSync(join(kernelsDir, op.name)).filter((f) => f.endsWith('.wat')))
      for (const m of readFileSync(join(kernelsDir, op.name, file), 'utf8').matchAll(
        /\(func (?:\$\w+ )?\(export "(\w+)"/g,
      ))
        names.add(m[1]!);
  }
  return [...names].sort();
}

describe('the engine backend', () => {
  it("'wasm' runs the WebAssembly kernels (f32x4)", () => {
    const k = createEngineKernels(createArena(1024), { backend: 'wasm' });
    expect(k.backend).toEqual({ name: 'wasm', isa: 'f32x4', lanes: 4 });
  });

  it("'auto' is native exactly where the addon loads and has every export of every WAT module", () => {
    const names = watExports();
    expect(names).toContain('gemm');
    expect(names).toContain('adamw');
    const memory = createArena(1024);
    const k = createEngineKernels(memory, { backend: 'auto' });
    const loaded = loadNativeAddon();
    if (loaded.addon === undefined) {
      expect(k.backend.name).toBe('wasm');
      expect(k.backend.reason).toBe(loaded.reason);
      expect(() => createEngineKernels(memory, { backend: 'native' })).toThrow(
        /native engine backend cannot run/,
      );
      return;
    }
    const isa = loaded.addon.isas()[0]!;
    const bound = loaded.addon.bind(new Uint8Array(memory.buffer), isa);
    const missing = names.filter((n) => typeof bound[n] !== 'function');
    if (missing.length === 0) {
      expect(k.backend).toMatchObject({ name: 'native', isa });
      expect(createEngineKernels(memory, { backend: 'native' }).backend.isa).toBe(isa);
    } else {
      expect(k.backend.name).toBe('wasm');
      expect(k.backend.reason).toMatch(/the addon has no .* kernels? /);
      expect(missing.some((n) => k.backend.reason?.includes(n))).toBe(true);
      let error: unknown;
      try {
        createEngineKernels(memory, { backend: 'native' });
      } catch (e) {
        error = e;
      }
      expect(isAttentionError(error, 'ATTENTION_BACKEND_UNAVAILABLE')).toBe(true);
    }
  });

  it('refuses an ISA this CPU does not run, and an unknown backend', () => {
    expect(() => resolveEngineBackend('native', 'no-such-isa')).toThrow(
      /native engine backend cannot run/,
    );
    expect(resolveEngineBackend('auto', 'no-such-isa').info.name).toBe('wasm');
    expect(() => resolveEngineBackend('fast' as 'auto')).toThrow(/'auto', 'native' or 'wasm'/);
  });

  it('names the backend, its ISA, lanes and threads in one line', () => {
    const native = { name: 'native', isa: 'avx512', lanes: 16 } as const;
    expect(describeEngineBackend(native, 2)).toBe('engine: native avx512 (16 lanes), 2 threads');
    const wasm = { name: 'wasm', isa: 'f32x4', lanes: 4, reason: 'not built' } as const;
    expect(describeEngineBackend(wasm, 1)).toBe(
      'engine: wasm f32x4, 1 thread (native addon: not built)',
    );
  });

  it("binds the native kernels again when the memory's buffer changes (a grow)", () => {
    const views: ArrayBuffer[] = [];
    const addon: NativeAddon = {
      isas: () => ['base'],
      bind(view) {
        views.push(view.buffer as ArrayBuffer);
        const names = ['adamw', 'sum_squares', 'add_into'];
        return Object.fromEntries(names.map((n) => [n, () => views.length]));
      },
    };
    const backend: KernelBackend = { info: { name: 'native', isa: 'base', lanes: 4 }, addon };
    const memory = createArena(1024);
    const k = instantiateEngineModule(
      { plain: adamWPlain, shared: adamWShared },
      memory,
      'AdamW',
      backend,
    ) as { sum_squares(...a: number[]): number };
    expect(k.sum_squares(0, 4)).toBe(1);
    expect(k.sum_squares(0, 4)).toBe(1);
    memory.grow(1);
    expect(k.sum_squares(0, 4)).toBe(2);
    expect(views[1]).toBe(memory.buffer);
  });

  it('a fake addon without a kernel is refused with its name', () => {
    const addon: NativeAddon = { isas: () => ['base'], bind: () => ({ adamw: () => 0 }) };
    const backend: KernelBackend = { info: { name: 'native', isa: 'base', lanes: 4 }, addon };
    expect(() =>
      instantiateEngineModule(
        { plain: adamWPlain, shared: adamWShared },
        createArena(64),
        'AdamW',
        backend,
      ),
    ).toThrow(/no AdamW kernels (sum_squares, add_into|add_into, sum_squares)/);
  });
});
