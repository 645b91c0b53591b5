/*
 * Which sampler `bench sample` runs. A model file is data: it may name the sampler its model
 * trained with, but not one that sends problems off the machine (`capabilities.remote`), since
 * generating text would then spend the user's QPU account on a file's say-so. Generation needs no
 * QPU: such a name is replaced by ising-core's local exact sampler, with a note on stderr, unless
 * the user's own `--sampler` asks for it.
 */
import type { TransformerJSON } from '@boltzmann/attention';
import { exactSampler, isAttentionVariant, usesSampler } from '@boltzmann/ising-core';
import type { SamplerCapabilities, SamplerRegistry } from '@boltzmann/ising-core';
import { BenchError } from '../benchError.js';

/** The user's own choices from the command line (`--sampler`, `--sampler-options`). */
export interface UserSamplerChoice {
  readonly sampler?: string | undefined;
  readonly samplerOptions?: Readonly<Record<string, unknown>> | undefined;
}

/** What `loadTransformer` gets, and the note to print when the file's sampler was replaced. */
export interface SampleSamplerChoice {
  readonly overrides: { sampler?: string; samplerOptions?: Record<string, unknown> };
  readonly note?: string;
}

/**
 * Whether a sampler sends problems off the machine. `dryRun` counts too: its documented meaning
 * is a sampler that sends problems away and can write them instead, so a plugin written before
 * `remote` existed is still recognised.
 */
export function isRemoteSampler(capabilities: SamplerCapabilities): boolean {
  return capabilities.remote === true || capabilities.dryRun === true;
}

/**
 * Chooses the sampler of `bench sample`: the user's `--sampler` (with their `--sampler-options`
 * only, never the file's); else the file's sampler when it is local; else the local exact sampler.
 *
 * @param path the model file, for messages.
 * @param json the model as read.
 * @param registry the bench registry (it knows each name's capabilities).
 * @param user the command line's sampler and options.
 * @returns the overrides for `loadTransformer` and, when the file's sampler was replaced, a note.
 * @throws BENCH_FORBIDDEN_OPTION when the file names a remote sampler and the model is longer than
 *   the exact sampler's `maxSpins` (the user must choose a sampler with `--sampler`).
 */
export function chooseSampleSampler(
  path: string,
  json: TransformerJSON,
  registry: SamplerRegistry,
  user: UserSamplerChoice,
): SampleSamplerChoice {
  const userOptions = user.samplerOptions === undefined ? undefined : { ...user.samplerOptions };
  if (user.sampler !== undefined)
    return { overrides: { sampler: user.sampler, samplerOptions: userOptions ?? {} } };
  const keep = { overrides: userOptions === undefined ? {} : { samplerOptions: userOptions } };
  const config = (
    json as { config?: { sampler?: unknown; variant?: unknown; maxLength?: unknown } }
  ).config;
  const named = typeof config?.sampler === 'string' ? config.sampler : undefined;
  const plugin = named === undefined ? undefined : registry.get(named);
  if (plugin === undefined || !isRemoteSampler(plugin.capabilities)) return keep;
  const variant = config?.variant;
  // A softmax or sigmoid model never calls its sampler: nothing to replace, nothing to say.
  if (typeof variant === 'string' && isAttentionVariant(variant) && !usesSampler(variant))
    return keep;
  const local = exactSampler.name;
  const maxSpins = exactSampler.capabilities.maxSpins;
  const why = `--model ${path} names the remote sampler "${plugin.name}", which sends problems off this machine; a model file may not choose it`;
  if (typeof config?.maxLength === 'number' && config.maxLength > maxSpins) {
    throw new BenchError(
      'BENCH_FORBIDDEN_OPTION',
      `${why}, and its maxLength ${config.maxLength} is past the local "${local}" sampler's ${maxSpins} spins: choose one yourself, e.g. --sampler tap (local) or --sampler ${plugin.name}`,
    );
  }
  const ignored = userOptions === undefined ? '' : ' (your --sampler-options are not used)';
  return {
    overrides: { sampler: local, samplerOptions: {} },
    note: `note: ${why}; generating with the local "${local}" sampler instead${ignored} (pass --sampler ${plugin.name} to use it)`,
  };
}
