import { createHash } from 'node:crypto';
import { echo } from '@boltzmann/ising-core/internal';
import { BenchError } from '../benchError.js';
import { canonicalJson } from '../results/canonicalJson.js';

export { canonicalJson } from '../results/canonicalJson.js';
import { usesSampler } from '@boltzmann/ising-core';
import type { BenchCommand } from '../benchCommand.js';
import { EXPERIMENTS } from '../experiments/registry.js';
import { evalWindowsFlag } from '../experiments/taskFlags.js';
import type { RunColumn } from '../experiments/types.js';
import type { BracketMode, DatasetName, RunConfig } from '../types.js';

// A grid's runs (the product of its axes; the experiment gives its datasets, columns and own
// fields) and their ids. `dqaColumn` lives with the dqa experiment, re-exported for the index.
export { dqaColumn } from '../experiments/dqa.js';

/** The task part of a run's id and label: the experiment's own, else its dataset (and mode). */
function runName(c: RunConfig): { readonly id: string; readonly label: string } {
  const own = Object.hasOwn(EXPERIMENTS, c.experiment)
    ? EXPERIMENTS[c.experiment].runName
    : undefined;
  if (own) return own(c);
  return c.dataset === 'brackets'
    ? { id: `brackets-${c.mode}`, label: `brackets/${c.mode}` }
    : { id: c.dataset, label: c.dataset };
}

/** A short human label of a run. */
export function runLabel(c: RunConfig): string {
  return `${runName(c).label} ${c.column} T=${c.length} d=${c.dModel}${c.ffn ? '' : ' noFFN'} s${c.seed}`;
}

/**
 * The id of a run: a readable prefix plus a hash of the full config. Changing any value
 * that affects the result (steps, lr, sampler options, …) gives a new id, so a resumed
 * grid never mixes runs of different configs.
 *
 * @param config the run's config.
 * @returns e.g. `shakespeare-boltzmann-T8-d64-ffn-s0-3f9a2c1b7d04`.
 * @throws BENCH_INVALID_JOB when a field that goes into the id is not what a config holds (a
 *   path separator, `..` or a NUL can never reach the id, whatever the config came from).
 */
export function runId(config: RunConfig): string {
  assertIdFields(config);
  const hash = createHash('sha256').update(canonicalJson(config)).digest('hex').slice(0, 12);
  const ffn = config.ffn ? 'ffn' : 'noffn';
  const column = config.column.replace(/[^a-z0-9.-]+/gi, '_');
  return `${runName(config).id}-${column}-T${config.length}-d${config.dModel}-${ffn}-s${config.seed}-${hash}`;
}

const isCount = (v: unknown): boolean => Number.isSafeInteger(v) && (v as number) >= 0;

/** The readable part of a run id is built only from fields checked here (the column is cleaned). */
function assertIdFields(config: RunConfig): void {
  const checks: readonly [keyof RunConfig, boolean][] = [
    ['dataset', ['shakespeare', 'brackets', 'mqar'].includes(config.dataset)],
    ['mode', config.dataset !== 'brackets' || ['balanced', 'prefix'].includes(config.mode)],
    ['column', typeof config.column === 'string'],
    ['length', isCount(config.length)],
    ['dModel', isCount(config.dModel)],
    ['seed', isCount(config.seed)],
    ['layers', config.layers === undefined || isCount(config.layers)],
  ];
  const bad = checks.find(([, ok]) => !ok)?.[0];
  if (bad !== undefined) {
    throw new BenchError(
      'BENCH_INVALID_JOB',
      `run config field ${bad} is ${echo(config[bad], 60)}, not a value a run can have`,
    );
  }
}

/**
 * Expands a command into its runs: the Cartesian product of the grid axes (with an experiment's
 * own, its `cells`). Softmax and
 * sigmoid runs carry no sampler (they never call one), so their ids do not depend on
 * `--sampler`.
 *
 * @param command a parsed bench command.
 * @returns one config per run, ids unique.
 * @example
 * expandGrid(parseBenchArgs(['shakespeare', '--lengths', '4', '--seeds', '0,1'])!).length; // 4 variants × 2 seeds = 8
 */
export function expandGrid(command: BenchCommand): RunConfig[] {
  const module = EXPERIMENTS[command.experiment];
  const columns = (seed: number): RunColumn[] =>
    module.columns?.(command, seed) ?? variantColumns(command);
  const runs: RunConfig[] = [];
  for (const dataset of module.datasets(command.grid)) {
    const modes = dataset === 'brackets' ? command.grid.modes : (['balanced'] as const);
    for (const mode of modes)
      for (const length of command.grid.lengths)
        for (const cell of module.cells?.(command.grid, length) ?? [{}])
          for (const dModel of command.grid.dModels)
            for (const ffn of command.grid.ffns)
              for (const seed of command.grid.seeds)
                for (const c of columns(seed))
                  runs.push({
                    ...runConfig(command, { dataset, mode, length, dModel, ffn, seed }, c),
                    ...cell,
                  });
  }
  return runs;
}

/** One column per variant: the sampled ones with `--sampler`, the others with none. */
function variantColumns(command: BenchCommand): RunColumn[] {
  return command.grid.variants.map((variant) => {
    const sampled = usesSampler(variant);
    return {
      column: variant,
      variant,
      sampler: sampled ? command.sampler : 'none',
      samplerOptions: sampled ? command.samplerOptions : {},
    };
  });
}

/** The grid point of one run. */
interface GridPoint {
  readonly dataset: DatasetName;
  readonly mode: BracketMode;
  readonly length: number;
  readonly dModel: number;
  readonly ffn: boolean;
  readonly seed: number;
}

/** The config of the run at one grid point and column. */
function runConfig(command: BenchCommand, p: GridPoint, c: RunColumn): RunConfig {
  const g = command.grid;
  const batchSize = g.tokensPerBatch === undefined ? g.batchSize : g.tokensPerBatch / p.length;
  const brackets = p.dataset === 'brackets';
  return {
    experiment: command.experiment,
    dataset: p.dataset,
    column: c.column,
    variant: c.variant,
    length: p.length,
    seed: p.seed,
    dModel: p.dModel,
    ffn: p.ffn,
    ffnHidden: g.ffnHidden ?? 4 * p.dModel,
    heads: command.heads,
    // Recorded only past one block, so the ids of one-block runs stay what they were.
    ...(command.layers > 1 ? { layers: command.layers } : {}),
    steps: g.steps,
    batchSize,
    lr: g.lr,
    minLrFraction: g.minLrFraction,
    weightDecay: g.weightDecay,
    clipNorm: g.clipNorm,
    beta: g.beta,
    jInit: g.jInit,
    evalEvery: g.evalEvery,
    evalWindows: evalWindowsFlag.of(p.dataset, g.evalWindows),
    mode: brackets ? p.mode : 'balanced',
    types: brackets ? g.types : 1,
    sampler: c.sampler,
    samplerOptions: c.samplerOptions,
    ...(c.sampler !== 'none' && command.couplingForm !== 'full'
      ? { couplingForm: command.couplingForm }
      : {}),
    ...(command.positions === 'none' ? { positions: 'none' as const } : {}),
    // Absent without early stopping, so the ids of such runs stay what they were.
    ...(g.earlyStop === undefined ? {} : { earlyStop: g.earlyStop }),
    ...EXPERIMENTS[command.experiment].runFields?.(g, batchSize),
  };
}
