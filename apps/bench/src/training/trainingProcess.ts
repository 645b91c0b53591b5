import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);

/**
 * V8's young generation, in MiB per semi-space, for training processes. A Boltzmann attention
 * step allocates tens of MB of short-lived typed arrays (the fields, estimates and gradients of
 * every head); with V8's default semi-space the scavenges cost about 50 ms of a 4-layer GPT step.
 * Measured with `packages/attention/scripts/benchTraining.ts --model baby` (transfer-matrix float32,
 * 2 threads), same window: 592 → 542 ms per step; softmax unchanged (≈ 297 ms).
 */
export const SEMI_SPACE_MB = 64;

/**
 * Whether this process runs the bench from its TypeScript sources (under tsx) or from the build in
 * dist/ (bin/build.mjs, which bundles this module and keeps its `import.meta.url` in dist/).
 */
const FROM_SOURCE = import.meta.url.endsWith('.ts');

/**
 * The Node flags of a bench training process (the local pool's `pool/poolProcess.ts`, a queue worker's
 * sandboxed processor, `bench sample`'s child): the young-generation size and, when this process
 * runs from the sources, tsx and the source condition (the built bench needs neither).
 */
export function trainingExecArgv(): string[] {
  const semiSpace = `--max-semi-space-size=${SEMI_SPACE_MB}`;
  if (!FROM_SOURCE) return [semiSpace];
  const tsx = pathToFileURL(require.resolve('tsx')).href;
  return ['--import', tsx, '--conditions=@boltzmann/source', semiSpace];
}

/** The modules of the bench's child processes, under src/ (in dist/: by their base name, bin/build.mjs's ENTRIES). */
export type ChildProcessModule =
  | 'pool/poolProcess'
  | 'inference/sampleProcess'
  | 'queue/queueProcessor';

/**
 * The file a child process of the bench runs, as this process runs the bench: `src/<module>.ts`,
 * or its build `dist/<base name>.js`.
 *
 * @example
 * fork(childProcessEntry('pool/poolProcess'), [], { execArgv: trainingExecArgv() });
 */
export function childProcessEntry(module: ChildProcessModule): URL {
  if (FROM_SOURCE) return new URL(`../${module}.ts`, import.meta.url);
  return new URL(`./${module.slice(module.indexOf('/') + 1)}.js`, import.meta.url);
}
