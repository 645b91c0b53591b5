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
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      project('ising-core', 'packages/ising-core'),
      project('dqa-sim', 'packages/dqa-sim'),
      project('quantum-adapters', 'packages/quantum-adapters'),
      project('attention', 'packages/attention'),
      project('datasets', 'packages/datasets'),
      project('bench', 'apps/bench'),
      { extends: true as const, test: { name: 'tools', root: 'tools', include: ['*.test.ts'] } },
    ],
  },
});
