import { parseBudget } from '../hardware/budget.js';
import type { CouplingForm } from '@boltzmann/attention';
import { threadInfo } from '@boltzmann/ising-core';
import { cpus } from 'node:os';
import { resolve } from 'node:path';
import { BenchError } from '../benchError.js';
import {
  intItem,
  onOffItem,
  parseInteger,
  parseList,
  parsePositive,
  parseSamplerTimeout,
} from '../parseValues.js';
import { presetGrid } from '../experiments/presets.js';
import { EXPERIMENTS } from '../experiments/registry.js';
import type { MutableGrid, ReadFlag } from '../experiments/types.js';
import { repoRoot, userPath } from '../paths.js';
import { parseQueueUrl } from '../queue/queueUrl.js';
import type { EngineBackendChoice, Experiment } from '../types.js';
import type { BenchCommand, GridSpec, PresetName, Raw } from '../benchCommand.js';
import { MAX_LENGTH } from '../benchCommand.js';
import { assertOwnFlags } from './gridFlags.js';
import { samplerOf } from './gridSampler.js';

// How the flags commander parsed (grid.ts, gridFlags.ts) become a bench command: values
// checked, presets overridden (the task's own flags by its experiment module), paths resolved.
// What a command is: the root leaf benchCommand.ts.

/**
 * The engine threads of each run of a grid of `runs` runs on `workers` worker processes (0: this
 * process): the number given, or with `'auto'` every core a run has to itself — all of them for
 * a run alone (one run, `--workers 0` or `1`), one each when the workers fill the cores. The
 * queue's workers choose their own (`bench worker --engine-threads`).
 */
export function engineThreadsFor(
  threads: number | 'auto',
  workers: number,
  runs: number,
  queued: boolean,
): number {
  if (threads !== 'auto') return threads;
  if (queued) return 1;
  const processes = Math.max(1, Math.min(workers, runs));
  return Math.max(1, Math.floor(threadInfo().cores / processes));
}

/**
 * `--engine-threads`: at most the cores the engine may use here (its own bound is 64). More only
 * slow every step, and did not even start in time (64 on 2 cores: 138 threads, a failure 60 s later).
 */
function engineThreadsOf(raw: string | undefined): number | 'auto' {
  if (!raw) return 'auto';
  const threads = parseInteger('--engine-threads', raw, 1, 64);
  const { cores } = threadInfo();
  if (threads > cores)
    throw new BenchError(
      'BENCH_INVALID_OPTION',
      `--engine-threads ${threads} is more than the ${cores} cores available here; use at most ${cores}`,
    );
  return threads;
}

function parseCouplings(raw: string): CouplingForm {
  if (raw === 'full' || raw === 'relative' || /^banded:\d+$/.test(raw)) return raw as CouplingForm;
  throw new BenchError(
    'BENCH_INVALID_OPTION',
    `--couplings must be full, relative or banded:w (w an integer ≥ 0), got ${JSON.stringify(raw.slice(0, 40))}`,
  );
}

/** `--lengths`, `--seeds`, `--d-model`, `--ffn`, `--ffn-hidden`: the axes every task has. */
function applyAxisFlags(s: ReadFlag, g: MutableGrid): void {
  const lengths = s('lengths');
  if (lengths)
    g.lengths = parseList(
      '--lengths',
      lengths,
      intItem(1, MAX_LENGTH),
      `integers in [1, ${MAX_LENGTH}]`,
    );
  if (s('seeds')) g.seeds = parseList('--seeds', s('seeds')!, intItem(0), 'non-negative integers');
  if (s('dModel'))
    g.dModels = parseList('--d-model', s('dModel')!, intItem(1), 'positive integers');
  if (s('ffn')) g.ffns = parseList('--ffn', s('ffn')!, onOffItem, 'on/off');
  if (s('ffnHidden')) g.ffnHidden = parseInteger('--ffn-hidden', s('ffnHidden')!, 1);
}

/** `--batch-size` or `--tokens-per-batch` (a multiple of every length). */
function applyBatchFlags(s: ReadFlag, g: MutableGrid): void {
  if (s('batchSize')) {
    g.batchSize = parseInteger('--batch-size', s('batchSize')!, 1);
    delete g.tokensPerBatch;
  }
  if (s('tokensPerBatch'))
    g.tokensPerBatch = parseInteger('--tokens-per-batch', s('tokensPerBatch')!, 1);
  if (g.tokensPerBatch === undefined) return;
  const tokens = g.tokensPerBatch;
  const odd = g.lengths.filter((T) => tokens % T !== 0);
  if (odd.length > 0)
    throw new BenchError(
      'BENCH_INVALID_OPTION',
      `--tokens-per-batch ${tokens} is not a multiple of T = ${odd.join(', ')}`,
    );
}

/** The optimizer, the Ising layer's β and J init, and the evaluation/checkpoint/log intervals. */
function applyTrainingFlags(s: ReadFlag, g: MutableGrid): void {
  if (s('steps')) g.steps = parseInteger('--steps', s('steps')!, 1);
  if (s('lr')) g.lr = parsePositive('--lr', s('lr')!);
  if (s('minLrFraction'))
    g.minLrFraction = parsePositive('--min-lr-fraction', s('minLrFraction')!, true);
  if (s('weightDecay')) g.weightDecay = parsePositive('--weight-decay', s('weightDecay')!, true);
  if (s('clipNorm')) g.clipNorm = parsePositive('--clip-norm', s('clipNorm')!);
  if (s('beta')) g.beta = parsePositive('--beta', s('beta')!);
  if (s('jInit')) g.jInit = parsePositive('--j-init', s('jInit')!, true);
  if (s('evalEvery')) g.evalEvery = parseInteger('--eval-every', s('evalEvery')!, 1);
  if (s('checkpointEvery'))
    g.checkpointEvery = parseInteger('--checkpoint-every', s('checkpointEvery')!, 1);
  if (s('logEvery')) g.logEvery = parseInteger('--log-every', s('logEvery')!, 1);
}

/**
 * `--early-stop-patience` (evaluations, ≥ 1) and `--early-stop-min-delta` (a relative
 * improvement in [0, 1), default 0; only with a patience). Without them a run trains its steps.
 */
const EARLY_STOP_FOLLOWERS = [
  ['earlyStopMinDelta', '--early-stop-min-delta'],
  ['earlyStopLrDecays', '--early-stop-lr-decays'],
  ['earlyStopLrFactor', '--early-stop-lr-factor'],
] as const;

function applyEarlyStopFlags(s: ReadFlag, g: MutableGrid): void {
  const patience = s('earlyStopPatience');
  const minDelta = s('earlyStopMinDelta');

  if (patience === undefined) {
    const orphan = EARLY_STOP_FOLLOWERS.find(([key]) => s(key) !== undefined);
    if (orphan !== undefined)
      throw new BenchError(
        'BENCH_INVALID_OPTION',
        `${orphan[1]} needs --early-stop-patience <n> (early stopping is off without it)`,
      );
    return;
  }
  const delta =
    minDelta === undefined ? 0 : parsePositive('--early-stop-min-delta', minDelta, true);
  if (delta >= 1)
    throw new BenchError(
      'BENCH_INVALID_OPTION',
      `--early-stop-min-delta is relative to the best value and must be < 1, got ${delta}`,
    );
  g.earlyStop = {
    patience: parseInteger('--early-stop-patience', patience, 1, 1_000_000),
    minDelta: delta,
    ...lrDecaysOf(s),
  };
}

/** `--early-stop-lr-decays` (1–100) and `--early-stop-lr-factor` (in (0, 1), default 0.1); none when off. */
function lrDecaysOf(s: ReadFlag): { lrDecays?: number; lrDecayFactor?: number } {
  const decays = s('earlyStopLrDecays');
  const factor = s('earlyStopLrFactor');
  if (decays === undefined) {
    if (factor !== undefined)
      throw new BenchError(
        'BENCH_INVALID_OPTION',
        '--early-stop-lr-factor needs --early-stop-lr-decays <n> (the rate never decays without it)',
      );
    return {};
  }
  const lrDecays = parseInteger('--early-stop-lr-decays', decays, 0, 100);
  if (lrDecays === 0) return {};
  const lrDecayFactor =
    factor === undefined ? 0.1 : parsePositive('--early-stop-lr-factor', factor);
  if (lrDecayFactor >= 1)
    throw new BenchError(
      'BENCH_INVALID_OPTION',
      `--early-stop-lr-factor multiplies the rate and must be < 1, got ${lrDecayFactor}`,
    );
  return { lrDecays, lrDecayFactor };
}

/** The preset's grid with every flag applied: the common ones, then the task's own. */
function gridOf(experiment: Experiment, preset: PresetName, s: ReadFlag) {
  const module = EXPERIMENTS[experiment];
  const g: MutableGrid = { ...presetGrid(experiment, preset) };
  applyAxisFlags(s, g);
  applyBatchFlags(s, g);
  applyTrainingFlags(s, g);
  applyEarlyStopFlags(s, g);
  const settings = module.applyFlags(s, g);
  module.checkGrid?.(g);
  if (g.minLrFraction > 1)
    throw new BenchError(
      'BENCH_INVALID_OPTION',
      `--min-lr-fraction must be ≤ 1, got ${g.minLrFraction}`,
    );
  return { grid: g, settings };
}

/** `--layers` and `--heads` (the preset's by default; heads divide every width). */
function modelShape(s: ReadFlag, g: GridSpec): { layers: number; heads: number } {
  const heads = parseInteger('--heads', s('heads') ?? String(g.heads ?? 1), 1, 64);
  const indivisible = g.dModels.find((d) => d % heads !== 0);
  if (indivisible !== undefined)
    throw new BenchError(
      'BENCH_INVALID_OPTION',
      `--heads ${heads} must divide every --d-model, got d_model ${indivisible}`,
    );
  return { layers: parseInteger('--layers', s('layers') ?? String(g.layers ?? 1), 1, 64), heads };
}

/** `--queue`, `--detach`, `--remove-collected`: the queue and what may go with it. */
function queueOf(s: ReadFlag, raw: Raw) {
  const queue = s('queue') === undefined ? undefined : parseQueueUrl(s('queue')!);
  if (raw.detach === true && !queue)
    throw new BenchError('BENCH_INVALID_OPTION', '--detach needs --queue <url>');
  if (raw.removeCollected === true && !queue)
    throw new BenchError('BENCH_INVALID_OPTION', '--remove-collected needs --queue <url>');
  return {
    ...(queue ? { queue } : {}),
    detach: raw.detach === true,
    ...(raw.removeCollected === true ? { removeCollected: true } : {}),
  };
}

/**
 * Turns the parsed flags of `experiment` into a validated command.
 *
 * @throws BENCH_INVALID_OPTION when a value is out of range, flags contradict each other, or a
 *   flag belongs to another task.
 */
export function toCommand(experiment: Experiment, raw: Raw): BenchCommand {
  assertOwnFlags(experiment, raw);
  const s: ReadFlag = (k) => (typeof raw[k] === 'string' ? (raw[k] as string) : undefined);
  const preset = (s('preset') ?? 'small') as PresetName;
  const { grid, settings } = gridOf(experiment, preset, s);
  const workers = s('workers')
    ? parseInteger('--workers', s('workers')!, 0, 64)
    : Math.max(1, cpus().length);
  const shape = modelShape(s, grid);
  const results = s('results');
  const queue = queueOf(s, raw);
  return {
    experiment,
    preset,
    grid,
    ...samplerOf(experiment, raw, grid, queue.queue !== undefined),
    plugins: ((raw.plugin as string[] | undefined) ?? []).map(userPath),
    resultsDir: results ? userPath(results) : resolve(repoRoot(), 'results', experiment),
    workers,
    dryRun: raw.dryRun === true,
    ...(s('budget') === undefined ? {} : { budget: parseBudget(s('budget')!) }),
    strict: raw.strict === true,
    ...settings,
    dataPath: settings.dataPath,
    plain: raw.plain === true,
    saveModels: raw.saveModels === true,
    ...(raw.tensorboard === true ? { tensorboard: true } : {}),
    ...(s('samplerTimeout') === undefined
      ? {}
      : { samplerTimeoutMs: parseSamplerTimeout(s('samplerTimeout')) }),
    engine: {
      name: s('engine') === 'tfjs' ? 'tfjs' : 'wasm',
      threads: engineThreadsOf(s('engineThreads')),
      backend: (s('engineBackend') ?? 'auto') as EngineBackendChoice,
    },
    ...queue,
    couplingForm: parseCouplings(s('couplings') ?? 'full'),
    positions: s('positions') === 'none' ? 'none' : 'learned',
    ...shape,
  };
}
