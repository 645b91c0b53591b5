import type { Options } from 'tsup';

/**
 * The shared build preset: ESM + CJS + declarations for every published package.
 * Each package's `tsup.config.ts` calls this with its entry points.
 */
export function tsupPreset(
  entry: Record<string, string>,
  overrides: Partial<Options> = {},
): Options {
  return {
    entry,
    format: ['esm', 'cjs'],
    dts: { compilerOptions: { customConditions: [] } },
    sourcemap: true,
    clean: true,
    target: 'node20',
    splitting: false,
    treeshake: true,
    ...overrides,
  };
}
