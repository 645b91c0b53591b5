// Import rules for the whole tree, checked in CI by `pnpm deps:check` (dependency-cruiser).
// Type-only imports count: with `tsPreCompilationDeps: true` an `import type` is an arrow like any
// other, so a circle made only of types still fails. Workspace packages resolve to their source
// through the `@boltzmann/source` export condition, so an import of `@boltzmann/x` lands on the
// entry file that `exports` names (src/index.ts, src/testing/index.ts, src/internal/pool/batchWorker.ts).
// The bench's floors (apps/bench/README.md, "The folders"): a file imports its own folder and the
// floors below it, never one above, so each folder reads without the ones over it. A leaf types file
// (`types.ts`, `*Types.ts`) may be read from any floor by a type-only import (`import type`), never
// for a value: a constant that many floors share lives in a root leaf (apps/bench/src/*.ts). studies/
// and testing/ sit on top (scripts and test kits); nothing in the product imports them.
const BENCH_FLOORS = [
  ['cli'],
  ['commands'],
  ['pool', 'queue', 'inference', 'hardware'],
  ['training'],
  ['tracking'],
  ['grid'],
  ['experiments'],
  ['report'],
  ['results', 'samplers', 'trust'],
];
const BENCH = '^apps/bench/src/';
const TYPES_LEAF = '(^|/)([A-Za-z]*Types|types)[.]ts$';
/**
 * The two rules of files in `from` against the folders `above` them: nothing but a types leaf, and
 * a types leaf only by a type-only import.
 */
const floorRules = (name, comment, from, above) => [
  { name, severity: 'error', comment, from, to: { path: above, pathNot: TYPES_LEAF } },
  {
    name: `${name}-types-only`,
    severity: 'error',
    comment: `${comment} A types leaf above is read by a type-only import only (\`import type\`): no constant passes through it.`,
    from,
    to: { path: `${above}(|.*/)([A-Za-z]*Types|types)[.]ts$`, dependencyTypesNot: ['type-only'] },
  },
];
const benchFloorRules = BENCH_FLOORS.flatMap((floor, i) =>
  floorRules(
    `bench-floor-${floor.join('-')}`,
    `apps/bench: ${floor.join('/, ')}/ import only their own floor and the ones below.`,
    { path: `${BENCH}(${floor.join('|')})/`, pathNot: '[.]test[.]ts$' },
    `${BENCH}(${[...BENCH_FLOORS.slice(0, i).flat(), 'studies', 'testing'].join('|')})/`,
  ),
).concat([
  ...floorRules(
    'bench-floor-root-leaves',
    'apps/bench: the root files (types, benchCommand, errors, paths, io, parseValues) are the floor under every folder; index.ts is the public barrel.',
    { path: `${BENCH}[^/]+[.]ts$`, pathNot: `${BENCH}index[.]ts$|[.]test[.]ts$` },
    `${BENCH}[^/]+/`,
  ),
  {
    name: 'bench-executors-apart',
    severity: 'error',
    comment:
      'apps/bench: the two executors (pool/, queue/) meet only in grid/ (the GridExecutor interface).',
    from: { path: `${BENCH}(pool|queue)/`, pathNot: '[.]test[.]ts$' },
    to: { path: `${BENCH}(pool|queue)/`, pathNot: `${BENCH}$1/` },
  },
]);

// quantum-adapters (packages/quantum-adapters/README.md, "The folders"): a provider folder (dwave/,
// braket/, ibm/) stands on embedding/ and shared/ and never imports another provider; embedding/
// stands on shared/ only; shared/ imports no other folder of the package. index.ts, the public
// barrel, is on top: only tests (which use the package as its users do) import it.
const ADAPTERS = '^packages/quantum-adapters/src/';
const adapterRules = [
  {
    name: 'adapters-providers-apart',
    severity: 'error',
    comment:
      'quantum-adapters: a provider folder never imports another; what two providers share lives in shared/ (or embedding/).',
    from: { path: `${ADAPTERS}(dwave|braket|ibm)/` },
    to: { path: `${ADAPTERS}(dwave|braket|ibm)/`, pathNot: `${ADAPTERS}$1/` },
  },
  {
    name: 'adapters-embedding-below-providers',
    severity: 'error',
    comment:
      'quantum-adapters: embedding/ sits under the providers that use it and imports none of them.',
    from: { path: `${ADAPTERS}embedding/` },
    to: { path: `${ADAPTERS}(dwave|braket|ibm)/` },
  },
  {
    name: 'adapters-shared-at-bottom',
    severity: 'error',
    comment: 'quantum-adapters: shared/ is the floor under every folder and imports none of them.',
    from: { path: `${ADAPTERS}shared/` },
    to: { path: `${ADAPTERS}(dwave|braket|ibm|embedding)/` },
  },
  {
    name: 'adapters-barrel-on-top',
    severity: 'error',
    comment: 'quantum-adapters: index.ts is the public barrel; only tests import it.',
    from: { path: ADAPTERS, pathNot: '[.]test[.]ts$' },
    to: { path: `${ADAPTERS}index[.]ts$` },
  },
];

// The attention package's rooms (packages/attention/README.md, "The folders"): core/ at the bottom,
// model/ above it, tfjs/ and engine/ above model/ and apart from each other, index.ts (the public
// barrel, the only root file) on top. A file imports its own room and the ones below it; testing/
// (the test kit) sits on top, and tests, as the bench's, are exempt. The engine never reaches
// @tensorflow/tfjs, directly or through any file it imports (the one npm node in the graph:
// `includeOnly` below lets tfjs's packages in as leaves).
const ATTENTION_FLOORS = [['tfjs', 'engine'], ['model'], ['core']];
const ATTENTION = '^packages/attention/src/';
const TFJS = '^node_modules/.*@tensorflow/tfjs';
const NOT_TEST = '[.]test[.]ts$';
const attentionRules = ATTENTION_FLOORS.map((floor, i) => ({
  name: `attention-floor-${floor.join('-')}`,
  severity: 'error',
  comment: `packages/attention: ${floor.join('/, ')}/ import only their own room and the ones below (never index.ts).`,
  from: { path: `${ATTENTION}(${floor.join('|')})/`, pathNot: NOT_TEST },
  to: {
    path: `${ATTENTION}((${[...ATTENTION_FLOORS.slice(0, i).flat(), 'testing'].join('|')})/|[^/]+[.]ts$)`,
  },
})).concat([
  {
    name: 'attention-paths-apart',
    severity: 'error',
    comment:
      'packages/attention: the tfjs path and the engine never import each other; what both need lives in model/ or core/.',
    from: { path: `${ATTENTION}(tfjs|engine)/`, pathNot: NOT_TEST },
    to: { path: `${ATTENTION}(tfjs|engine)/`, pathNot: `${ATTENTION}$1/` },
  },
  {
    name: 'attention-engine-never-imports-tfjs',
    severity: 'error',
    comment:
      'packages/attention: the engine never imports @tensorflow/tfjs, directly or through any file it imports.',
    from: { path: `${ATTENTION}engine/`, pathNot: NOT_TEST },
    to: { path: TFJS, reachable: true },
  },
  {
    name: 'attention-shared-rooms-backend-free',
    severity: 'error',
    comment: 'packages/attention: core/ and model/ are backend-free: no @tensorflow/tfjs.',
    from: { path: `${ATTENTION}(core|model)/`, pathNot: NOT_TEST },
    to: { path: TFJS },
  },
]);

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
          '^packages/ising-core/src/testing/(index|vitest)[.]ts$',
          '^packages/ising-core/src/internalApi[.]ts$',
          '^packages/ising-core/src/internal/pool/batchWorker[.]ts$',
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
    ...benchFloorRules,
    ...attentionRules,
    ...adapterRules,
  ],
  options: {
    includeOnly: ['^(packages|apps|tools)/', TFJS],
    exclude: {
      path: [
        '^(packages|apps|tools)/.*/node_modules/',
        '^(packages|apps|tools)/.*/dist/',
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
