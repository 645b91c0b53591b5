import { echo } from './echo.js';
import { IsingError } from './errors.js';
import { findTooDeep, MAX_OPTION_DEPTH } from './internal/optionDepth.js';
import type { SamplerOptionSpec } from './types.js';

/**
 * The option keys of `T`, for {@link assertPluginOptions}.
 *
 * The record must name every key of `T` and nothing else, so the type checker keeps the list in
 * step with the options interface.
 *
 * @example
 * import { optionKeys } from '@boltzmann/ising-core';
 * import type { GibbsOptions } from '@boltzmann/ising-core';
 *
 * // The compiler checks that every key of GibbsOptions is listed, and no other.
 * const KNOWN = optionKeys<GibbsOptions>({
 *   seed: true,
 *   chains: true,
 *   burnIn: true,
 *   samples: true,
 *   thin: true,
 *   initial: true,
 * });
 * console.log(KNOWN);
 * @category Plugins
 */
export function optionKeys<T>(all: Record<keyof T, true>): readonly string[] {
  return Object.keys(all);
}

/**
 * The option specs of `T` for a plugin's `options` and for {@link assertPluginOptions}: the
 * record must name every key of `T` and nothing else, so the type checker keeps the described
 * options in step with the options interface.
 *
 * @summary The option specs of `T` for a plugin's `options` and for {@link assertPluginOptions}.
 * @example
 * import { assertPluginOptions, optionSpecs } from '@boltzmann/ising-core';
 *
 * interface MyOptions {
 *   readonly seed?: number;
 * }
 * const OPTIONS = optionSpecs<MyOptions>({
 *   seed: { type: 'number', default: '0', doc: 'Seed of the random stream.' },
 * });
 * assertPluginOptions('mine', { seed: 3 }, OPTIONS); // what a plugin's `create` does with its options
 * console.log(OPTIONS); // [{ name: 'seed', type: 'number', default: '0', doc: '…' }]
 * @category Plugins
 */
export function optionSpecs<T>(
  all: Record<keyof T, Omit<SamplerOptionSpec, 'name'>>,
): readonly SamplerOptionSpec[] {
  return Object.entries(all).map(([name, spec]) => ({
    name,
    ...(spec as Omit<SamplerOptionSpec, 'name'>),
  }));
}

/**
 * Checks a plugin's `create(options)` argument: it must be a plain object whose keys are all in
 * `known`, so a misspelt option (`{ chain: 4 }` for `chains`) fails loudly instead of being
 * ignored, and nested plain objects and arrays at most 32 levels deep (the options object is
 * level 1), so a 60,000-deep object from a config file is refused here instead of overflowing the
 * stack later. Class instances, typed arrays and functions inside the options are not walked.
 * For plugin authors as well as the built-in plugins.
 *
 * @summary Checks a plugin's `create(options)` argument.
 * @param who the plugin name, for the message.
 * @param options the value passed to `create` (`undefined` is fine: defaults).
 * @param known every option the plugin reads: its keys, or its option specs ({@link optionSpecs}).
 * @param makeError builds the error to throw from the message (default: an `IsingError` with
 *   ISING_INVALID_ARGUMENT), so a plugin package can throw its own coded error.
 * @throws {IsingError} ISING_INVALID_ARGUMENT (or `makeError`'s error) naming the unknown keys and listing the known
 *   ones, or naming the path where the options nest too deep (or cycle).
 * @example
 * import { assertPluginOptions } from '@boltzmann/ising-core';
 *
 * assertPluginOptions('gibbs', { chains: 4 }, ['seed', 'chains']); // passes
 * try {
 *   assertPluginOptions('gibbs', { chain: 4 }, ['seed', 'chains']);
 * } catch (e) {
 *   console.log((e as Error).message); // names the unknown option "chain"
 * }
 * @category Plugins
 */
export function assertPluginOptions(
  who: string,
  options: unknown,
  known: readonly (string | SamplerOptionSpec)[],
  makeError: (message: string) => Error = (message) =>
    new IsingError('ISING_INVALID_ARGUMENT', message),
): void {
  if (options === undefined) return;
  const names = known.map((k) => (typeof k === 'string' ? k : k.name));
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw makeError(
      `${who} options must be an object, got ${Array.isArray(options) ? 'an array' : echo(options)}`,
    );
  }
  const unknown = Object.keys(options).filter((k) => !names.includes(k));
  if (unknown.length > 0) {
    const shown = unknown.slice(0, LISTED_UNKNOWN_KEYS).map((k) => echo(k, 40));
    if (unknown.length > LISTED_UNKNOWN_KEYS)
      shown.push(`… (${unknown.length - LISTED_UNKNOWN_KEYS} more)`);
    throw makeError(
      `${who}: unknown option${unknown.length > 1 ? 's' : ''} ${shown.join(', ')}; known options: ${names.length > 0 ? names.join(', ') : 'none'}`,
    );
  }
  const tooDeep = findTooDeep(options);
  if (tooDeep !== undefined) {
    throw makeError(
      `${who} options nest objects or arrays more than ${MAX_OPTION_DEPTH} levels deep (at ${echo(tooDeep)}); options must be plain, shallow data`,
    );
  }
}

/** How many unknown keys an error message lists. */
const LISTED_UNKNOWN_KEYS = 10;
