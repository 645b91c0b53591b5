import * as dqaSim from '@boltzmann/dqa-sim';
import * as isingCore from '@boltzmann/ising-core';
import { assertSamplerPlugin, createSamplerRegistry } from '@boltzmann/ising-core';
import type { AnySamplerPlugin, SamplerRegistry } from '@boltzmann/ising-core';
import * as adapters from '@boltzmann/quantum-adapters';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { BenchError, formatError, hasErrorCode } from './benchError.js';

/** The built-in plugins, in registration order: [package, export name]. */
const BUILT_INS: ReadonlyArray<readonly [Record<string, unknown>, string, string]> = [
  [isingCore as Record<string, unknown>, '@boltzmann/ising-core', 'exactSampler'],
  [isingCore as Record<string, unknown>, '@boltzmann/ising-core', 'gibbsSampler'],
  [isingCore as Record<string, unknown>, '@boltzmann/ising-core', 'meanFieldSampler'],
  [isingCore as Record<string, unknown>, '@boltzmann/ising-core', 'tapSampler'],
  [isingCore as Record<string, unknown>, '@boltzmann/ising-core', 'transferMatrixSampler'],
  [dqaSim as Record<string, unknown>, '@boltzmann/dqa-sim', 'dqaSampler'],
  [adapters as Record<string, unknown>, '@boltzmann/quantum-adapters', 'dwaveSampler'],
  [adapters as Record<string, unknown>, '@boltzmann/quantum-adapters', 'braketSampler'],
];

/** Built-in plugin exports that are not (yet) available in the installed packages. */
export function missingBuiltIns(): string[] {
  return BUILT_INS.filter(([mod, , name]) => mod[name] === undefined).map(
    ([, pkg, name]) => `${pkg}#${name}`,
  );
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
  try {
    mod = (await import(pathToFileURL(path).href)) as { default?: unknown };
  } catch (error) {
    // Whatever the module threw (an Error, a plain object, a string), read as bounded text.
    const why = hasErrorCode(error)
      ? `[${error.code}] ${error.message}`
      : formatError(error).replace(/^error \[[^\]]+\]: /, '');
    throw new BenchError(
      'BENCH_PLUGIN_LOAD',
      `--plugin ${path}: the module failed to load: ${why}`,
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
 * (exact, gibbs, mean-field, tap, transfer-matrix, dqa, dwave, braket), then each `--plugin`
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
): Promise<SamplerRegistry> {
  const registry = createSamplerRegistry();
  for (const [mod, , name] of BUILT_INS) {
    const plugin = mod[name];
    if (plugin !== undefined) registry.register(plugin as AnySamplerPlugin);
  }
  for (const path of pluginPaths) registry.register(await loadPluginModule(path));
  return registry.freeze();
}
