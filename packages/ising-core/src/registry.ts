import { echo } from './echo.js';
import { IsingError } from './errors.js';
import type {
  AnySamplerPlugin,
  BandedCouplings,
  Sampler,
  SamplerCapabilities,
  SamplerOptionSpec,
  SamplerPlugin,
  SamplerRegistry,
} from './types.js';

/**
 * Identity helper that gives a plugin object its type (and checks its shape at runtime).
 *
 * @example
 * import { defineSamplerPlugin, estimateFromDense, sampleIsing } from '@boltzmann/ising-core';
 *
 * // A toy plugin: every spin independent with ⟨s⟩ = tanh(β h) (it ignores J).
 * const independent = defineSamplerPlugin({
 *   name: 'independent',
 *   version: '1.0.0',
 *   capabilities: { exact: false, maxSpins: 20, async: false, deterministic: true },
 *   create: () => ({
 *     name: 'independent',
 *     capabilities: { exact: false, maxSpins: 20, async: false, deterministic: true },
 *     estimate(batch) {
 *       const { fields, stride, beta } = batch;
 *       const dense = Array.from(batch.spins, (n, b) => {
 *         // p(s) = Π_j σ(2β h_j s_j), spin j up where bit j of s is set
 *         return Float64Array.from({ length: 2 ** n }, (_, s) => {
 *           let p = 1;
 *           for (let j = 0; j < n; j++)
 *             p /= 1 + Math.exp(-2 * beta * (fields[b * stride + j] ?? 0) * ((s >> j) & 1 ? 1 : -1));
 *           return p;
 *         });
 *       });
 *       return estimateFromDense(batch, dense);
 *     },
 *   }),
 * });
 * const set = await sampleIsing(independent.create(), [0.5, -1], [0, 0, 0, 0], { reads: 10, seed: 1 });
 * console.log(set.first);
 * @category Plugins
 */
export function defineSamplerPlugin<
  TOptions,
  TSampler extends Sampler = Sampler,
  TName extends string = string,
>(plugin: SamplerPlugin<TOptions, TSampler, TName>): SamplerPlugin<TOptions, TSampler, TName> {
  assertSamplerPlugin(plugin);
  return plugin;
}

/**
 * Throws `ISING_INVALID_PLUGIN` unless `value` has the shape of a {@link SamplerPlugin}.
 * Used on modules loaded by path, whose default export is unknown.
 * @category Plugins
 */
export function assertSamplerPlugin(
  value: unknown,
  where = 'plugin',
): asserts value is AnySamplerPlugin {
  const p = value as Partial<SamplerPlugin> | null;
  const problems: string[] = [];
  if (p === null || typeof p !== 'object') problems.push('is not an object');
  else {
    if (typeof p.name !== 'string' || !/^[a-z0-9][a-z0-9:._-]*$/i.test(p.name))
      problems.push('needs a string `name` (letters, digits, : . _ -)');
    if (typeof p.version !== 'string') problems.push('needs a string `version`');
    if (typeof p.create !== 'function') problems.push('needs a `create(options)` function');
    const secret = p.secretOptions;
    if (
      secret !== undefined &&
      !(Array.isArray(secret) && secret.every((s) => typeof s === 'string'))
    ) {
      problems.push('`secretOptions`, when present, must be an array of option paths');
    }
    problems.push(...optionSpecProblems(p.options));
    const c = p.capabilities;
    if (c === null || typeof c !== 'object') problems.push('needs a `capabilities` object');
    else {
      if (!(typeof c.maxSpins === 'number' && c.maxSpins >= 1))
        problems.push('needs `capabilities.maxSpins` ≥ 1');
      if (c.couplings !== undefined && !isBandedCouplings(c.couplings))
        problems.push(
          "`capabilities.couplings`, when present, must be { form: 'banded', widthOption: string, defaultWidth: integer ≥ 0 }",
        );
    }
  }
  if (problems.length > 0) {
    throw new IsingError('ISING_INVALID_PLUGIN', `${where} ${problems.join('; ')}`);
  }
}

function isBandedCouplings(value: unknown): value is BandedCouplings {
  const b = value as Partial<BandedCouplings> | null;
  return (
    b !== null &&
    typeof b === 'object' &&
    b.form === 'banded' &&
    typeof b.widthOption === 'string' &&
    Number.isSafeInteger(b.defaultWidth) &&
    b.defaultWidth! >= 0
  );
}

/**
 * The width a sampler needs the couplings banded within, for the options it is created with: its
 * `capabilities.couplings` width option when given, else that default; undefined when the sampler
 * takes any couplings.
 *
 * @summary The width a sampler needs the couplings banded within, for the options it is created with.
 * @example
 * import { couplingBandwidth, tapSampler, transferMatrixSampler } from '@boltzmann/ising-core';
 *
 * console.log(couplingBandwidth(transferMatrixSampler.capabilities, { bandwidth: 4 })); // 4
 * console.log(couplingBandwidth(tapSampler.capabilities, {})); // undefined
 * @category Plugins
 */
export function couplingBandwidth(
  capabilities: SamplerCapabilities,
  options: Readonly<Record<string, unknown>>,
): number | undefined {
  const band = capabilities.couplings;
  if (band === undefined) return undefined;
  return Number(options[band.widthOption] ?? band.defaultWidth);
}

/** What is wrong with a plugin's `options` description, if anything (absent is fine). */
function optionSpecProblems(options: unknown): string[] {
  if (options === undefined) return [];
  const specs = Array.isArray(options) ? (options as unknown[]) : undefined;
  const wellFormed = specs?.every((o) => {
    const spec = o as Partial<SamplerOptionSpec> | null;
    return (
      spec !== null &&
      typeof spec === 'object' &&
      typeof spec.name === 'string' &&
      typeof spec.type === 'string' &&
      typeof spec.doc === 'string' &&
      (spec.default === undefined || typeof spec.default === 'string')
    );
  });
  if (specs === undefined || wellFormed !== true)
    return ['`options`, when present, must be an array of { name, type, default?, doc } strings'];
  const names = specs.map((o) => (o as SamplerOptionSpec).name);
  const twice = names.filter((n, i) => names.indexOf(n) !== i);
  return twice.length > 0 ? [`\`options\` names ${twice.join(', ')} more than once`] : [];
}

/**
 * Creates an empty sampler registry. Registries are instances, never globals: an
 * application registers the plugins it wants at start-up, then may `freeze()` it.
 *
 * @example
 * import { createSamplerRegistry, exactSampler, gibbsSampler } from '@boltzmann/ising-core';
 *
 * const registry = createSamplerRegistry().register(exactSampler).register(gibbsSampler);
 * const sampler = registry.require('gibbs').create({ seed: 1 });
 * console.log(sampler.name, registry.list().map((p) => p.name));
 * @category Plugins
 */
export function createSamplerRegistry(): SamplerRegistry {
  const plugins = new Map<string, AnySamplerPlugin>();
  let frozen = false;
  // One object whatever the type parameter says: `register` only adds to what the type knows.
  // biome-ignore lint/suspicious/noExplicitAny: the same object stands for every SamplerRegistry<TPlugins> that `register` returns.
  const registry: SamplerRegistry<any> = {
    register(plugin) {
      if (frozen)
        throw new IsingError(
          'ISING_REGISTRY_FROZEN',
          `cannot register ${echo((plugin as { name?: unknown } | null)?.name)}: the registry is frozen`,
        );
      assertSamplerPlugin(plugin);
      if (plugins.has(plugin.name)) {
        throw new IsingError(
          'ISING_SAMPLER_DUPLICATE',
          `a sampler named ${echo(plugin.name)} is already registered`,
        );
      }
      plugins.set(plugin.name, plugin);
      return registry;
    },
    get: (name: string) => plugins.get(name),
    require(name: string) {
      const plugin = plugins.get(name);
      if (plugin === undefined) {
        const known = [...plugins.keys()].map((n) => echo(n, 40)).join(', ') || 'none';
        throw new IsingError(
          'ISING_SAMPLER_NOT_FOUND',
          `no sampler named ${echo(name)} is registered (known: ${known})`,
        );
      }
      return plugin;
    },
    has: (name) => plugins.has(name),
    list: () => [...plugins.values()],
    freeze() {
      frozen = true;
      return registry;
    },
  };
  return registry;
}
