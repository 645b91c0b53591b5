import { dqaSampler } from '@boltzmann/dqa-sim';
import {
  assertSamplerPlugin,
  createSamplerRegistry,
  exactSampler,
  gibbsSampler,
  meanFieldSampler,
  tapSampler,
  transferMatrixSampler,
} from '@boltzmann/ising-core';
import type { AnySamplerPlugin, SamplerRegistry } from '@boltzmann/ising-core';
import { braketSampler, dwaveSampler, ibmSampler } from '@boltzmann/quantum-adapters';
import { existsSync, readFileSync } from 'node:fs';
import { register } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BenchError, errorParts, hasErrorCode } from '../benchError.js';

/** A plugin keyed by its literal name, as `SamplerRegistry.register` adds it to a typed registry. */
type ByName<P extends AnySamplerPlugin> = { readonly [K in P['name']]: P };

/**
 * The bench's registry type: the built-ins by name (`require('dwave')` is the dwave plugin, whose
 * `create` returns a `DwaveSampler`), plugins loaded by path as `AnySamplerPlugin`.
 */
export type BenchRegistry = SamplerRegistry<
  ByName<typeof exactSampler> &
    ByName<typeof gibbsSampler> &
    ByName<typeof meanFieldSampler> &
    ByName<typeof tapSampler> &
    ByName<typeof transferMatrixSampler> &
    ByName<typeof dqaSampler> &
    ByName<typeof dwaveSampler> &
    ByName<typeof braketSampler> &
    ByName<typeof ibmSampler>
>;

/** A registry with the bench's built-in samplers, registered in this order. */
function builtInRegistry(): BenchRegistry {
  return createSamplerRegistry()
    .register(exactSampler)
    .register(gibbsSampler)
    .register(meanFieldSampler)
    .register(tapSampler)
    .register(transferMatrixSampler)
    .register(dqaSampler)
    .register(dwaveSampler)
    .register(braketSampler)
    .register(ibmSampler);
}

/**
 * A module resolve hook (Node's `module.register`, run on Node's loader thread) that resolves every
 * bare `@boltzmann/<pkg>` specifier, whoever imports it, as if `registry.ts` imported it: from the
 * bench's own install, under the conditions this process runs with (`@boltzmann/source` under tsx).
 * So a `--plugin` module kept in the user's own folder, with no `node_modules` of its own, imports
 * `@boltzmann/ising-core` and gets the very module instance the bench uses (one registry, one
 * worker pool, one set of classes). A `@boltzmann/*` package the bench does not have falls back to
 * ordinary resolution from the importer. Other specifiers pass through untouched, to the hooks
 * registered before this one (tsx's: `.ts` files, `.js` → `.ts`). A plugin URL marked `?esm-plugin`
 * (see {@link pluginURL}) is loaded as an ES module, whatever its folder's package.json says.
 */
const BENCH_RESOLVE_HOOK = `
let benchURL;
export function initialize(data) { benchURL = data.benchURL; }
export async function resolve(specifier, context, nextResolve) {
  if (specifier.endsWith('?esm-plugin'))
    return { ...(await nextResolve(specifier, context)), format: 'module' };
  if (/^@boltzmann\\/[^/]/.test(specifier) && context.parentURL !== benchURL) {
    try {
      return await nextResolve(specifier, { ...context, parentURL: benchURL });
    } catch (error) {
      if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
    }
  }
  return nextResolve(specifier, context);
}
`;

let hookRegistered = false;

/** Registers {@link BENCH_RESOLVE_HOOK} once per process (the CLI, a pool worker, a queue processor, `bench sample`'s child). */
function resolveBoltzmannFromBench(): void {
  if (hookRegistered) return;
  hookRegistered = true;
  register(`data:text/javascript,${encodeURIComponent(BENCH_RESOLVE_HOOK)}`, {
    data: { benchURL: import.meta.url },
  });
}

/** import/export statements at the start of a line: the file is written as an ES module. */
const ESM_SYNTAX = /^\s*(import\s*[\w{*'"]|export\s)/m;

/**
 * The URL to import a plugin by. A `.js` or `.ts` file written with import/export is an ES module
 * whatever its folder says: outside a package with `"type": "module"` Node (and tsx) would read it
 * as CommonJS, turn its imports into `require()`, which the resolve hook above never sees, and fail
 * with `Cannot find module '@boltzmann/ising-core'`; marked, the hook loads it as a module.
 */
function pluginURL(path: string): string {
  const href = pathToFileURL(path).href;
  if (!/\.(js|ts)$/.test(path)) return href; // .mjs/.mts are modules, .cjs/.cts are not
  return ESM_SYNTAX.test(readFileSync(path, 'utf8')) ? `${href}?esm-plugin` : href;
}

/** Whether the nearest package.json above `path` says `"type": "module"`. */
function inModulePackage(path: string): boolean {
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        return (JSON.parse(readFileSync(manifest, 'utf8')) as { type?: unknown }).type === 'module';
      } catch {
        return false;
      }
    }
    if (dirname(dir) === dir) return false;
  }
}

/** The fix for a plugin written as an ES module in a folder that Node reads as CommonJS. */
function commonJsFolderFix(path: string): string {
  return `; ${basename(path)} and the .js files it imports are read as CommonJS there (no package.json with "type": "module" above them): rename them to .mjs, or add a package.json with {"type": "module"} to ${dirname(path)}`;
}

/** Why a plugin failed to import, with the fix when a package it imports cannot be found. */
function importFailure(path: string, error: unknown): string {
  if (!hasErrorCode(error))
    // Whatever the module threw (an Error, a plain object, a string), read as bounded text.
    return errorParts(error).message;
  const [firstLine = ''] = error.message.split('\n');
  // require() of @boltzmann/*: a file read as CommonJS, whose require() the resolve hook never sees.
  if (error.code === 'MODULE_NOT_FOUND' && /^Cannot find module '@boltzmann\//.test(firstLine))
    return `[${error.code}] ${firstLine} (from ${/^- (.+)$/m.exec(error.message)?.[1] ?? path})`;
  const missing = /^Cannot find package '([^']+)'/.exec(firstLine)?.[1];
  if (error.code !== 'ERR_MODULE_NOT_FOUND' || missing === undefined)
    return `[${error.code}] ${error.message}`;
  const fix = missing.startsWith('@boltzmann/')
    ? `the bench's own install has no ${missing} (the plugin gets @boltzmann/* packages from the bench; check the name)`
    : `install it beside the plugin (cd ${dirname(path)} && npm install ${missing}), or bundle it into the plugin`;
  return `[${error.code}] ${firstLine}; to fix: ${fix}`;
}

/**
 * Loads a third-party sampler plugin: a module whose default export is a plugin.
 *
 * @param path absolute path of an ES module (`.js`, `.mjs`, or `.ts` under tsx).
 * @returns the validated plugin.
 * @throws BENCH_PLUGIN_LOAD when the file is missing or fails to import; ISING_INVALID_PLUGIN when its default export is not a plugin.
 * @example
 * const plugin = await loadPluginModule('/abs/path/myPlugin.js');
 */
export async function loadPluginModule(path: string): Promise<AnySamplerPlugin> {
  if (!existsSync(path))
    throw new BenchError('BENCH_PLUGIN_LOAD', `--plugin ${path}: no such file`);
  let mod: { default?: unknown };
  resolveBoltzmannFromBench();
  const url = pluginURL(path);
  try {
    mod = (await import(url)) as { default?: unknown };
  } catch (error) {
    const esmInCommonJs = url.endsWith('?esm-plugin') && !inModulePackage(path);
    throw new BenchError(
      'BENCH_PLUGIN_LOAD',
      `--plugin ${path}: the module failed to load: ${importFailure(path, error)}${esmInCommonJs ? commonJsFolderFix(path) : ''}`,
      { cause: error },
    );
  }
  if (mod.default === undefined) {
    throw new BenchError(
      'BENCH_PLUGIN_LOAD',
      `--plugin ${path}: the module has no default export (it must default-export a sampler plugin)`,
    );
  }
  assertSamplerPlugin(mod.default, `--plugin ${path}: default export`);
  return mod.default;
}

/**
 * The bench's sampler registry — the only place plugins are registered: the built-ins
 * (exact, gibbs, mean-field, tap, transfer-matrix, dqa, dwave, braket, ibm), then each `--plugin`
 * module, then frozen.
 *
 * @param pluginPaths absolute paths of third-party plugin modules.
 * @returns a frozen registry.
 * @throws BENCH_PLUGIN_LOAD, ISING_INVALID_PLUGIN, ISING_SAMPLER_DUPLICATE (a plugin reusing a taken name).
 * @example
 * const registry = await createBenchRegistry([]);
 * registry.require('exact');
 */
export async function createBenchRegistry(
  pluginPaths: readonly string[] = [],
): Promise<BenchRegistry> {
  const registry = builtInRegistry();
  for (const path of pluginPaths) registry.register(await loadPluginModule(path));
  return registry.freeze();
}
