/*
 * The one list of the bench's commands, in the order `bench --help` lists them. Each entry is
 * the command's own CommandSpec (commands/<name>.ts); program.ts declares them all and main.ts
 * runs the one named. The command modules are light: each imports its heavy parts when it runs.
 */
import { collectCommand } from '../commands/collect.js';
import { exportCommand } from '../commands/export.js';
import { extrapolateCommand } from '../commands/extrapolate.js';
import { GRID_COMMANDS } from '../commands/grid.js';
import { longContextCommand } from '../commands/longContext.js';
import { reportCommand } from '../commands/report.js';
import { sampleCommand } from '../commands/sample.js';
import { samplersCommand } from '../commands/samplers.js';
import { statusCommand } from '../commands/status.js';
import { workerCommand } from '../commands/worker.js';
import type { AnyCommandSpec } from '../commands/commandSpec.js';

/** Every bench command, in the order `bench --help` lists them. */
export const BENCH_COMMANDS: readonly AnyCommandSpec[] = [
  ...GRID_COMMANDS,
  longContextCommand,
  sampleCommand,
  extrapolateCommand,
  reportCommand,
  exportCommand,
  samplersCommand,
  workerCommand,
  statusCommand,
  collectCommand,
];
