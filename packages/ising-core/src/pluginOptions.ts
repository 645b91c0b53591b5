import { IsingError } from './errors.js';

/**
 * Checks a plugin's `create(options)` argument: it must be a plain object whose keys are all in
 * `known`, so a misspelt option (`{ chain: 4 }` for `chains`) fails loudly instead of being
 * ignored. For plugin authors as well as the built-in plugins.
 *
 * @param who the plugin name, for the message.
 * @param options the value passed to `create` (`undefined` is fine: defaults).
 * @param known every option key the plugin reads.
 * @throws {IsingError} ISING_INVALID_ARGUMENT naming the unknown keys and listing the known ones.
 * @example
 * assertPluginOptions('gibbs', { chain: 4 }, ['seed', 'chains']); // throws: unknown option "chain"
 */
export function assertPluginOptions(who: string, options: unknown, known: readonly string[]): void {
  if (options === undefined) return;
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new IsingError('ISING_INVALID_ARGUMENT', `${who} options must be an object, got ${Array.isArray(options) ? 'an array' : String(options)}`);
  }
  const unknown = Object.keys(options).filter((k) => !known.includes(k));
  if (unknown.length > 0) {
    const list = unknown.map((k) => JSON.stringify(k)).join(', ');
    throw new IsingError(
      'ISING_INVALID_ARGUMENT',
      `${who}: unknown option${unknown.length > 1 ? 's' : ''} ${list}; known options: ${known.length > 0 ? known.join(', ') : 'none'}`,
    );
  }
}
