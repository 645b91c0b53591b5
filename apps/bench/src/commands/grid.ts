import { echo } from '@boltzmann/ising-core';
import { benchVersion, commandHelp, suggestCommand } from '../cli/commandTable.js';
import { Command } from 'commander';
import { toCommand } from './gridOptions.js';
import type { BenchCommand, Raw } from './gridOptions.js';
import { BenchError } from '../benchError.js';
import { addDqaOptions, addGptOptions, addGridOptions } from './gridFlags.js';
import { parseCommand } from '../cli/parseCommand.js';
import type { Experiment } from '../types.js';

// The bench's argv parsing (commander); what a command is and how the parsed flags become one are
// in gridOptions.ts, re-exported here for the modules and the package index that import them.
export { MAX_LENGTH, userPath } from './gridOptions.js';
export type { BenchCommand } from './gridOptions.js';

const EXPERIMENTS: readonly Experiment[] = ['shakespeare', 'brackets', 'dqa', 'gpt'];

/**
 * Parses the bench's argv (without `node` and the script) into a validated command.
 * Commander errors (unknown option, missing value, bad choice) become `BENCH_INVALID_OPTION`.
 *
 * @param argv e.g. `['shakespeare', '--lengths', '4,8']`.
 * @returns the command, or `null` when help/version was printed.
 * @throws BENCH_INVALID_OPTION, BENCH_UNKNOWN_TASK
 * @example
 * const cmd = parseBenchArgs(['brackets', '--d-model', '16,32', '--ffn', 'off']);
 */
export function parseBenchArgs(
  argv: readonly string[],
  out: (s: string) => void = (s) => process.stdout.write(s),
): BenchCommand | null {
  let parsed: BenchCommand | null = null;
  const program = new Command('bench')
    .description('Boltzmann attention benchmarks (METHOD.md §5)')
    .exitOverride()
    .configureOutput({ writeOut: out, writeErr: () => undefined })
    .showSuggestionAfterError(true)
    .version(benchVersion(), '-V, --version', 'print the bench version')
    .configureHelp({ visibleCommands: () => [] })
    .helpOption('-h, --help', "show this list; `bench <command> --help` shows a command's options")
    .addHelpText('after', `\n${commandHelp()}`);
  for (const experiment of EXPERIMENTS) {
    let cmd = program.command(experiment).description(`run the ${experiment} grid`).exitOverride();
    cmd = addGridOptions(
      cmd.configureOutput({ writeOut: out, writeErr: () => undefined }),
      experiment,
    );
    if (experiment === 'dqa') cmd = addDqaOptions(cmd);
    if (experiment === 'gpt') cmd = addGptOptions(cmd);
    cmd.allowExcessArguments(false).action((opts: Raw) => {
      parsed = toCommand(experiment, opts);
    });
  }
  const args = argv[0] === '--' ? argv.slice(1) : argv;
  if (args.length === 0)
    throw new BenchError(
      'BENCH_UNKNOWN_TASK',
      `missing task: use one of ${EXPERIMENTS.join(', ')} (or sample)`,
    );
  if (
    !args[0]!.startsWith('-') &&
    args[0] !== 'help' &&
    !EXPERIMENTS.includes(args[0] as Experiment)
  ) {
    const guess = suggestCommand(args[0]!);
    throw new BenchError(
      'BENCH_UNKNOWN_TASK',
      `unknown task ${echo(args[0])}: ${guess ? `did you mean "${guess}"? ` : ''}use one of ${EXPERIMENTS.join(', ')}, or another command (bench --help)`,
    );
  }
  return parseCommand(program, args) ? parsed : null;
}

/**
 * Parses `bench collect <task> [grid flags] --queue URL`: the grid command whose finished runs
 * are written from the queue, with nothing enqueued.
 *
 * @param argv from `collect` on (a leading `--` is dropped).
 * @returns the command (with `collect` set), or null when help was printed.
 * @throws BENCH_INVALID_OPTION without `--queue`, and every error of {@link parseBenchArgs}.
 * @example
 * parseCollectArgs(['collect', 'shakespeare', '--queue', 'redis://grid:6379/0'])!.collect; // true
 */
export function parseCollectArgs(
  argv: readonly string[],
  out: (s: string) => void = (s) => process.stdout.write(s),
): BenchCommand | null {
  const args = argv[0] === '--' ? argv.slice(1) : argv;
  if (args[1] === undefined)
    throw new BenchError(
      'BENCH_INVALID_OPTION',
      'bench collect needs a task, e.g. bench collect shakespeare … --queue <url> (bench collect --help)',
    );
  if (args.length === 2 && (args[1] === '--help' || args[1] === '-h')) {
    out(
      "Usage: bench collect <task> [the grid's flags] --queue <url>\n\n" +
        'Writes the finished runs of a grid enqueued with --queue into its results folder, with\n' +
        'its summary, plots and report; exits 1 with BENCH_GRID_INCOMPLETE while runs are still\n' +
        "waiting or active. The flags are the grid command's: see `bench <task> --help`.\n",
    );
    if (args[1] === undefined)
      throw new BenchError(
        'BENCH_INVALID_OPTION',
        'bench collect needs a task, e.g. bench collect shakespeare …',
      );
    return null;
  }
  const command = parseBenchArgs(args.slice(1), out);
  if (command && !command.queue)
    throw new BenchError('BENCH_INVALID_OPTION', 'bench collect needs --queue <url>');
  return command && { ...command, collect: true };
}
