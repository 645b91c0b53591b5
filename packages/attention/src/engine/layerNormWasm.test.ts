import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs build script without type declarations
import { compileWat, generatedSource } from '../../../../tools/wasmSource.mjs';
// @ts-expect-error -- a plain .mjs build script without type declarations
import { layerNormWat } from '../../scripts/layerNormWat.mjs';

describe('engine LayerNorm module', () => {
  it('is up to date with scripts/layerNormWat.mjs (pnpm --filter @boltzmann/attention build:wasm)', async () => {
    const header = {
      script: 'packages/attention/scripts/buildWasm.mjs',
      edit: 'scripts/layerNormWat.mjs',
      command: 'pnpm --filter @boltzmann/attention build:wasm',
    };
    const text = layerNormWat();
    const expected = generatedSource(
      'layerNorm.wat',
      await compileWat('layerNorm.wat', text),
      header,
    );
    const file = new URL('./kernels/layerNormWasm.generated.ts', import.meta.url);
    expect(readFileSync(file, 'utf8')).toBe(expected);
  });
});
