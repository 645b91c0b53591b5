// One command's parse through the one program, for tests, studies and the package index: the
// same flags, help and coded errors as the CLI.
import type { BenchCommand } from '../benchCommand.js';
import { GRID_COMMANDS } from '../commands/grid.js';
import { sampleCommand } from '../commands/sample.js';
import type { SampleCommand } from '../inference/sampleCommand.js';
import { parseCommandLine } from './program.js';

/**
 * Parses a grid command line (`bench shakespeare|brackets|dqa|gpt …`, without `node` and the
 * script) into a validated command, with the same program and errors as the CLI.
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
  return parseCommandLine(GRID_COMMANDS, argv, out)?.command ?? null;
}

/**
 * Parses the arguments of `bench sample` (argv after the script, starting with `sample`), as
 * the CLI does.
 *
 * @param argv e.g. `['sample', '--model', 'm.json', '--chars', '200']`.
 * @param out where `--help` goes.
 * @returns the command, or `null` when help was printed.
 * @throws BENCH_INVALID_OPTION for an unknown or missing flag, a bad number or an empty prompt.
 * @example
 * const cmd = parseSampleArgs(['sample', '--model', 'docs/results/shakespeare/models/x.json', '--temperature', '0']);
 */
export function parseSampleArgs(
  argv: readonly string[],
  out: (s: string) => void = (s) => process.stdout.write(s),
): SampleCommand | null {
  return parseCommandLine([sampleCommand], argv, out)?.command ?? null;
}
