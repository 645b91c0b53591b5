import { defineConfig } from 'vitest/config';

// Sibling packages resolve to their TypeScript source through this export condition,
// so tests never need an upstream build.
const conditions = ['@boltzmann/source', 'node', 'import', 'module', 'default'];
const project = (name: string, root: string) => ({
  extends: true as const,
  test: { name, root, include: ['src/**/*.test.ts'] },
});

// The AWS SDK lists a 'module' export condition (its ESM build, with extensionless imports that Node
// cannot load) before 'node'; vitest passes the SSR conditions to Node, so this project resolves
// without 'module' and cannot use `extends: true` (which would concatenate the root's list back in).
const adapterConditions = conditions.filter((c) => c !== 'module');
const adapterProject = {
  resolve: { conditions: adapterConditions },
  ssr: { resolve: { conditions: adapterConditions, externalConditions: ['@boltzmann/source'] } },
  test: {
    name: 'quantum-adapters',
    root: 'packages/quantum-adapters',
    include: ['src/**/*.test.ts'],
    environment: 'node' as const,
    restoreMocks: true,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
};

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
      adapterProject,
      project('attention', 'packages/attention'),
      project('datasets', 'packages/datasets'),
      project('bench', 'apps/bench'),
    ],
  },
});
