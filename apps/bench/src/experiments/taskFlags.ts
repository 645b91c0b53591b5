// The flags more than one experiment takes but not every one (the others do not list them): each
// declared and parsed here once, composed by the experiment modules that take it.
import type { Command } from 'commander';
import { choiceItem, parseInteger, parseList } from '../parseValues.js';
import type { GridSpec } from '../benchCommand.js';
import { userPath } from '../paths.js';
import { addSamplerOptionFlags } from '../samplerOptionFlags.js';
import type { BracketMode, DatasetName, RunConfig, Variant } from '../types.js';
import { ALL_VARIANTS } from './basePreset.js';
import type { MutableGrid, ReadFlag } from './types.js';

/** `--data`: the tasks that train on Tiny Shakespeare. */
export const dataFlag = {
  add: (cmd: Command): Command => cmd.option('--data <path>', 'path of Tiny Shakespeare input.txt'),
  /** The corpus path it gives (absolute), or undefined for the datasets package's lookup. */
  read: (read: ReadFlag): string | undefined => {
    const data = read('data');
    return data ? userPath(data) : undefined;
  },
};

/**
 * `--eval-windows`: the fixed validation windows of a Tiny Shakespeare run, and the rule of what a
 * run config records for them (one home, read by the grid expansion and a queued job's schema).
 */
export const evalWindowsFlag = {
  add: (cmd: Command): Command =>
    cmd.option('--eval-windows <n>', 'fixed validation windows of a Tiny Shakespeare run'),
  apply: (read: ReadFlag, g: MutableGrid): void => {
    const raw = read('evalWindows');
    if (raw) g.evalWindows = parseInteger('--eval-windows', raw, 1);
  },
  /**
   * What a run of `dataset` records as its evaluation windows: the grid's on Tiny Shakespeare; 0
   * on brackets and mqar, which evaluate on their tasks' own test sets (0 is part of their run ids).
   */
  of: (dataset: DatasetName, requested: number): number =>
    dataset === 'shakespeare' ? requested : 0,
  /** Why `config.evalWindows` cannot be its dataset's (a queued job), or undefined when it can. */
  problem: (config: RunConfig): string | undefined => {
    const n = config.evalWindows;
    if (config.dataset === 'shakespeare' && !(Number.isSafeInteger(n) && n >= 1))
      return `config.evalWindows must be at least 1 on shakespeare, got ${n}`;
    if (config.dataset === 'brackets' && n !== 0)
      return `config.evalWindows must be 0 on brackets (it evaluates on its test strings), got ${n}`;
    if (config.dataset === 'mqar' && n !== 0)
      return `config.evalWindows must be 0 on mqar (it evaluates on its test sequences), got ${n}`;
    return undefined;
  },
};

/** `--mode` and `--types`: the bracket strings of a brackets run. */
export const bracketFlags = {
  add: (cmd: Command): Command =>
    cmd
      .option('--mode <list>', 'bracket string mode(s): balanced, prefix')
      .option('--types <n>', 'bracket types (1-3)'),
  apply: (read: ReadFlag, g: MutableGrid): void => {
    const mode = read('mode');
    if (mode)
      g.modes = parseList(
        '--mode',
        mode,
        choiceItem<BracketMode>(['balanced', 'prefix']),
        'balanced/prefix',
      );
    const types = read('types');
    if (types) g.types = parseInteger('--types', types, 1, 3);
  },
};

/**
 * `--variants`, `--sampler`, `--sampler-options` and `--sampler-option`: the tasks whose columns are attention
 * variants (the sampled ones with the chosen sampler). toCommand reads the sampler flags.
 */
export const variantFlags = {
  /** @param small the task's default preset, whose sampler the help names. */
  add: (cmd: Command, small: GridSpec | undefined): Command =>
    addSamplerOptionFlags(
      cmd
        .option('--variants <list>', `attention variants (${ALL_VARIANTS.join(',')})`)
        .option(
          '--sampler <name>',
          `sampler plugin used by boltzmann/coupling runs (default: "${small?.sampler ?? 'exact'}")`,
        ),
      'options for the sampler',
      '{}',
    ),
  apply: (read: ReadFlag, g: MutableGrid): void => {
    const variants = read('variants');
    if (variants)
      g.variants = parseList(
        '--variants',
        variants,
        choiceItem<Variant>(ALL_VARIANTS),
        ALL_VARIANTS.join('/'),
      );
  },
};
