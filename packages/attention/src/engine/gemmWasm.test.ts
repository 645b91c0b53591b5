import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs build script without type declarations
import { compileWat, generatedSource } from '../../../../tools/wasmSource.mjs';
// @ts-expect-error -- a plain .mjs build script without type declarations
import { gemmWat } from '../../scripts/gemmWat.mjs';

describe('engine gemm module', () => {
  it('is up to date with scripts/gemmWat.mjs (pnpm --filter @boltzmann/attention build:wasm)', async () => {
    const header = {
      script: 'packages/attention/scripts/buildWasm.mjs',
      edit: 'scripts/gemmWat.mjs',
      command: 'pnpm --filter @boltzmann/attention build:wasm',
    };
    const expected = generatedSource('gemm.wat', await compileWat('gemm.wat', gemmWat()), header);
    const file = new URL('./kernels/gemmWasm.generated.ts', import.meta.url);
    expect(readFileSync(file, 'utf8')).toBe(expected);
  });
});
