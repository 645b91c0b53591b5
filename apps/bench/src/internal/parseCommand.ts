import { CommanderError } from 'commander';
import type { Command } from 'commander';
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
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.help' || error.code === 'commander.version') return false;
      throw new BenchError('BENCH_INVALID_OPTION', error.message.replace(/^error: /, ''));
    }
    throw error;
  }
}
