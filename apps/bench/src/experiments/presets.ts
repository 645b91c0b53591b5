import { echo } from '@boltzmann/ising-core/internal';
import { BenchError } from '../benchError.js';
import type { GridSpec, PresetName } from '../benchCommand.js';
import type { Experiment } from '../types.js';
import { EXPERIMENTS } from './registry.js';

// The presets of every experiment, looked up by name; each experiment module declares its own.
export { ALL_VARIANTS } from './basePreset.js';
export type { PresetName } from '../benchCommand.js';

/** The preset names of a task (`small` first, the default). */
export function presetNames(experiment: Experiment): PresetName[] {
  return Object.keys(EXPERIMENTS[experiment].presets).sort((a, b) =>
    a === 'small' ? -1 : b === 'small' ? 1 : 0,
  ) as PresetName[];
}

/**
 * The grid of a preset.
 *
 * @param experiment the CLI task.
 * @param preset `small` (default, quick), `paper` (METHOD.md §5), `long` (issue 13); gpt: `small`, `baby` (METHOD.md §7) or `long`.
 * @returns the preset's grid spec (a fresh copy).
 * @throws BENCH_INVALID_OPTION when the task has no such preset.
 */
export function presetGrid(experiment: Experiment, preset: PresetName): GridSpec {
  const spec = EXPERIMENTS[experiment].presets[preset];
  if (!spec)
    throw new BenchError(
      'BENCH_INVALID_OPTION',
      `${experiment} has no preset ${echo(preset)}: use ${presetNames(experiment).join(' or ')}`,
    );
  return { ...spec };
}
