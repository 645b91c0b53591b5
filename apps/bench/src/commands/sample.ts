import { BenchError } from '../benchError.js';
import { splitSecretOptions } from '@boltzmann/ising-core/internal';
import type { Command } from 'commander';
import type { CommandSpec } from './commandSpec.js';
import type { SampleCommand } from '../inference/sampleCommand.js';
import { parseInteger, parsePositive, parseSamplerTimeout, repeatable } from '../parseValues.js';
import { userPath } from '../paths.js';
import { addSamplerOptionFlags, samplerOptionsFromFlags } from '../samplerOptionFlags.js';

export type { SampleCommand } from '../inference/sampleCommand.js';

type Raw = Record<string, string | string[] | boolean | undefined>;

/** Declares the flags of `bench sample`. */
function defineSampleFlags(cmd: Command): void {
  cmd
    .requiredOption(
      '--model <path>',
      'saved model: <results>/models/<id>.safetensors (or .json), a saveTransformer file or a bare TransformerJSON file',
    )
    .option('--prompt <text>', 'text to continue, printed before the generated text', '\n')
    .option('--no-echo', 'print only the generated characters, not the prompt before them')
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
      '--sampler <name>',
      "sampler that replaces the model file's (the only way to use a remote one: dwave, braket, ibm)",
    )
    .option(
      '--sampler-timeout <s>',
      'seconds one sampler call may take (0 = no limit) (default: 1800)',
    );
  addSamplerOptionFlags(
    cmd,
    "sampler options that replace the model file's (a model file may not say where requests go)",
  );
}

/** What commander parsed for `bench sample`, checked. */
function toSampleCommand(raw: Raw): SampleCommand {
  const s = (k: string): string | undefined =>
    typeof raw[k] === 'string' ? (raw[k] as string) : undefined;
  const samplerOptions = samplerOptionsFromFlags(raw);
  const prompt = s('prompt') ?? '\n';
  if (prompt === '')
    throw new BenchError(
      'BENCH_INVALID_OPTION',
      '--prompt must not be empty (the default is a newline)',
    );
  return {
    modelPath: userPath(s('model')!),
    prompt,
    echo: raw.echo !== false,
    chars: parseInteger('--chars', s('chars') ?? '500', 1),
    temperature: parsePositive('--temperature', s('temperature') ?? '1', true),
    topK: s('topK') === undefined ? undefined : parseInteger('--top-k', s('topK')!, 1),
    seed: parseInteger('--seed', s('seed') ?? '0', 0),
    dataPath: s('data') ? userPath(s('data')!) : undefined,
    plugins: ((raw.plugin as string[] | undefined) ?? []).map(userPath),
    ...(s('sampler') === undefined ? {} : { sampler: s('sampler')! }),
    ...(s('samplerTimeout') === undefined
      ? {}
      : { samplerTimeoutMs: parseSamplerTimeout(s('samplerTimeout')) }),
    ...(samplerOptions === undefined ? {} : { samplerOptions }),
  };
}

/**
 * The command `bench sample --model <file> [--prompt …] [--chars N] …`: its flags and checks
 * here; the run (inference/sampleRun.ts, loaded when it runs) streams the text from a child
 * process.
 */
export const sampleCommand: CommandSpec<SampleCommand> = {
  name: 'sample',
  summary: 'generate text from a saved model',
  description: 'generate text from a model saved by `bench shakespeare --save-models`',
  define: defineSampleFlags,
  parse: (options) => toSampleCommand(options as Raw),
  run: async (command, io) => {
    const { runSample } = await import('../inference/sampleRun.js');
    return runSample(command, io);
  },
  secrets: (command) => splitSecretOptions(command.samplerOptions ?? {}).secrets,
};
