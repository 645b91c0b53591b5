// The one shape of a bench command (each commands/<name>.ts exports one), a leaf so that the
// commands, the program that declares them (program.ts) and main.ts share it without a circle.
import type { Command } from 'commander';
import type { MainIo, RunCli } from '../io.js';

/**
 * One bench command: its name and help texts, its flags, how what commander parsed becomes a
 * validated command, and how that runs. The program (program.ts) declares every command from
 * these; main.ts runs the one the user named, with no branch per command.
 *
 * @example
 * export const reportCommand: CommandSpec<ReportCommand> = {
 *   name: 'report',
 *   summary: 'write the summary, plots and report.html of a results folder',
 *   define: (cmd) => void cmd.option('--out <dir>', 'where to write the report'),
 *   parse: (options) => ({ out: String(options.out) }),
 *   run: (command, io) => runReport(command, io),
 * };
 */
export interface CommandSpec<C> {
  /** The word after `bench`. */
  readonly name: string;
  /** One line for the list of `bench --help`. */
  readonly summary: string;
  /** The longer text at the top of the command's own help (default: the summary). */
  readonly description?: string;
  /**
   * Declares the command's options (and arguments, or nested commands such as
   * `collect <task>`) on its commander command: names, help text, defaults, choices.
   */
  readonly define: (cmd: Command) => void;
  /**
   * Turns what commander parsed into the validated command.
   *
   * @param options commander's options (camelCased flag names).
   * @param args the names of nested commands below this one, then the positional arguments.
   * @throws BENCH_INVALID_OPTION (or another coded error) for a bad value.
   */
  readonly parse: (options: Readonly<Record<string, unknown>>, args: readonly string[]) => C;
  /**
   * Runs the command; heavy modules (TF.js, BullMQ, vega) are imported here, lazily, so that
   * `--help` and flag errors never wait for them.
   *
   * @param cli the bench CLI itself, for a command that runs other bench commands.
   * @returns the exit code.
   */
  readonly run: (command: C, io: MainIo, cli: RunCli) => Promise<number>;
  /** The values an error line of this command must not show (credentials it holds). */
  readonly secrets?: (command: C) => Readonly<Record<string, unknown>>;
}

/** A bench command whose parsed type is not known here (the program's list of every command). */
// biome-ignore lint/suspicious/noExplicitAny: each command's run takes its own parse's result.
export type AnyCommandSpec = CommandSpec<any>;

/** A command line parsed and validated: the named command, ready to run. */
export interface ParsedCommandLine<C = unknown> {
  readonly spec: CommandSpec<C>;
  readonly command: C;
}
