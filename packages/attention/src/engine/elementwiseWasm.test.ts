import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs build script without type declarations
import { compileWat, generatedSource } from '../../../../tools/wasmSource.mjs';
// @ts-expect-error -- a plain .mjs build script without type declarations
import { elementwiseWat } from '../../scripts/elementwiseWat.mjs';

describe('engine element-wise module', () => {
  it('is up to date with scripts/elementwiseWat.mjs (pnpm --filter @boltzmann/attention build:wasm)', async () => {
    const header = {
      script: 'packages/attention/scripts/buildWasm.mjs',
      edit: 'scripts/elementwiseWat.mjs',
      command: 'pnpm --filter @boltzmann/attention build:wasm',
    };
    const text = elementwiseWat();
    const expected = generatedSource(
      'elementwise.wat',
      await compileWat('elementwise.wat', text),
      header,
    );
    const file = new URL('./kernels/elementwiseWasm.generated.ts', import.meta.url);
    expect(readFileSync(file, 'utf8')).toBe(expected);
  });
});
