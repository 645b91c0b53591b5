/*
 * `bench collect <task> [the grid's flags] --queue URL`: the grid command whose finished runs are
 * written from the queue, with nothing enqueued. Each task is a nested command with that grid
 * command's own flags, so `bench collect shakespeare --help` lists them.
 */
import { BenchError } from '../benchError.js';
import type { CommandSpec } from './commandSpec.js';
import type { BenchCommand } from '../benchCommand.js';
import { defineGridFlags, gridCommand, gridSecrets } from './grid.js';
import { EXPERIMENT_NAMES } from '../experiments/registry.js';
import type { Experiment } from '../types.js';

/** The command `bench collect <task> … --queue URL`. */
export const collectCommand: CommandSpec<BenchCommand> = {
  name: 'collect',
  summary: 'write the finished runs of a queued grid',
  description:
    'Writes the finished runs of a grid enqueued with --queue into its results folder, with its ' +
    'summary, plots and report; exits 1 with BENCH_GRID_INCOMPLETE while runs are still waiting ' +
    "or active. Give the task and the grid's own flags, --queue <url> included.",
  define: (cmd) => {
    cmd.usage("<task> [the grid's flags] --queue <url>");
    for (const task of EXPERIMENT_NAMES) {
      const sub = cmd
        .command(task)
        .description(`collect a ${task} grid: the flags of \`bench ${task}\`, --queue required`);
      defineGridFlags(sub, task);
    }
  },
  parse: (options, [task]) => {
    const command = gridCommand(task as Experiment).parse(options, []);
    if (!command.queue)
      throw new BenchError('BENCH_INVALID_OPTION', 'bench collect needs --queue <url>');
    return { ...command, collect: true };
  },
  run: async (command, io) => {
    const { runCommand } = await import('./gridRun.js');
    return runCommand(command, io);
  },
  secrets: gridSecrets,
};
