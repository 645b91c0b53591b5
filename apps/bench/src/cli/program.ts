/*
 * The bench as one commander program: `bench <command> [options]`, every command declared from
 * its CommandSpec, with commander's own `--help` listing, `help <command>`, `--version` and
 * per-command help. Parsing never exits and never prints an error: commander's errors become
 * coded BenchErrors (BENCH_INVALID_OPTION, BENCH_UNKNOWN_TASK) for main.ts to print.
 */
import { createRequire } from 'node:module';
import { echo } from '@boltzmann/ising-core/internal';
import { Command, CommanderError } from 'commander';
import { BenchError } from '../benchError.js';
import type { AnyCommandSpec, CommandSpec, ParsedCommandLine } from '../commands/commandSpec.js';
import { suggestName } from '../suggestName.js';

/** The bench's version (its package.json), for `bench --version`. */
export function benchVersion(): string {
  return (createRequire(import.meta.url)('../../package.json') as { version: string }).version;
}

/** What a command's action saw: its spec, options and nested-command path plus arguments. */
interface Chosen {
  readonly spec: AnyCommandSpec;
  readonly options: Record<string, unknown>;
  readonly args: string[];
}

/** The commands under `cmd` that run (have no nested commands), with their names below `cmd`. */
function leaves(cmd: Command, path: string[] = []): { leaf: Command; path: string[] }[] {
  if (cmd.commands.length === 0) return [{ leaf: cmd, path }];
  return cmd.commands.flatMap((c) => leaves(c, [...path, c.name()]));
}

/**
 * The bench's commander program with a command per spec, in the order given (the order of
 * `bench --help`). Help and the version go to `out`; errors are thrown (exitOverride), never
 * printed. A command's action only records what was parsed, through `chosen`.
 *
 * @param specs the commands, e.g. BENCH_COMMANDS of commandTable.ts.
 * @param out where help and the version are written.
 * @example
 * benchProgram(BENCH_COMMANDS, () => undefined).commands.map((c) => c.name());
 */
export function benchProgram(
  specs: readonly AnyCommandSpec[],
  out: (s: string) => void,
  chosen: (c: Chosen) => void = () => undefined,
): Command {
  const program = new Command('bench')
    .description('Boltzmann attention benchmarks (METHOD.md §5)')
    .exitOverride()
    .configureOutput({ writeOut: out, writeErr: () => undefined })
    .showSuggestionAfterError(true)
    .allowExcessArguments(false)
    .version(benchVersion(), '-V, --version', 'print the bench version')
    .helpOption('-h, --help', 'show this help')
    .helpCommand('help [command]', "show a command's options (as `bench <command> --help`)");
  for (const spec of specs) {
    const cmd = program
      .command(spec.name)
      .summary(spec.summary)
      .description(spec.description ?? spec.summary);
    spec.define(cmd);
    for (const { leaf, path } of leaves(cmd))
      leaf.action(() => chosen({ spec, options: leaf.opts(), args: [...path, ...leaf.args] }));
  }
  return program;
}

/** The command reached by following `args` through nested command names. */
function reached(program: Command, args: readonly string[]): { cmd: Command; path: string[] } {
  let cmd = program;
  const path: string[] = [];
  for (const word of args) {
    const next = cmd.commands.find((c) => c.name() === word);
    if (next === undefined) break;
    cmd = next;
    path.push(word);
  }
  return { cmd, path };
}

/**
 * `bench help <command> <name>…`: each name must be a command under the one before (commander
 * would show the last command it knows and exit 0, as if the typo were not there).
 *
 * @throws BENCH_UNKNOWN_TASK for the first name that is not, with a suggestion.
 */
function assertHelpPath(program: Command, args: readonly string[]): void {
  if (args[0] !== 'help' || args.length < 3) return;
  const { cmd, path } = reached(program, args.slice(1));
  const typed = args[path.length + 1];
  if (typed === undefined || typed.startsWith('-') || cmd === program) return;
  const names = cmd.commands.map((c) => c.name());
  const where = ['bench', ...path].join(' ');
  const guess = suggestName(typed, names);
  throw new BenchError(
    'BENCH_UNKNOWN_TASK',
    names.length === 0
      ? `${where} has no command ${echo(typed)} (bench help ${path.join(' ')})`
      : `unknown task ${echo(typed)}: ${guess ? `did you mean "${guess}"? ` : ''}use one of ${names.join(', ')} (${where} --help)`,
  );
}

/** Commander's error as the bench's coded one. */
function codedError(error: CommanderError, program: Command, args: readonly string[]): BenchError {
  const { cmd, path } = reached(program, args);
  const names = cmd.commands.map((c) => c.name()).filter((n) => n !== 'help');
  const where = ['bench', ...path].join(' ');
  // `bench help <name>` of no command fails as commander's help with an error exit code.
  const rest = args.slice(path.length);
  const unknown =
    names.length > 0 &&
    (error.code === 'commander.unknownCommand' || (rest[0] === 'help' && rest[1] !== undefined));
  if (unknown) {
    const typed = (rest[0] === 'help' ? rest[1] : rest[0]) ?? '';
    const guess = suggestName(typed, names);
    return new BenchError(
      'BENCH_UNKNOWN_TASK',
      `unknown task ${echo(typed)}: ${guess ? `did you mean "${guess}"? ` : ''}use one of ${names.join(', ')} (${where} --help)`,
    );
  }
  if (error.code === 'commander.help')
    return new BenchError(
      'BENCH_INVALID_OPTION',
      `${where} needs one of ${names.join(', ')} (${where} --help)`,
    );
  return new BenchError('BENCH_INVALID_OPTION', error.message.replace(/^error: /, ''));
}

/**
 * Parses a bench command line with the program of `specs` and validates it with the named
 * command's own parse. A `--` first or right after the command (`pnpm run shakespeare -- --x`
 * passes one) is dropped.
 *
 * @param argv the arguments after the script, e.g. `['report', '--results', 'docs/results/dqa']`.
 * @param out where help and the version are written.
 * @returns the command to run, or null when help or the version was printed.
 * @throws BENCH_UNKNOWN_TASK for a missing or unknown command (with a suggestion);
 *   BENCH_INVALID_OPTION for an unknown option, a missing or bad value; the command's own errors.
 * @example
 * const parsed = parseCommandLine(BENCH_COMMANDS, ['brackets', '--dry-run'], () => undefined);
 */
export function parseCommandLine<C>(
  specs: readonly CommandSpec<C>[],
  argv: readonly string[],
  out: (s: string) => void = (s) => process.stdout.write(s),
): ParsedCommandLine<C> | null {
  const args = argv[0] === '--' ? argv.slice(1) : [...argv];
  if (args[1] === '--') args.splice(1, 1);
  if (args.length === 0)
    throw new BenchError(
      'BENCH_UNKNOWN_TASK',
      `missing command: use one of ${specs.map((s) => s.name).join(', ')} (bench --help)`,
    );
  let chosen = undefined as Chosen | undefined;
  const program = benchProgram(specs, out, (c) => {
    chosen = c;
  });
  assertHelpPath(program, args);
  // `bench help collect gpt` as `bench collect gpt --help` (commander's help takes one name).
  if (args[0] === 'help' && args.length > 2 && !args[1]!.startsWith('-'))
    args.splice(0, args.length, ...args.slice(1).filter((w) => !w.startsWith('-')), '--help');
  try {
    program.parse(args, { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    const printed = ['commander.helpDisplayed', 'commander.version'].includes(error.code);
    if (printed || (error.code === 'commander.help' && error.exitCode === 0)) return null;
    throw codedError(error, program, args);
  }
  if (chosen === undefined) return null;
  return { spec: chosen.spec, command: chosen.spec.parse(chosen.options, chosen.args) as C };
}
