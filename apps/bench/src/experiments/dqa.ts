// `bench dqa`: Boltzmann attention trained with the digitized quantum annealer (dqa-sim) as its
// sampler, against exact training, on both datasets; then dqa-sim's fidelity sweep.
import type { Command } from 'commander';
import type { ExperimentSettings, GridSpec, PresetName } from '../benchCommand.js';
import { choiceItem, intItem, parseJsonObject, parseList, positiveItem } from '../parseValues.js';
import { BASE_PRESET } from './basePreset.js';
import { DATASET_METRICS, checkBracketSpecs, checkCorpus } from './datasetRules.js';
import { bracketFlags, dataFlag, evalWindowsFlag } from './taskFlags.js';
import type { ExperimentModule, MutableGrid, ReadFlag, RunColumn } from './types.js';

/** The sweep axes when `--sweep-taus` / `--sweep-steps` are not given. */
const SWEEP_TAUS = '1,2,4,8,16,32';
const SWEEP_STEPS = '8,16,32,64,128';

const presets: Partial<Record<PresetName, GridSpec>> = {
  // Brackets in prefix mode: at T = 4 the balanced space has 2 strings (1 train, 1 test).
  small: {
    ...BASE_PRESET,
    variants: ['boltzmann'],
    modes: ['prefix'],
    lengths: [4, 8],
    steps: 100,
    evalEvery: 50,
    checkpointEvery: 50,
    dModels: [32],
    ffns: [true],
  },
  paper: {
    ...BASE_PRESET,
    variants: ['boltzmann'],
    modes: ['prefix'],
    lengths: [4, 8],
    seeds: [0, 1, 2],
    steps: 1000,
    evalEvery: 250,
    checkpointEvery: 100,
  },
};

/** The label of a DQA column for a shot count (`0` = the exact output distribution). */
export function dqaColumn(shots: number): string {
  return shots === 0 ? 'dqa-dist' : `dqa-${shots}shots`;
}

function addDqaFlags(cmd: Command): Command {
  return cmd
    .option('--datasets <list>', 'datasets: shakespeare,brackets')
    .option('--shots <list>', 'DQA shots per column (0 = exact output distribution), e.g. 0,256')
    .option(
      '--dqa-options <json>',
      'JSON options for the dqa sampler (tau, steps, order, schedule, calibrate)',
      '{}',
    )
    .option('--sweep-taus <list>', 'fidelity sweep: anneal times τ', SWEEP_TAUS)
    .option('--sweep-steps <list>', 'fidelity sweep: Trotter steps', SWEEP_STEPS);
}

function applyDqaFlags(read: ReadFlag, grid: MutableGrid): ExperimentSettings {
  const datasets = read('datasets');
  if (datasets)
    grid.datasets = parseList(
      '--datasets',
      datasets,
      choiceItem(['shakespeare', 'brackets'] as const),
      'shakespeare/brackets',
    );
  const shots = read('shots');
  if (shots) grid.shots = parseList('--shots', shots, intItem(0), 'non-negative integers');
  return {
    dqa: {
      options: parseJsonObject('--dqa-options', read('dqaOptions') ?? '{}'),
      sweepTaus: parseList(
        '--sweep-taus',
        read('sweepTaus') ?? SWEEP_TAUS,
        positiveItem,
        'positive numbers',
      ),
      sweepSteps: parseList(
        '--sweep-steps',
        read('sweepSteps') ?? SWEEP_STEPS,
        intItem(1),
        'positive integers',
      ),
    },
  };
}

/**
 * `bench dqa`: on each dataset, exact Boltzmann training and one `dqa` sampler column per
 * `--shots` (the variant is always boltzmann, so it takes no `--variants`, `--sampler` or
 * `--sampler-options`); after the grid, the fidelity sweep (fidelity.json), which its report plots.
 */
export const DQA: ExperimentModule = {
  name: 'dqa',
  presets,
  addFlags: (cmd) => addDqaFlags(bracketFlags.add(dataFlag.add(evalWindowsFlag.add(cmd)))),
  applyFlags: (read, grid) => {
    evalWindowsFlag.apply(read, grid);
    bracketFlags.apply(read, grid);
    return { dataPath: dataFlag.read(read), ...applyDqaFlags(read, grid) };
  },
  modelAxesInRows: true,
  datasets: (grid) => [...grid.datasets],
  metric: (config) => DATASET_METRICS[config.dataset],
  checkData: async (command, configs) => {
    if (configs.some((c) => c.dataset === 'shakespeare')) await checkCorpus(command);
    await checkBracketSpecs(configs);
  },
  columns: (command, seed): RunColumn[] => [
    { column: 'exact', variant: 'boltzmann', sampler: 'exact', samplerOptions: {} },
    ...command.grid.shots.map((shots) => ({
      column: dqaColumn(shots),
      variant: 'boltzmann' as const,
      sampler: 'dqa',
      samplerOptions: { ...command.dqa?.options, shots, seed },
    })),
  ],
  afterGrid: async (command, out) => {
    if (!command.dqa) return {};
    const { runFidelitySweep } = await import('./dqaFidelity.js');
    return { fidelity: await runFidelitySweep(command, command.dqa, out) };
  },
  report: async () => (await import('./dqaReport.js')).DQA_REPORT,
};
