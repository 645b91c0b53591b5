import { ATTENTION_VARIANTS } from '@boltzmann/ising-core';
import type { BracketMode, Experiment, TrainingSettings, Variant } from './types.js';

/** Every attention variant, in the column order of the summary tables. */
export const ALL_VARIANTS: readonly Variant[] = ATTENTION_VARIANTS;

/** The name of a preset. */
export type PresetName = 'small' | 'paper';

/**
 * The grid axes and training settings of one experiment. Flags override single fields.
 * DQA grids use `samplerColumns` instead of `variants` (the variant is always `boltzmann`).
 */
export interface GridSpec extends TrainingSettings {
  readonly variants: readonly Variant[];
  readonly lengths: readonly number[];
  readonly seeds: readonly number[];
  readonly steps: number;
  readonly dModels: readonly number[];
  readonly ffns: readonly boolean[];
  readonly ffnHidden: number | null;
  readonly modes: readonly BracketMode[];
  readonly types: number;
  readonly checkpointEvery: number;
  readonly logEvery: number;
  /** Datasets of a DQA grid. */
  readonly datasets: readonly ('shakespeare' | 'brackets')[];
  /** Shots of the DQA columns (0 = exact output distribution); exact training is always added. */
  readonly shots: readonly number[];
}

const base = {
  variants: ALL_VARIANTS,
  seeds: [0],
  dModels: [64],
  ffns: [true],
  ffnHidden: null,
  modes: ['balanced'] as const,
  types: 1,
  batchSize: 64,
  lr: 3e-3,
  minLrFraction: 0.1,
  weightDecay: 0.01,
  clipNorm: 1,
  beta: 1,
  jInit: 0.02,
  evalWindows: 512,
  logEvery: 10,
  datasets: ['shakespeare', 'brackets'] as const,
  shots: [0, 256],
} satisfies Partial<GridSpec>;

/*
 * Step counts: the small presets are sized to finish in under 10 minutes on a 2-core
 * machine (measured, see README); the paper presets follow METHOD.md §5 (≥ 3 seeds, the
 * full axes) with step counts that are our choice, documented in the README.
 */
const PRESETS: Record<Experiment, Record<PresetName, GridSpec>> = {
  shakespeare: {
    small: { ...base, lengths: [4, 8], steps: 300, evalEvery: 100, checkpointEvery: 100 },
    paper: { ...base, lengths: [4, 8, 12], seeds: [0, 1, 2], steps: 3000, evalEvery: 250, checkpointEvery: 250 },
  },
  brackets: {
    small: { ...base, lengths: [8, 12, 16], dModels: [16], ffns: [false], steps: 300, evalEvery: 100, checkpointEvery: 100 },
    paper: {
      ...base,
      lengths: [8, 12, 16],
      seeds: [0, 1, 2],
      dModels: [16, 32, 64],
      ffns: [true, false],
      modes: ['balanced', 'prefix'],
      steps: 1500,
      evalEvery: 250,
      checkpointEvery: 250,
    },
  },
  dqa: {
    // Brackets in prefix mode: at T = 4 the balanced space has 2 strings (1 train, 1 test).
    small: { ...base, variants: ['boltzmann'], modes: ['prefix'], lengths: [4, 8], steps: 100, evalEvery: 50, checkpointEvery: 50, dModels: [32], ffns: [true] },
    paper: { ...base, variants: ['boltzmann'], modes: ['prefix'], lengths: [4, 8], seeds: [0, 1, 2], steps: 1000, evalEvery: 250, checkpointEvery: 100 },
  },
};

/**
 * The grid of a preset.
 *
 * @param experiment the CLI task.
 * @param preset `small` (default, quick) or `paper` (METHOD.md §5).
 * @returns the preset's grid spec (a fresh copy).
 */
export function presetGrid(experiment: Experiment, preset: PresetName): GridSpec {
  return { ...PRESETS[experiment][preset] };
}
