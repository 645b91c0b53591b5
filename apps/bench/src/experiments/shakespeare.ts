// `bench shakespeare`: character-level language modelling on Tiny Shakespeare (METHOD.md §5),
// perplexity on fixed validation windows; every attention variant is a column.
import type { GridSpec, PresetName } from '../benchCommand.js';
import { BASE_PRESET } from './basePreset.js';
import { PERPLEXITY, checkCorpus } from './datasetRules.js';
import { dataFlag, evalWindowsFlag, variantFlags } from './taskFlags.js';
import type { ExperimentModule } from './types.js';

/*
 * Step counts: the small presets are sized to finish in under 10 minutes on a 2-core
 * machine (measured, see README); the paper presets follow METHOD.md §5 (≥ 3 seeds, the
 * full axes) with step counts that are our choice, documented in the README.
 */
const presets: Partial<Record<PresetName, GridSpec>> = {
  small: { ...BASE_PRESET, lengths: [4, 8], steps: 300, evalEvery: 100, checkpointEvery: 100 },
  paper: {
    ...BASE_PRESET,
    lengths: [4, 8, 12],
    seeds: [0, 1, 2],
    steps: 3000,
    evalEvery: 250,
    checkpointEvery: 250,
  },
  // The long-context experiment (issue 13, docs/results/long-context): the paper's model at
  // T = 16 … 256, every length on the same 1,024 tokens per step (batch 64 at T = 16, 4 at 256);
  // 1,500 steps keep the whole experiment within a few hours (bench --dry-run).
  long: {
    ...BASE_PRESET,
    variants: ['softmax', 'sigmoid', 'boltzmann'],
    lengths: [16, 32, 64, 128, 256],
    seeds: [0, 1, 2],
    tokensPerBatch: 1024,
    steps: 1500,
    evalEvery: 500,
    evalWindows: 256,
    checkpointEvery: 250,
  },
};

/** `bench shakespeare`: its presets, its flags (`--data`, `--eval-windows`) and its one dataset. */
export const SHAKESPEARE: ExperimentModule = {
  name: 'shakespeare',
  presets,
  addFlags: (cmd) => dataFlag.add(evalWindowsFlag.add(variantFlags.add(cmd, presets.small))),
  applyFlags: (read, grid) => {
    variantFlags.apply(read, grid);
    evalWindowsFlag.apply(read, grid);
    return { dataPath: dataFlag.read(read) };
  },
  datasets: () => ['shakespeare'],
  metric: () => PERPLEXITY,
  checkData: checkCorpus,
};
