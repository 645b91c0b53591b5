// The start-up checks of a grid's samplers, read from what each plugin declares (its capabilities)
// and never from its name: the sampler exists, builds from its options, and takes each run.
import { couplingBandwidth } from '@boltzmann/ising-core';
import { mergeSecretOptions } from '@boltzmann/ising-core/internal';
import type { SamplerCapabilities, SamplerRegistry } from '@boltzmann/ising-core';
import { BenchError } from '../benchError.js';
import { canonicalJson } from '../results/canonicalJson.js';
import type { RunConfig } from '../types.js';

/** How the grid's samplers are built for the check (as its runs would build them). */
export interface SamplerBuild {
  /** The credentials split off `--sampler-options`, given to each sampler in memory. */
  readonly secrets: Readonly<Record<string, unknown>>;
  /** Runs whose sampler is built in its request-writing dry run (no credentials needed), in `dir`. */
  readonly dryRun?: { readonly runs: ReadonlySet<RunConfig>; readonly dir: string };
}

/**
 * Builds each distinct sampler of the grid once from its options, then disposes of it.
 *
 * @throws the registry's error for a name no plugin has; the plugin's own errors for bad options.
 */
async function buildEach(
  configs: readonly RunConfig[],
  registry: SamplerRegistry,
  build: SamplerBuild,
): Promise<void> {
  for (const name of new Set(configs.map((c) => c.sampler)))
    if (name !== 'none') registry.require(name);
  const tried = new Set<string>();
  for (const c of configs) {
    const key = `${c.sampler}|${canonicalJson(c.samplerOptions)}`;
    if (c.sampler === 'none' || tried.has(key)) continue;
    tried.add(key);
    const options = mergeSecretOptions(c.samplerOptions, build.secrets);
    if (build.dryRun?.runs.has(c)) options.dryRun = { dir: build.dryRun.dir };
    const sampler = registry.require(c.sampler).create(options);
    await sampler.dispose?.();
  }
}

/** The names of the registered samplers whose capabilities pass `fits`, for a message. */
function samplersThat(
  registry: SamplerRegistry,
  fits: (capabilities: SamplerCapabilities) => boolean,
): string[] {
  return registry
    .list()
    .filter((p) => fits(p.capabilities))
    .map((p) => p.name);
}

/** @throws BENCH_SAMPLER_TOO_SMALL when the run is longer than its sampler's `maxSpins`. */
function assertSpins(c: RunConfig, registry: SamplerRegistry): void {
  const plugin = registry.require(c.sampler);
  if (plugin.capabilities.maxSpins >= c.length) return;
  const fit = samplersThat(registry, (p) => p.maxSpins >= c.length);
  throw new BenchError(
    'BENCH_SAMPLER_TOO_SMALL',
    `sampler "${plugin.name}" handles at most ${plugin.capabilities.maxSpins} spins, the grid has T = ${c.length}; ` +
      (fit.length > 0
        ? `samplers that take T = ${c.length}: ${fit.join(', ')} (--sampler NAME)`
        : `no registered sampler takes T = ${c.length}`),
  );
}

/**
 * @throws BENCH_INVALID_OPTION when the sampler declares banded couplings
 *   (`capabilities.couplings`, the transfer matrix's) and the run's J is not banded within its width.
 */
function assertCouplings(c: RunConfig, registry: SamplerRegistry): void {
  const plugin = registry.require(c.sampler);
  const width = couplingBandwidth(plugin.capabilities, c.samplerOptions);
  if (width === undefined) return;
  // The sampler refuses any coupling outside its band: J must be banded by construction.
  const w = /^banded:(\d+)$/.exec(c.couplingForm ?? '')?.[1];
  if (w !== undefined && Number(w) <= width) return;
  // The local samplers that take any J at this length (never a remote one, which may spend money).
  const anyJ = samplersThat(
    registry,
    (p) => p.couplings === undefined && p.remote !== true && p.maxSpins >= c.length,
  );
  const { exact, couplings } = plugin.capabilities;
  throw new BenchError(
    'BENCH_INVALID_OPTION',
    `--sampler ${plugin.name} is ${exact ? 'exact ' : ''}only for a banded J: pass --couplings banded:w with w ≤ its ${couplings!.widthOption} ${width}` +
      ` (got --couplings ${c.couplingForm ?? 'full'})` +
      (anyJ.length > 0 ? `; for a full J use ${anyJ.join(', ')}` : ''),
  );
}

/**
 * Every start-up check of a grid's samplers, also done by `--dry-run`: each named sampler is
 * registered, each distinct one builds from its options, and each run fits what its sampler
 * declares: its length within `maxSpins`, its couplings within `couplings` (a banded sampler).
 *
 * @param configs the grid's runs.
 * @param registry the bench's registry.
 * @param build the credentials and the runs built in dry-run mode.
 * @throws BENCH_SAMPLER_TOO_SMALL, BENCH_INVALID_OPTION, and the registry's and plugins' errors.
 */
export async function checkSamplers(
  configs: readonly RunConfig[],
  registry: SamplerRegistry,
  build: SamplerBuild,
): Promise<void> {
  await buildEach(configs, registry, build);
  const sampled = configs.filter((c) => c.sampler !== 'none');
  for (const c of sampled) assertSpins(c, registry);
  for (const c of sampled) assertCouplings(c, registry);
}
