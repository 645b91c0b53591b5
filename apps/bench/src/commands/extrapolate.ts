import type { Transformer } from '@boltzmann/attention';
import { writeJsonAtomic } from '../results/atomicWrite.js';
import { BenchError } from '../benchError.js';
import type { ExtrapolationPoint } from '../report/extrapolationReport.js';
import type { CommandSpec } from './commandSpec.js';
import { intItem, parseList, repeatable } from '../parseValues.js';
import { EXIT } from '../io.js';
import type { MainIo } from '../io.js';
import { userPath } from '../paths.js';
import type { RunConfig } from '../types.js';

export type { ExtrapolationPoint } from '../report/extrapolationReport.js';

/** A parsed `bench extrapolate` invocation. */
export interface ExtrapolateCommand {
  /** A `--save-models` file `{ id, config, model }` of a Tiny Shakespeare (shakespeare or gpt) run. */
  readonly modelPath: string;
  /** Context lengths to evaluate at, each ≥ the training length. */
  readonly lengths: readonly number[];
  readonly dataPath: string | undefined;
  readonly plugins: readonly string[];
  /** Where to write the results as JSON (atomically); none = print only. */
  readonly outPath: string | undefined;
}

/** The command `bench extrapolate --model <file> --lengths 128,256 [--data …] [--plugin …] [--out file.json]`. */
export const extrapolateCommand: CommandSpec<ExtrapolateCommand> = {
  name: 'extrapolate',
  summary: 'evaluate a saved model at longer contexts',
  description:
    'evaluate a saved model (no positional embedding; relative or no J) at longer context lengths than it was trained at',
  define: (cmd) => {
    cmd
      .requiredOption(
        '--model <path>',
        'a --save-models file <results>/models/<id>.safetensors (or .json)',
      )
      .requiredOption('--lengths <list>', 'context lengths, e.g. 128,256')
      .option('--data <path>', 'path of Tiny Shakespeare input.txt')
      .option(
        '--plugin <path>',
        'load a sampler plugin module (default export); repeatable',
        repeatable,
        [] as string[],
      )
      .option('--out <file>', 'also write the results as JSON');
  },
  parse: (options) => {
    const raw = options as {
      model: string;
      lengths: string;
      data?: string;
      plugin: string[];
      out?: string;
    };
    return {
      modelPath: userPath(raw.model),
      lengths: parseList('--lengths', raw.lengths, intItem(1, 4096), 'integers in [1, 4096]'),
      dataPath: raw.data === undefined ? undefined : userPath(raw.data),
      plugins: raw.plugin.map(userPath),
      outPath: raw.out === undefined ? undefined : userPath(raw.out),
    };
  },
  run: (command, io) => runExtrapolate(command, io),
};

/** The run config of a `--save-models` file, as `readModelFile` read it (which checks the model JSON itself). */
function runConfigOf(path: string, runConfig: unknown): RunConfig {
  const config = runConfig as RunConfig | null | undefined;
  if (
    config === undefined ||
    config === null ||
    typeof config !== 'object' ||
    typeof config.length !== 'number'
  ) {
    throw new BenchError(
      'BENCH_BAD_MODEL',
      `--model ${path} has no run config: bench extrapolate needs a --save-models file { id, config, model }, not a bare model`,
    );
  }
  if (config.dataset !== 'shakespeare') {
    throw new BenchError(
      'BENCH_MODEL_MISMATCH',
      `--model ${path} was trained on ${config.dataset}; extrapolation is measured on Tiny Shakespeare (the bracket head has one output per position)`,
    );
  }
  return config;
}

/**
 * Evaluates a saved model at each length on the validation text the bench uses at that length
 * (the same windows, or for gpt the same random val batches, as a run trained at that length).
 *
 * @returns exit code 0; prints one line per length and writes `--out` when given.
 * @throws BENCH_MODEL_NOT_FOUND, BENCH_BAD_MODEL, BENCH_MODEL_MISMATCH; ATTENTION_INVALID_CONFIG (why the model cannot run longer).
 */
export async function runExtrapolate(command: ExtrapolateCommand, io: MainIo): Promise<number> {
  // TF.js and the models load when the command runs, not when `bench --help` lists it.
  const [attention, { readModelFile }, { createBenchRegistry }] = await Promise.all([
    import('@boltzmann/attention'),
    import('../inference/generate.js'),
    import('../samplers/registry.js'),
  ]);
  const { json, runConfig } = readModelFile(command.modelPath);
  const config = runConfigOf(command.modelPath, runConfig);
  const shorter = command.lengths.filter((T) => T < config.length);
  if (shorter.length > 0)
    throw new BenchError(
      'BENCH_INVALID_OPTION',
      `--lengths ${shorter.join(',')} is below the training length ${config.length}`,
    );
  const maxT = Math.max(...command.lengths);
  const registry = await createBenchRegistry(command.plugins);
  await attention.initBackend('wasm', { log: io.err });
  let long: ReturnType<typeof attention.withMaxLength>;
  try {
    long = attention.withMaxLength(json, maxT);
  } catch (error) {
    if (error instanceof attention.AttentionError)
      throw new BenchError(
        'BENCH_MODEL_MISMATCH',
        `--model ${command.modelPath}: ${error.message}`,
        { cause: error },
      );
    throw error;
  }
  const model = attention.loadTransformer(long, { registry });
  let points: ExtrapolationPoint[] | null;
  try {
    io.out(`model ${command.modelPath} (${config.column}, trained at T = ${config.length})`);
    points = await evaluateLengths(model, config, command, io);
  } finally {
    model.dispose();
  }
  if (points === null) return EXIT.interrupted;
  if (command.outPath !== undefined) {
    writeJsonAtomic(command.outPath, {
      model: command.modelPath,
      config,
      trainedAt: config.length,
      points,
    });
    io.out(`results: ${command.outPath}`);
  }
  return EXIT.ok;
}

/** The model's loss at each length, printed as it goes; null when stopped by the signal. */
async function evaluateLengths(
  model: Transformer,
  config: RunConfig,
  command: ExtrapolateCommand,
  io: MainIo,
): Promise<ExtrapolationPoint[] | null> {
  const [{ combineEvaluations, evaluate, perplexity }, { createTaskData }, { EVAL_CHUNK_SIZE }] =
    await Promise.all([
      import('@boltzmann/attention'),
      import('../experiments/taskData.js'),
      import('../training/runModelTypes.js'),
    ]);
  const points: ExtrapolationPoint[] = [];
  for (const T of [...new Set(command.lengths)].sort((a, b) => a - b)) {
    if (io.signal?.aborted === true) return null;
    const data = await createTaskData({ ...config, length: T }, command.dataPath);
    const parts = [];
    // The batch size explicitly: the default (inputs / maxLength) would read T = maxT sequences.
    for (const b of data.evalBatches)
      parts.push(
        await evaluate(
          model,
          { ...b, batchSize: b.inputs.length / T },
          { chunkSize: EVAL_CHUNK_SIZE },
        ),
      );
    const e = combineEvaluations(parts);
    const sequences = data.evalBatches.reduce((n, b) => n + b.inputs.length / T, 0);
    points.push({ T, loss: e.loss, perplexity: perplexity(e.loss), sequences });
    io.out(
      `T = ${T}: val loss ${e.loss.toFixed(4)} nats/char, perplexity ${perplexity(e.loss).toFixed(3)} (${sequences} sequences)`,
    );
  }
  return points;
}
