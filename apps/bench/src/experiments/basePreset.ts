// What every preset starts from (a leaf the experiment modules read).
import { ATTENTION_VARIANTS } from '@boltzmann/ising-core';
import type { GridSpec } from '../benchCommand.js';
import type { Variant } from '../types.js';

/** Every attention variant, in the column order of the summary tables. */
export const ALL_VARIANTS: readonly Variant[] = ATTENTION_VARIANTS;

/** The settings the shakespeare, brackets and dqa presets share (each overrides some). */
export const BASE_PRESET = {
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
