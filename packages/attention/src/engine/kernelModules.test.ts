import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs build script without type declarations
import { BUILD_COMMAND, WASM_MODULES, generatedModule } from '../../scripts/wasmModules.mjs';

describe('the engine’s generated WebAssembly modules', () => {
  for (const module of WASM_MODULES as { name: string }[])
    it(`${module.name} is up to date with its scripts/*Wat.mjs (${BUILD_COMMAND})`, async () => {
      const file = new URL(`./kernels/${module.name}Wasm.generated.ts`, import.meta.url);
      expect(readFileSync(file, 'utf8')).toBe(await generatedModule(module));
    });
});
