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
  // Sized for a hardware sampler on a free plan (`--sampler ibm|dwave|braket --preset hardware`):
  // T = 4, 4 sequences a step (16 problems: one IBM job a step), 60 steps, one evaluation on 16
  // windows at the end, 100 shots or reads a problem. On ibm_fez's recorded calibration its dry
  // run estimates ≈ 215 QPU seconds, 0.36 of the Open Plan's 600 s per 28 days (hardwarePreset.test.ts).
  hardware: {
    ...BASE_PRESET,
    variants: ['softmax', 'boltzmann'],
    lengths: [4],
    batchSize: 4,
    steps: 60,
    evalEvery: 60,
    evalWindows: 16,
    checkpointEvery: 10,
    samplerDefaults: { ibm: { shots: 100 }, dwave: { numReads: 100 }, braket: { shots: 100 } },
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
