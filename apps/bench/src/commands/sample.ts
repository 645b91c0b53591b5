import { BenchError } from '../benchError.js';
import { runSubcommand, subcommand } from '../cli/parseCommand.js';
import {
  parseInteger,
  parseJsonObject,
  parsePositive,
  parseSamplerTimeout,
  repeatable,
} from '../cli/parseValues.js';
import { userPath } from './grid.js';

/** A parsed and validated `bench sample` invocation. */
export interface SampleCommand {
  /** Absolute path of a `--save-models` file (`{ id, config, model }`) or a bare `TransformerJSON`. */
  readonly modelPath: string;
  /** The text the generation continues (not echoed); its last `maxLength` characters are the first context. */
  readonly prompt: string;
  /** Number of characters to generate. */
  readonly chars: number;
  /** Softmax temperature; 0 is greedy (argmax) decoding. */
  readonly temperature: number;
  /** Sample among the `topK` most likely characters only; `undefined` = all. */
  readonly topK: number | undefined;
  /** Seed of the sampling stream (ising-core `createRng`). */
  readonly seed: number;
  /** Tiny Shakespeare `input.txt` (the vocabulary); `undefined` = the usual search. */
  readonly dataPath: string | undefined;
  /** Sampler plugin modules, for a model trained with a `--plugin` sampler. */
  readonly plugins: readonly string[];
  /**
   * The user's own sampler options (endpoint, region, credentials, …), which replace the ones
   * recorded in the model file; `undefined` = the file's, which may only be data.
   */
  readonly samplerOptions?: Readonly<Record<string, unknown>>;
  /** `--sampler-timeout` in ms (0 = none); undefined: the attention package's default. */
  readonly samplerTimeoutMs?: number;
}

type Raw = Record<string, string | string[] | undefined>;

/**
 * Parses the arguments of `bench sample` (argv after the script, starting with `sample`).
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
  let parsed: SampleCommand | null = null;
  const { program, command } = subcommand(
    'sample',
    'generate text from a model saved by `bench shakespeare --save-models`',
    out,
  );
  command
    .requiredOption(
      '--model <path>',
      'saved model: <results>/models/<id>.json, or a bare TransformerJSON file',
    )
    .option('--prompt <text>', 'text to continue (not echoed)', '\n')
    .option('--chars <n>', 'characters to generate', '500')
    .option('--temperature <x>', 'softmax temperature; 0 = greedy argmax', '1')
    .option('--top-k <n>', 'sample among the k most likely characters only')
    .option('--seed <n>', 'seed of the sampling stream', '0')
    .option('--data <path>', 'path of Tiny Shakespeare input.txt (the vocabulary)')
    .option(
      '--plugin <path>',
      'load a sampler plugin module (default export); repeatable',
      repeatable,
      [] as string[],
    )
    .option(
      '--sampler-options <json>',
      "sampler options that replace the model file's (a model file may not say where requests go)",
    )
    .option(
      '--sampler-timeout <s>',
      'seconds one sampler call may take (0 = no limit) (default: 1800)',
    )
    .action((raw: Raw) => {
      const s = (k: string): string | undefined =>
        typeof raw[k] === 'string' ? (raw[k] as string) : undefined;
      const prompt = s('prompt') ?? '\n';
      if (prompt === '')
        throw new BenchError(
          'BENCH_INVALID_OPTION',
          '--prompt must not be empty (the default is a newline)',
        );
      parsed = {
        modelPath: userPath(s('model')!),
        prompt,
        chars: parseInteger('--chars', s('chars') ?? '500', 1),
        temperature: parsePositive('--temperature', s('temperature') ?? '1', true),
        topK: s('topK') === undefined ? undefined : parseInteger('--top-k', s('topK')!, 1),
        seed: parseInteger('--seed', s('seed') ?? '0', 0),
        dataPath: s('data') ? userPath(s('data')!) : undefined,
        plugins: ((raw.plugin as string[] | undefined) ?? []).map(userPath),
        ...(s('samplerTimeout') === undefined
          ? {}
          : { samplerTimeoutMs: parseSamplerTimeout(s('samplerTimeout')) }),
        ...(s('samplerOptions') === undefined
          ? {}
          : { samplerOptions: parseJsonObject('--sampler-options', s('samplerOptions')!) }),
      };
    });
  return runSubcommand(program, argv) ? parsed : null;
}
