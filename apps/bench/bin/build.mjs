#!/usr/bin/env node
// Builds the bench as JavaScript into dist/ (`node bin/build.mjs [--outdir DIR]`; run by
// `pnpm install` through the package's `prepare` script, and by bench.mjs whenever dist/ is not
// the build of the sources on disk). Why: under tsx every start registered tsx and transpiled
// about 350 modules (the bench and the workspace packages through the @boltzmann/source condition)
// through Node's loader-hook thread; the built CLI loads a few files. See README.md, "Start-up".
//
// One esbuild bundle, code-split, ESM: the bench and the @boltzmann/* packages from their sources;
// every other package stays an import, of the exact file this install resolves it to (so dist/
// needs no node_modules of its own, and a package only a workspace package depends on, such as
// mathjs, is found). The entries are the processes and threads the bench starts, all in one flat
// folder beside their chunks, so `new URL('./x.js', import.meta.url)` finds them from any chunk.
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { readFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BENCH_DIR, DIST_DIR, STAMP_FILE, STAMP_VERSION, staleReason } from './buildStamp.mjs';

const REPO_DIR = join(BENCH_DIR, '..', '..');
/** How long a bench waits for another one's build (a build takes about a second). */
const LOCK_WAIT_MS = 30_000;

/** The built entries: name in dist/ → module. Names are what src/training/trainingProcess.ts forks. */
export const ENTRIES = {
  bin: './src/cli/bin.ts',
  poolProcess: './src/pool/poolProcess.ts',
  sampleProcess: './src/inference/sampleProcess.ts',
  queueProcessor: './src/queue/queueProcessor.ts',
  // The worker threads the packages start beside the chunk that starts them.
  engineWorker: '@boltzmann/attention/engine-worker',
  batchWorker: '@boltzmann/ising-core/worker',
};

/**
 * Modules whose `import.meta.url` must stay their source file's: they find files of their own
 * package from it (the native addon, package.json, mathjs for dqa-sim, the tsx loader).
 */
const SOURCE_LOCATED = new Set([
  'packages/attention/src/engine/native/nativeAddon.ts',
  'packages/dqa-sim/src/scheduleParser.ts',
  'packages/ising-core/src/workerFactory.ts',
  'apps/bench/src/cli/program.ts',
  'apps/bench/src/paths.ts',
  'apps/bench/src/samplers/registry.ts',
]);
/** Modules whose `import.meta.url` is the chunk's in dist/: they start a built entry beside it. */
const BUILD_LOCATED = new Set([
  'packages/attention/src/engine/parallel/workerPool.ts',
  'packages/ising-core/src/internal/pool/poolThread.ts',
  'apps/bench/src/training/trainingProcess.ts',
]);

const SKIP = Symbol('resolve as esbuild would');
const builtins = new Set(builtinModules);

/** Whether Node loads `file` as CommonJS (by its extension, else its package's "type"). */
function isCommonJs(file) {
  if (file.endsWith('.cjs')) return true;
  if (!file.endsWith('.js')) return false;
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) return JSON.parse(readFileSync(manifest, 'utf8')).type !== 'module';
  }
  return true;
}

/**
 * esbuild plugin: the imports kept, the sources read (with their stat before the read). A kept
 * package Node loads as CommonJS is required, not imported: Node's import of CommonJS parses the
 * whole package for its export names first (TensorFlow.js: 340 ms against 140 ms required).
 */
function benchPlugin(inputs) {
  return {
    name: 'bench-build',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        const bare = args.path;
        if (args.pluginData === SKIP || bare.startsWith('@boltzmann/')) return undefined;
        if (bare.startsWith('node:') || builtins.has(bare)) return { path: bare, external: true };
        const found = await build.resolve(bare, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          importer: args.importer,
          pluginData: SKIP,
        });
        if (found.errors.length > 0) return { errors: found.errors };
        // A dynamic import() keeps Node's own import: esbuild would give it the default export only.
        if (args.kind !== 'dynamic-import' && isCommonJs(found.path))
          return { path: found.path, namespace: 'required' };
        return { path: pathToFileURL(found.path).href, external: true };
      });
      build.onResolve({ filter: /.*/, namespace: 'required' }, (args) => ({
        path: args.path,
        external: true,
      }));
      build.onLoad({ filter: /.*/, namespace: 'required' }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(args.path)});`,
        loader: 'js',
      }));
      build.onLoad({ filter: /\.[cm]?[jt]s$/ }, async (args) => {
        const seen = statSync(args.path);
        inputs.set(args.path, [seen.mtimeMs, seen.size]);
        const text = await readFile(args.path, 'utf8');
        const loader = /\.[cm]?ts$/.test(args.path) ? 'ts' : 'js';
        return { contents: locate(args.path, text), loader };
      });
    },
  };
}

/** `text` with `import.meta.url` fixed to the source file's URL where {@link SOURCE_LOCATED} says so. */
function locate(file, text) {
  if (!text.includes('import.meta')) return text;
  const rel = relative(REPO_DIR, file).split('\\').join('/');
  if (BUILD_LOCATED.has(rel)) return text;
  if (!SOURCE_LOCATED.has(rel))
    throw new Error(
      `${rel} uses import.meta: add it to SOURCE_LOCATED or BUILD_LOCATED in apps/bench/bin/build.mjs`,
    );
  const fixed = text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(file).href));
  if (/import\.meta\.\w/.test(fixed))
    throw new Error(`${rel}: only import.meta.url can keep its source location in the build`);
  return fixed;
}

/** Writes `data` to `file` whole or not at all (a concurrent reader never sees half a file). */
function writeAtomic(file, data) {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, file);
}

/** Files esbuild reads besides the modules: their change can change the build. */
function configInputs(inputs) {
  const dirs = new Set([REPO_DIR, BENCH_DIR]);
  for (const file of inputs.keys()) {
    const m = /^(.*\/packages\/[^/]+)\//.exec(file);
    if (m) dirs.add(m[1]);
  }
  const files = [fileURLToPath(import.meta.url), join(BENCH_DIR, 'bin', 'buildStamp.mjs')];
  for (const dir of dirs)
    for (const name of ['package.json', 'tsconfig.json', 'tsconfig.base.json', 'pnpm-lock.yaml'])
      if (existsSync(join(dir, name))) files.push(join(dir, name));
  return files;
}

/** esbuild's options for the bench in `outdir`, recording the files read in `inputs`. */
function buildOptions(outdir, inputs) {
  return {
    absWorkingDir: BENCH_DIR,
    entryPoints: Object.entries(ENTRIES).map(([out, entry]) => ({ in: entry, out })),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    conditions: ['@boltzmann/source'],
    // Class and function names are printed (error codes, plugin checks): keep them.
    keepNames: true,
    // The `require` of the CommonJS packages kept (benchPlugin).
    banner: {
      js: "import { createRequire as __benchRequire } from 'node:module';\nconst require = __benchRequire(import.meta.url);",
    },
    outdir,
    chunkNames: 'chunk-[hash]',
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins: [benchPlugin(inputs)],
  };
}

/**
 * Builds the bench into `outdir`: chunks, then entries, then the stamp, each file atomically, so a
 * bench starting meanwhile runs the old build or the new one. Chunks of earlier builds older than
 * a week are removed (a grid still running loads its own chunks, its report's at its end).
 *
 * @param {{ outdir?: string }} [options]
 * @returns {Promise<void>}
 */
export async function buildBench({ outdir = DIST_DIR } = {}) {
  const esbuild = await import('esbuild');
  const inputs = new Map();
  const result = await esbuild
    .build(buildOptions(outdir, inputs))
    .catch((error) => {
      // esbuild's message is a list; the first error, where it is, is the line worth printing.
      const first = error?.errors?.[0];
      if (first === undefined) throw error;
      const at = first.location ? `${first.location.file}:${first.location.line}: ` : '';
      throw new Error(`${at}${first.text}`, { cause: error });
    })
    // esbuild's service process would stay, a child of the launcher beside the CLI.
    .finally(() => esbuild.stop());
  for (const file of configInputs(inputs)) {
    const seen = statSync(file);
    inputs.set(file, [seen.mtimeMs, seen.size]);
  }
  mkdirSync(outdir, { recursive: true });
  const isEntry = (f) => result.metafile.outputs[relative(BENCH_DIR, f.path)]?.entryPoint;
  const files = result.outputFiles;
  for (const f of [...files.filter((f) => !isEntry(f)), ...files.filter(isEntry)])
    writeAtomic(f.path, f.contents);
  const stamp = { version: STAMP_VERSION, inputs: Object.fromEntries(inputs) };
  writeAtomic(join(outdir, STAMP_FILE), `${JSON.stringify(stamp)}\n`);
  pruneOldChunks(outdir, new Set(files.map((f) => f.path)));
}

function pruneOldChunks(outdir, current) {
  const weekAgo = Date.now() - 7 * 86_400_000;
  for (const name of readdirSync(outdir)) {
    const file = join(outdir, name);
    if (name.startsWith('chunk-') && !current.has(file) && statSync(file).mtimeMs < weekAgo)
      rmSync(file, { force: true });
  }
}

/**
 * Builds `outdir` unless it is up to date, one builder at a time (a lock folder beside it): two
 * benches started together build once, and two builds never interleave their files and stamps.
 *
 * @param {{ outdir?: string }} [options]
 * @returns {Promise<void>}
 */
export async function ensureBuilt({ outdir = DIST_DIR } = {}) {
  const lock = `${outdir}.lock`;
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if (error?.code !== 'EEXIST') throw error;
      // A builder that died leaves its lock: older than any build, it is taken over.
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > LOCK_WAIT_MS) rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`${lock} is held by another build`);
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    if (staleReason(outdir) !== undefined) await buildBench({ outdir });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** `node bin/build.mjs [--outdir DIR] [--postinstall]`: with --postinstall a failure is a note, not an error. */
async function main(argv) {
  const at = argv.indexOf('--outdir');
  const outdir = at >= 0 ? argv[at + 1] : undefined;
  const started = performance.now();
  try {
    await buildBench(outdir === undefined ? {} : { outdir });
  } catch (error) {
    if (!argv.includes('--postinstall')) throw error;
    const why = String(error?.message ?? error);
    process.stderr.write(
      `note: the bench is not built (${why}); it builds at its first start, or runs from its sources\n`,
    );
    return;
  }
  const ms = Math.round(performance.now() - started);
  process.stdout.write(`bench: built ${outdir ?? relative(process.cwd(), DIST_DIR)} in ${ms} ms\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main(process.argv.slice(2));
