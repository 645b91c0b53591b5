import { createHash } from 'node:crypto';
import { echo } from '@boltzmann/ising-core';
import { BenchError } from '../benchError.js';
import type { BenchCommand } from '../commands/grid.js';
import type { DatasetName, RunConfig } from '../types.js';

/** A short human label of a run. */
export function runLabel(c: RunConfig): string {
  const task =
    c.experiment === 'gpt'
      ? `gpt L${c.layers ?? 1}`
      : c.dataset === 'brackets'
        ? `brackets/${c.mode}`
        : 'shakespeare';
  return `${task} ${c.column} T=${c.length} d=${c.dModel}${c.ffn ? '' : ' noFFN'} s${c.seed}`;
}

/** JSON with object keys sorted, so equal configs hash equally whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
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
  const mode = config.dataset === 'brackets' ? `-${config.mode}` : '';
  const column = config.column.replace(/[^a-z0-9.-]+/gi, '_');
  const task = config.experiment === 'gpt' ? `gpt-L${config.layers ?? 1}` : config.dataset;
  return `${task}${mode}-${column}-T${config.length}-d${config.dModel}-${ffn}-s${config.seed}-${hash}`;
}

const isCount = (v: unknown): boolean => Number.isSafeInteger(v) && (v as number) >= 0;

/** The readable part of a run id is built only from fields checked here (the column is cleaned). */
function assertIdFields(config: RunConfig): void {
  const checks: readonly [keyof RunConfig, boolean][] = [
    ['dataset', config.dataset === 'shakespeare' || config.dataset === 'brackets'],
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

/** The label of a DQA column for a shot count (`0` = the exact output distribution). */
export function dqaColumn(shots: number): string {
  return shots === 0 ? 'dqa-dist' : `dqa-${shots}shots`;
}

/**
 * Expands a command into its runs: the Cartesian product of the grid axes. Softmax and
 * sigmoid runs carry no sampler (they never call one), so their ids do not depend on
 * `--sampler`.
 *
 * @param command a parsed bench command.
 * @returns one config per run, ids unique.
 * @example
 * expandGrid(parseBenchArgs(['shakespeare', '--lengths', '4', '--seeds', '0,1'])!).length; // 4 variants × 2 seeds = 8
 */
export function expandGrid(command: BenchCommand): RunConfig[] {
  const g = command.grid;
  const runs: RunConfig[] = [];
  const datasets: DatasetName[] =
    command.experiment === 'dqa'
      ? [...g.datasets]
      : command.experiment === 'gpt'
        ? ['shakespeare']
        : [command.experiment];
  type Column = {
    column: string;
    variant: RunConfig['variant'];
    sampler: string;
    samplerOptions: Record<string, unknown>;
  };
  const columns = (seed: number): Column[] => {
    if (command.experiment === 'dqa') {
      return [
        { column: 'exact', variant: 'boltzmann', sampler: 'exact', samplerOptions: {} },
        ...g.shots.map((shots) => ({
          column: dqaColumn(shots),
          variant: 'boltzmann' as const,
          sampler: 'dqa',
          samplerOptions: { ...command.dqaOptions, shots, seed },
        })),
      ];
    }
    return g.variants.map((variant) => {
      const usesSampler = variant === 'boltzmann' || variant === 'coupling';
      return {
        column: variant,
        variant,
        sampler: usesSampler ? command.sampler : 'none',
        samplerOptions: usesSampler ? command.samplerOptions : {},
      };
    });
  };
  const batchOf = (length: number): number =>
    g.tokensPerBatch === undefined ? g.batchSize : g.tokensPerBatch / length;
  for (const dataset of datasets) {
    const modes = dataset === 'brackets' ? g.modes : (['balanced'] as const);
    for (const mode of modes)
      for (const length of g.lengths)
        for (const dModel of g.dModels)
          for (const ffn of g.ffns)
            for (const seed of g.seeds)
              for (const c of columns(seed)) {
                runs.push({
                  experiment: command.experiment,
                  dataset,
                  column: c.column,
                  variant: c.variant,
                  length,
                  seed,
                  dModel,
                  ffn,
                  ffnHidden: g.ffnHidden ?? 4 * dModel,
                  heads: command.heads,
                  // Recorded only past one block, so the ids of one-block runs stay what they were.
                  ...(command.layers > 1 ? { layers: command.layers } : {}),
                  steps: g.steps,
                  batchSize: batchOf(length),
                  lr: g.lr,
                  minLrFraction: g.minLrFraction,
                  weightDecay: g.weightDecay,
                  clipNorm: g.clipNorm,
                  beta: g.beta,
                  jInit: g.jInit,
                  evalEvery: g.evalEvery,
                  // gpt: the rows of one evaluation (its random batches of each split).
                  evalWindows: g.gpt
                    ? 2 * g.gpt.evalBatches * batchOf(length)
                    : dataset === 'shakespeare'
                      ? g.evalWindows
                      : 0,
                  mode: dataset === 'brackets' ? mode : 'balanced',
                  types: dataset === 'brackets' ? g.types : 1,
                  sampler: c.sampler,
                  samplerOptions: c.samplerOptions,
                  ...(c.sampler !== 'none' && command.couplingForm !== 'full'
                    ? { couplingForm: command.couplingForm }
                    : {}),
                  ...(command.positions === 'none' ? { positions: 'none' as const } : {}),
                  ...(g.gpt ? { gpt: g.gpt } : {}),
                });
              }
  }
  return runs;
}
