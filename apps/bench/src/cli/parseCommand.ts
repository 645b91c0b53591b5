import { Command, CommanderError } from 'commander';
import { BenchError } from '../benchError.js';

/**
 * Runs a commander program on `args` (the command first) the same way for every bench
 * command: a literal `--` right after the command (`pnpm run shakespeare -- --x` passes one) is
 * dropped, and commander's errors become BENCH_INVALID_OPTION.
 *
 * @returns false when help or the version was printed instead of running an action.
 * @throws BENCH_INVALID_OPTION for an unknown option, a missing value or a bad choice.
 */
export function parseCommand(program: Command, args: readonly string[]): boolean {
  const cleaned = args.length > 1 && args[1] === '--' ? [args[0]!, ...args.slice(2)] : [...args];
  try {
    program.parse(cleaned, { from: 'user' });
    return true;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (
        error.code === 'commander.helpDisplayed' ||
        error.code === 'commander.help' ||
        error.code === 'commander.version'
      )
        return false;
      throw new BenchError('BENCH_INVALID_OPTION', error.message.replace(/^error: /, ''));
    }
    throw error;
  }
}

/**
 * One bench sub-command, configured as every bench command is: errors thrown instead of
 * exiting, help written to `out`, suggestions for misspelt options, no stray arguments. Declare
 * its options and action on `command`, then call {@link runSubcommand}.
 *
 * @example
 * const { program, command } = subcommand('report', 'write a report', out);
 * command.requiredOption('--results <dir>', '…').action((raw) => { parsed = … });
 * return runSubcommand(program, argv) ? parsed : null;
 */
export function subcommand(
  name: string,
  description: string,
  out: (s: string) => void,
): { program: Command; command: Command } {
  const program = new Command('bench')
    .exitOverride()
    .configureOutput({ writeOut: out, writeErr: () => undefined })
    .showSuggestionAfterError(true);
  const command = program
    .command(name)
    .description(description)
    .exitOverride()
    .configureOutput({ writeOut: out, writeErr: () => undefined })
    .allowExcessArguments(false);
  return { program, command };
}

/** {@link parseCommand} on argv as the bench passes it (a leading `--` dropped). */
export function runSubcommand(program: Command, argv: readonly string[]): boolean {
  return parseCommand(program, argv[0] === '--' ? argv.slice(1) : argv);
}
