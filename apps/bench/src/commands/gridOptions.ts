import type { CouplingForm } from '@boltzmann/attention';
import { splitSecretOptions } from '@boltzmann/ising-core';
import { cpus } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { BenchError } from '../benchError.js';
import { assertDataOnly } from '../trust/untrustedOptions.js';
import { ALL_VARIANTS, presetGrid } from '../experiments/presets.js';
import type { GridSpec } from '../grid/types.js';
import type { PresetName } from '../experiments/presets.js';
import type { BracketMode, Experiment, Variant } from '../types.js';
import {
  choiceItem,
  intItem,
  onOffItem,
  parseInteger,
  parseJsonObject,
  parseList,
  parsePositive,
  parseSamplerTimeout,
} from '../cli/parseValues.js';
import { repoRoot } from '../paths.js';
import { parseQueueUrl } from '../queue/queueUrl.js';
import type { QueueSpec } from '../queue/queueUrl.js';

// The bench command: what a parsed invocation is, and how the flags commander parsed (grid.ts)
// become one: values checked, presets overridden, paths resolved.

/** A fully parsed and validated bench invocation. */
export interface BenchCommand {
  readonly experiment: Experiment;
  readonly preset: PresetName;
  readonly grid: GridSpec;
  readonly sampler: string;
  /** `--sampler-options` without credentials: what run ids hash and run files record. */
  readonly samplerOptions: Record<string, unknown>;
  /**
   * The credentials split off `--sampler-options` (see ising-core's `splitSecretOptions`): given
   * to the sampler in memory, never hashed, written, logged or reported.
   */
  readonly samplerSecrets: Record<string, unknown>;
  /** DQA experiment: options passed to the `dqa` sampler besides `shots`. */
  readonly dqaOptions: Record<string, unknown>;
  readonly plugins: readonly string[];
  readonly resultsDir: string;
  readonly workers: number;
  readonly dryRun: boolean;
  readonly dataPath: string | undefined;
  /** Force plain log lines even on a TTY. */
  readonly plain: boolean;
  /** Also write each finished run's trained model to `models/<id>.json`. */
  readonly saveModels: boolean;
  /** `--sampler-timeout` in ms (0 = none); undefined: the attention package's default. */
  readonly samplerTimeoutMs?: number;
  /** `--queue`: train the grid on a BullMQ queue in this Redis instead of local processes. */
  readonly queue?: QueueSpec;
  /** `--detach` (with `--queue`): enqueue and return; `bench collect` writes the results. */
  readonly detach: boolean;
  /** `--remove-collected` (with `--queue`): remove finished jobs from Redis once written here. */
  readonly removeCollected?: boolean;
  /** `bench collect`: enqueue nothing; write the finished runs of the grid and its report. */
  readonly collect?: boolean;
  /** How boltzmann/coupling runs parameterize J (`full`, `relative`, `banded:w`). */
  readonly couplingForm: CouplingForm;
  /** Positional embedding of every run: learned (default) or none. */
  readonly positions: 'learned' | 'none';
  /** Transformer blocks and attention heads per block. */
  readonly layers: number;
  readonly heads: number;
  /** DQA fidelity sweep axes. */
  readonly sweepTaus: readonly number[];
  readonly sweepSteps: readonly number[];
}

/** Longest context `--lengths` accepts; each run is also held to its sampler's `maxSpins`. */
export const MAX_LENGTH = 1024;

/** The flags of one task as commander parsed them (keys are camelCased flag names). */
export type Raw = Record<string, string | boolean | string[] | undefined>;

/**
 * Resolves a path the user typed. Under nx (which runs the script in apps/bench and does not
 * pass on the directory it was started from) relative paths resolve against the workspace
 * root; under pnpm against the directory pnpm was started from (`INIT_CWD`); else the cwd.
 *
 * @param p a path from a flag.
 * @returns an absolute path.
 */
export function userPath(p: string): string {
  if (isAbsolute(p)) return p;
  const nxRoot =
    process.env.NX_TASK_TARGET_PROJECT !== undefined ? process.env.NX_WORKSPACE_ROOT : undefined;
  return resolve(nxRoot ?? process.env.INIT_CWD ?? process.cwd(), p);
}

function parseCouplings(raw: string): CouplingForm {
  if (raw === 'full' || raw === 'relative' || /^banded:\d+$/.test(raw)) return raw as CouplingForm;
  throw new BenchError(
    'BENCH_INVALID_OPTION',
    `--couplings must be full, relative or banded:w (w an integer ≥ 0), got ${JSON.stringify(raw.slice(0, 40))}`,
  );
}

/** ising-core's samplers that take a `threads` option and default to more than one thread. */
const THREADED_SAMPLERS = new Set(['tap', 'mean-field', 'transfer-matrix']);

/**
 * gpt: a threaded sampler runs single-threaded unless `threads` is given. This was needed when a
 * threaded worker kept the VJP state of only its last 4 estimates (a gpt step makes one per layer
 * and head, 16 in `baby`); ising-core now keeps 64 (`KEPT_ESTIMATES`). It stays because
 * `threads: 1` is part of the sampler options hashed into every committed gpt run id: dropping it
 * would orphan those results. Pass `threads` in --sampler-options to choose otherwise.
 */
function gptSamplerOptions(
  name: string,
  options: Record<string, unknown>,
): Record<string, unknown> {
  return THREADED_SAMPLERS.has(name) && !('threads' in options)
    ? { ...options, threads: 1 }
    : options;
}

/**
 * Turns the parsed flags of `experiment` into a validated command.
 *
 * @throws BENCH_INVALID_OPTION when a value is out of range or flags contradict each other.
 */
export function toCommand(experiment: Experiment, raw: Raw): BenchCommand {
  const s = (k: string): string | undefined =>
    typeof raw[k] === 'string' ? (raw[k] as string) : undefined;
  const preset = (s('preset') ?? 'small') as PresetName;
  const g = { ...presetGrid(experiment, preset) } as {
    -readonly [K in keyof GridSpec]: GridSpec[K];
  };
  const pos = intItem(1);
  if (s('variants'))
    g.variants = parseList(
      '--variants',
      s('variants')!,
      choiceItem<Variant>(ALL_VARIANTS),
      ALL_VARIANTS.join('/'),
    );
  if (s('lengths'))
    g.lengths = parseList(
      '--lengths',
      s('lengths')!,
      intItem(1, MAX_LENGTH),
      `integers in [1, ${MAX_LENGTH}]`,
    );
  if (s('seeds')) g.seeds = parseList('--seeds', s('seeds')!, intItem(0), 'non-negative integers');
  if (s('steps')) g.steps = parseInteger('--steps', s('steps')!, 1);
  if (s('dModel')) g.dModels = parseList('--d-model', s('dModel')!, pos, 'positive integers');
  if (s('ffn')) g.ffns = parseList('--ffn', s('ffn')!, onOffItem, 'on/off');
  if (s('ffnHidden')) g.ffnHidden = parseInteger('--ffn-hidden', s('ffnHidden')!, 1);
  if (s('mode'))
    g.modes = parseList(
      '--mode',
      s('mode')!,
      choiceItem<BracketMode>(['balanced', 'prefix']),
      'balanced/prefix',
    );
  if (s('types')) g.types = parseInteger('--types', s('types')!, 1, 3);
  if (s('batchSize')) {
    g.batchSize = parseInteger('--batch-size', s('batchSize')!, 1);
    delete g.tokensPerBatch;
  }
  if (s('tokensPerBatch'))
    g.tokensPerBatch = parseInteger('--tokens-per-batch', s('tokensPerBatch')!, 1);
  if (g.tokensPerBatch !== undefined) {
    const tokens = g.tokensPerBatch;
    const odd = g.lengths.filter((T) => tokens % T !== 0);
    if (odd.length > 0)
      throw new BenchError(
        'BENCH_INVALID_OPTION',
        `--tokens-per-batch ${tokens} is not a multiple of T = ${odd.join(', ')}`,
      );
  }
  if (s('lr')) g.lr = parsePositive('--lr', s('lr')!);
  if (s('minLrFraction'))
    g.minLrFraction = parsePositive('--min-lr-fraction', s('minLrFraction')!, true);
  if (s('weightDecay')) g.weightDecay = parsePositive('--weight-decay', s('weightDecay')!, true);
  if (s('clipNorm')) g.clipNorm = parsePositive('--clip-norm', s('clipNorm')!);
  if (s('beta')) g.beta = parsePositive('--beta', s('beta')!);
  if (s('jInit')) g.jInit = parsePositive('--j-init', s('jInit')!, true);
  if (s('evalEvery')) g.evalEvery = parseInteger('--eval-every', s('evalEvery')!, 1);
  if (s('evalWindows')) g.evalWindows = parseInteger('--eval-windows', s('evalWindows')!, 1);
  if (s('checkpointEvery'))
    g.checkpointEvery = parseInteger('--checkpoint-every', s('checkpointEvery')!, 1);
  if (s('logEvery')) g.logEvery = parseInteger('--log-every', s('logEvery')!, 1);
  if (s('datasets'))
    g.datasets = parseList(
      '--datasets',
      s('datasets')!,
      choiceItem(['shakespeare', 'brackets'] as const),
      'shakespeare/brackets',
    );
  if (s('shots')) g.shots = parseList('--shots', s('shots')!, intItem(0), 'non-negative integers');
  if (g.gpt) {
    g.gpt = {
      ...g.gpt,
      ...(s('warmupSteps')
        ? { warmupSteps: parseInteger('--warmup-steps', s('warmupSteps')!, 0) }
        : {}),
      ...(s('evalBatches')
        ? { evalBatches: parseInteger('--eval-batches', s('evalBatches')!, 1) }
        : {}),
    };
    if (g.gpt.warmupSteps >= g.steps)
      throw new BenchError(
        'BENCH_INVALID_OPTION',
        `--warmup-steps ${g.gpt.warmupSteps} must be below --steps ${g.steps}`,
      );
    const positions = g.positions ?? MAX_LENGTH;
    const tooLong = g.lengths.find((T) => T > positions);
    if (tooLong !== undefined) {
      throw new BenchError(
        'BENCH_INVALID_OPTION',
        `--lengths ${tooLong} is above the ${positions}-entry positional table of the gpt preset (block ${positions})`,
      );
    }
  }
  if (g.minLrFraction > 1)
    throw new BenchError(
      'BENCH_INVALID_OPTION',
      `--min-lr-fraction must be ≤ 1, got ${g.minLrFraction}`,
    );
  const workers = s('workers')
    ? parseInteger('--workers', s('workers')!, 0, 64)
    : Math.max(1, cpus().length);
  const heads = parseInteger('--heads', s('heads') ?? String(g.heads ?? 1), 1, 64);
  const indivisible = g.dModels.find((d) => d % heads !== 0);
  if (indivisible !== undefined)
    throw new BenchError(
      'BENCH_INVALID_OPTION',
      `--heads ${heads} must divide every --d-model, got d_model ${indivisible}`,
    );
  const results = s('results');
  const sampler = splitSecretOptions(
    parseJsonObject('--sampler-options', s('samplerOptions') ?? '{}'),
  );
  const samplerName = s('sampler') ?? g.sampler ?? 'exact';
  const queue = s('queue') === undefined ? undefined : parseQueueUrl(s('queue')!);
  if (raw.detach === true && !queue)
    throw new BenchError('BENCH_INVALID_OPTION', '--detach needs --queue <url>');
  if (raw.removeCollected === true && !queue)
    throw new BenchError('BENCH_INVALID_OPTION', '--remove-collected needs --queue <url>');
  if (queue && Object.keys(sampler.secrets).length > 0)
    throw new BenchError(
      'BENCH_INVALID_OPTION',
      'credentials in --sampler-options are not sent through the queue: give them to each worker in its environment (DWAVE_API_TOKEN, the AWS credential chain)',
    );
  if (queue)
    assertDataOnly(
      sampler.options,
      '--sampler-options',
      'a queued job may not carry them: give them to each worker (`bench worker --sampler-options`)',
    );
  return {
    experiment,
    preset,
    grid: g,
    sampler: samplerName,
    samplerOptions: g.gpt ? gptSamplerOptions(samplerName, sampler.options) : sampler.options,
    samplerSecrets: sampler.secrets,
    dqaOptions: parseJsonObject('--dqa-options', s('dqaOptions') ?? '{}'),
    plugins: ((raw.plugin as string[] | undefined) ?? []).map(userPath),
    resultsDir: results ? userPath(results) : resolve(repoRoot(), 'results', experiment),
    workers,
    dryRun: raw.dryRun === true,
    dataPath: s('data') ? userPath(s('data')!) : undefined,
    plain: raw.plain === true,
    saveModels: raw.saveModels === true,
    ...(s('samplerTimeout') === undefined
      ? {}
      : { samplerTimeoutMs: parseSamplerTimeout(s('samplerTimeout')) }),
    ...(queue ? { queue } : {}),
    detach: raw.detach === true,
    ...(raw.removeCollected === true ? { removeCollected: true } : {}),
    couplingForm: parseCouplings(s('couplings') ?? 'full'),
    positions: s('positions') === 'none' ? 'none' : 'learned',
    layers: parseInteger('--layers', s('layers') ?? String(g.layers ?? 1), 1, 64),
    heads,
    sweepTaus: parseList(
      '--sweep-taus',
      s('sweepTaus') ?? '1,2,4,8,16,32',
      (x) => {
        const n = Number(x);
        return x !== '' && Number.isFinite(n) && n > 0 ? n : undefined;
      },
      'positive numbers',
    ),
    sweepSteps: parseList(
      '--sweep-steps',
      s('sweepSteps') ?? '8,16,32,64,128',
      intItem(1),
      'positive integers',
    ),
  };
}
