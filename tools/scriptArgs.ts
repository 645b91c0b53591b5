// The command line of the packages' benchmark and measurement scripts (packages/*/bench,
// packages/*/scripts): `node:util` parseArgs in strict mode, so a misspelt or unknown flag, a
// missing value or a stray word stops the script with its usage line instead of being ignored.
// Never published: the scripts import it by relative path.
import { parseArgs } from 'node:util';

/** A script's flags: name → `'string'` (`--name value`) or `'boolean'` (`--name`). */
export type ScriptFlags = Readonly<Record<string, 'string' | 'boolean'>>;

/** The parsed values: a string flag's text, a boolean flag's presence; absent when not given. */
export type ScriptValues<T extends ScriptFlags> = {
  readonly [K in keyof T]?: T[K] extends 'boolean' ? boolean : string;
};

let parsed:
  | { flags: ScriptFlags; values: Record<string, string | boolean | undefined> }
  | undefined;

/**
 * Parses `argv` (default: this process's arguments) against `flags`, strictly. `--help` prints the
 * usage and exits 0; anything else wrong prints the problem and the usage on stderr and exits 2
 * (or throws, when `exit` is false). The values are kept for {@link scriptArg}.
 *
 * @example
 * const args = parseScriptArgs('exactCausalAttention.bench.ts [--lengths 8,12] [--batch 64]', {
 *   lengths: 'string',
 *   batch: 'string',
 * });
 */
export function parseScriptArgs<const T extends ScriptFlags>(
  usage: string,
  flags: T,
  { argv = process.argv.slice(2), exit = true }: { argv?: string[]; exit?: boolean } = {},
): ScriptValues<T> {
  const options = Object.fromEntries(
    Object.entries({ ...flags, help: 'boolean' as const }).map(([name, type]) => [name, { type }]),
  );
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    const message = `${(error as Error).message}\nusage: ${usage}`;
    if (!exit) throw new Error(message);
    process.stderr.write(`${message}\n`);
    process.exit(2);
  }
  if (values.help === true) {
    process.stdout.write(`usage: ${usage}\n`);
    if (exit) process.exit(0);
  }
  parsed = { flags, values };
  return values as ScriptValues<T>;
}

/**
 * A string flag parsed by {@link parseScriptArgs}, or `fallback`: for helpers that read a flag
 * the script declared (`--model`, `--backend`).
 *
 * @throws when the script has not parsed its arguments, or did not declare `name`.
 */
export function scriptArg(name: string): string | undefined;
export function scriptArg(name: string, fallback: string): string;
export function scriptArg(name: string, fallback?: string): string | undefined {
  if (parsed === undefined) throw new Error(`scriptArg('${name}') before parseScriptArgs`);
  if (parsed.flags[name] !== 'string')
    throw new Error(`scriptArg('${name}'): the script declares no string flag --${name}`);
  const value = parsed.values[name];
  return typeof value === 'string' ? value : fallback;
}
