import { redactSecrets } from '@boltzmann/ising-core/internal';
import { formatError } from '../benchError.js';
import { BENCH_COMMANDS } from './commandTable.js';
import type { ParsedCommandLine } from '../commands/commandSpec.js';
import { EXIT } from '../io.js';
import type { MainIo } from '../io.js';
import { parseCommandLine } from './program.js';

/**
 * The bench CLI as a function: parses `argv` with the one program of every command
 * (program.ts, commandTable.ts) and runs the command named. Never throws: a bad command line is
 * one coded line and exit 2 (help and the version exit 0); an error while running is one coded
 * line, scrubbed of the command's secrets, and exit 1.
 *
 * @param argv arguments after the script, e.g. `['shakespeare', '--preset', 'paper']`.
 * @param io output sinks and an abort signal (SIGINT/SIGTERM in the CLI).
 * @returns the process exit code (0 ok, 1 run failures, 2 usage, 130 interrupted).
 * @example
 * process.exitCode = await main(process.argv.slice(2));
 */
export async function main(
  argv: readonly string[],
  io: MainIo = {
    out: (l) => process.stdout.write(`${l}\n`),
    err: (l) => process.stderr.write(`${l}\n`),
  },
): Promise<number> {
  let parsed: ParsedCommandLine | null;
  try {
    parsed = parseCommandLine(BENCH_COMMANDS, argv, (s) => io.out(s.replace(/\n$/, '')));
  } catch (error) {
    io.err(formatError(error));
    const first = argv[0] === '--' ? argv[1] : argv[0];
    const known = BENCH_COMMANDS.some((c) => c.name === first);
    io.err(`run with ${known ? `${first} --help` : '--help'} for the list of options`);
    return EXIT.usage;
  }
  if (!parsed) return EXIT.ok;
  const { spec, command } = parsed;
  try {
    return await spec.run(command, io, main);
  } catch (error) {
    io.err(redactSecrets(formatError(error), spec.secrets?.(command) ?? {}));
    return EXIT.failed;
  }
}
