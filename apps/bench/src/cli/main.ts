import { redactSecrets, splitSecretOptions } from '@boltzmann/ising-core';
import { formatError } from '../benchError.js';
import { BENCH_COMMANDS } from './commandTable.js';
import { EXIT } from './io.js';
import type { MainIo } from './io.js';
import { parseBenchArgs, parseCollectArgs } from '../commands/grid.js';
import type { BenchCommand } from '../commands/grid.js';
import { parseSampleArgs } from '../commands/sample.js';
import type { SampleCommand } from '../commands/sample.js';

/** The queue's password, for scrubbing error lines (see queue/queueConnection.ts). */
function queueSecrets(queue: { readonly password?: string } | undefined): Record<string, string> {
  return queue?.password === undefined ? {} : { queuePassword: queue.password };
}

/** A command's parse and run, loaded on first use. */
interface LazyCommand {
  readonly parse: (argv: readonly string[], out: (s: string) => void) => unknown;
  // biome-ignore lint/suspicious/noExplicitAny: each command's runner takes its own parser's result.
  readonly run: (command: any, io: MainIo) => Promise<number>;
}

/** The commands that handle no credentials: each module's parser and runner, loaded lazily. */
const TOOL_COMMANDS: Readonly<Record<string, () => Promise<LazyCommand>>> = {
  extrapolate: async () => {
    const m = await import('../commands/extrapolate.js');
    return { parse: m.parseExtrapolateArgs, run: m.runExtrapolate };
  },
  report: async () => {
    const m = await import('../commands/report.js');
    return { parse: m.parseReportArgs, run: m.runReport };
  },
  samplers: async () => {
    const m = await import('../commands/samplers.js');
    return { parse: m.parseSamplersArgs, run: m.runSamplers };
  },
  export: async () => {
    const m = await import('../commands/export.js');
    return { parse: m.parseExportArgs, run: m.runExport };
  },
};

/**
 * The bench CLI as a function: parses `argv`, runs the grid, writes the report.
 * Never throws: errors become `error [CODE]: message` on `err` and a non-zero exit code.
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
  const first = argv[0] === '--' ? argv[1] : argv[0];
  const help = (s: string): void => io.out(s.replace(/\n$/, ''));
  // `bench help <command>` is `bench <command> --help`.
  const named = argv[argv[0] === '--' ? 2 : 1];
  if (first === 'help' && named !== undefined && BENCH_COMMANDS.some(([n]) => n === named))
    return main([named, '--help'], io);
  const tool =
    first !== undefined && Object.hasOwn(TOOL_COMMANDS, first) ? TOOL_COMMANDS[first] : undefined;
  if (tool !== undefined) {
    const { parse, run } = await tool();
    return parseThenRun(
      io,
      `${first} --help`,
      () => parse(argv, help),
      (command) => run(command, io),
    );
  }
  if (first === 'long-context') {
    const { parseLongContextArgs, runLongContext } = await import('../commands/longContext.js');
    return parseThenRun(
      io,
      'long-context --help',
      () => parseLongContextArgs(argv, help),
      (command) => runLongContext(command, io, main),
    );
  }
  if (first === 'worker') {
    const { parseWorkerArgs, runBenchWorker } = await import('../queue/queueWorker.js');
    return parseThenRun(
      io,
      'worker --help',
      () => parseWorkerArgs(argv, help),
      (command) => runBenchWorker(command, io),
      (command) => queueSecrets(command.queue),
    );
  }
  if (first === 'status') {
    const { parseStatusArgs, runStatus } = await import('../commands/status.js');
    return parseThenRun(
      io,
      'status --help',
      () => parseStatusArgs(argv, help),
      (command) => runStatus(command, io),
      (command) => queueSecrets(command.queue),
    );
  }
  if (first === 'sample') {
    return parseThenRun(
      io,
      'sample --help',
      () => parseSampleArgs(argv, help),
      async (command: SampleCommand) => {
        const { runSample } = await import('../inference/sampleRun.js');
        return runSample(command, io);
      },
      (command) => splitSecretOptions(command.samplerOptions ?? {}).secrets,
    );
  }
  return parseThenRun(
    io,
    '--help',
    () => (first === 'collect' ? parseCollectArgs(argv, help) : parseBenchArgs(argv, help)),
    async (command: BenchCommand) => {
      // Loaded after parsing so that --help and flag errors never wait for (or depend on) TF.js.
      const { runCommand } = await import('../commands/gridRun.js');
      return runCommand(command, io);
    },
    (command) => ({ ...command.samplerSecrets, ...queueSecrets(command.queue) }),
  );
}

/**
 * The shape every bench command shares: parse (a bad flag is one coded line and exit 2; help is
 * exit 0), then run (any error is one coded line, scrubbed of the command's secrets, and exit 1).
 */
async function parseThenRun<C>(
  io: MainIo,
  helpFlag: string,
  parse: () => C | null,
  run: (command: C) => Promise<number>,
  secretsOf: (command: C) => Readonly<Record<string, unknown>> = () => ({}),
): Promise<number> {
  let command: C | null;
  try {
    command = parse();
  } catch (error) {
    io.err(formatError(error));
    io.err(`run with ${helpFlag} for the list of options`);
    return EXIT.usage;
  }
  if (!command) return EXIT.ok;
  try {
    return await run(command);
  } catch (error) {
    io.err(redactSecrets(formatError(error), secretsOf(command)));
    return EXIT.failed;
  }
}
