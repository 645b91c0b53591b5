import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Sibling packages resolve to their TypeScript source through the `@boltzmann/source` export
// condition, so tests never need an upstream build. No 'module' condition: vitest hands the SSR
// conditions to Node, and the AWS SDK's 'module' build uses extensionless imports Node cannot load.
const conditions = ['@boltzmann/source', 'node', 'import', 'default'];
const project = (name: string, root: string) => ({
  extends: true as const,
  test: { name, root, include: ['src/**/*.test.ts'] },
});

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['@boltzmann/source'] } },
  test: {
    environment: 'node',
    restoreMocks: true,
    // Two test files at a time on a 2-core machine, where vitest's default (cores − 1) runs one:
    // many files wait on child processes, Redis and a browser, so a second overlaps them
    // (the main run 1,019 → 792 s on a 2-core Zen 5, 7 Dec 2026; three files at a time, 856 s).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      project('ising-core', 'packages/ising-core'),
      project('dqa-sim', 'packages/dqa-sim'),
      project('quantum-adapters', 'packages/quantum-adapters'),
      project('attention', 'packages/attention'),
      // The engine's tests once more, on its WebAssembly kernels: `attention` runs them on the backend
      // BOLTZMANN_ENGINE_BACKEND names (default auto: native where the addon is built; CI sets
      // BOLTZMANN_REQUIRE_NATIVE=1, so there native). See packages/attention/src/testing/engineBackend.ts.
      {
        extends: true as const,
        test: {
          name: 'attention-engine-wasm',
          root: 'packages/attention',
          include: ['src/engine/**/*.test.ts'],
          // The kernel modules' and the native kernels' own tests do not depend on the backend.
          exclude: ['src/engine/kernels/**', 'src/engine/native/**'],
          env: { BOLTZMANN_ENGINE_BACKEND: 'wasm' },
        },
      },
      project('datasets', 'packages/datasets'),
      project('bench', 'apps/bench'),
      // The site's own modules, and the end-to-end test: it builds the site, serves it on 127.0.0.1
      // and drives Debian's Chromium through playwright-core (skipped without Chromium unless CI is set).
      {
        extends: true as const,
        test: {
          name: 'playground',
          root: 'apps/playground',
          include: ['src/**/*.test.ts', 'e2e/**/*.test.ts'],
        },
      },
      { extends: true as const, test: { name: 'tools', root: 'tools', include: ['*.test.ts'] } },
      // The starter a plugin author copies (templates/sampler-plugin): its conformance test, run
      // against ising-core's source here; CI also runs it in a copy outside the repo (.ci/run).
      project('sampler-plugin-template', 'templates/sampler-plugin'),
    ],
  },
});
