// Import rules for the whole tree, checked in CI by `pnpm deps:check` (dependency-cruiser).
// Type-only imports count: with `tsPreCompilationDeps: true` an `import type` is an arrow like any
// other, so a circle made only of types still fails. Workspace packages resolve to their source
// through the `@boltzmann/source` export condition, so an import of `@boltzmann/x` lands on the
// entry file that `exports` names (src/index.ts, src/testing/index.ts, src/internal/batchWorker.ts).
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import circles anywhere: put the shared types/constants in a leaf module.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-package-imports-app',
      severity: 'error',
      comment: 'Packages are the lower floor: a package never imports from apps/.',
      from: { path: '^packages/' },
      to: { path: '^apps/' },
    },
    {
      name: 'no-package-internals',
      severity: 'error',
      comment:
        'Import another package through its entry (`@boltzmann/x`, `@boltzmann/x/testing`, …), never its src/ internals.',
      from: { path: '^(packages|apps)/([^/]+)/' },
      to: {
        path: '^packages/([^/]+)/',
        pathNot: [
          '^packages/$2/',
          '^packages/[^/]+/src/index[.]ts$',
          '^packages/ising-core/src/testing/index[.]ts$',
          '^packages/ising-core/src/internal/batchWorker[.]ts$',
          '^packages/[^/]+/package[.]json$',
        ],
      },
    },
    {
      name: 'no-relative-cross-package',
      severity: 'error',
      comment: 'Reach another package by its name, not by a relative path out of your own folder.',
      from: { path: '^(packages|apps)/([^/]+)/' },
      to: { dependencyTypes: ['local'], path: '^(packages|apps)/', pathNot: '^$1/$2/' },
    },
  ],
  options: {
    includeOnly: '^(packages|apps|tools)/',
    exclude: {
      path: [
        '(^|/)node_modules/',
        '(^|/)dist/',
        '(^|/)coverage/',
        '^apps/bench/[.]readme-blocks/',
        '^apps/playground/e2e-output/',
        '^packages/attention/src/fixtures/',
        '[.]generated[.]ts$',
      ],
    },
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['@boltzmann/source', 'import', 'node', 'default'],
      extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.cjs', '.json'],
      mainFields: ['module', 'main', 'types'],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
