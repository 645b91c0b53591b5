import type { Command } from 'commander';
import { toCommand } from './gridOptions.js';
import type { BenchCommand, Raw } from '../benchCommand.js';
import { addGridOptions } from './gridFlags.js';
import type { CommandSpec } from './commandSpec.js';
import { queueSecrets } from '../queue/queueUrl.js';
import { EXPERIMENT_NAMES } from '../experiments/registry.js';
import type { Experiment } from '../types.js';

// The grid commands (`bench shakespeare|brackets|dqa|gpt|recall`): their flags (gridFlags.ts), how the
// parsed flags become a BenchCommand (gridOptions.ts), and the run (gridRun.ts, loaded lazily).
// What a command is: the root leaf benchCommand.ts.

const SUMMARIES: Readonly<Record<Experiment, string>> = {
  shakespeare: 'run the Tiny Shakespeare grid (the main bench)',
  brackets: 'run the bracket-matching grid',
  dqa: 'run the simulated-anneal grid and its fidelity sweep',
  gpt: 'run the nanoGPT-protocol grid (multi-layer GPT)',
  recall: 'run the multi-query associative recall grid (MQAR, Zoology)',
};

/** Declares the flags of one grid command: the common ones, then the experiment's own. */
export function defineGridFlags(cmd: Command, experiment: Experiment): void {
  addGridOptions(cmd, experiment);
}

/** The secrets of a grid command: the credentials of `--sampler-options` and the queue's password. */
export function gridSecrets(command: BenchCommand): Readonly<Record<string, unknown>> {
  return { ...command.samplerSecrets, ...queueSecrets(command.queue) };
}

/**
 * The command `bench <experiment>`: train the experiment's grid (locally or on a queue), then
 * write its summary, plots and report.
 *
 * @example
 * gridCommand('brackets').name; // 'brackets'
 */
export function gridCommand(experiment: Experiment): CommandSpec<BenchCommand> {
  return {
    name: experiment,
    summary: SUMMARIES[experiment],
    description: `${SUMMARIES[experiment]}, then write its summary, plots and report (README.md, Flags)`,
    define: (cmd) => defineGridFlags(cmd, experiment),
    parse: (options) => toCommand(experiment, options as Raw),
    run: async (command, io) => {
      // Loaded after parsing so that --help and flag errors never wait for (or depend on) TF.js.
      const { runCommand } = await import('./gridRun.js');
      return runCommand(command, io);
    },
    secrets: gridSecrets,
  };
}

/** The four grid commands, in the order `bench --help` lists them. */
export const GRID_COMMANDS: readonly CommandSpec<BenchCommand>[] =
  EXPERIMENT_NAMES.map(gridCommand);
