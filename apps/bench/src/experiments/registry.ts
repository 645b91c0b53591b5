// The typed table of experiments: what the bench reads instead of branching on a task's name.
import { BenchError } from '../benchError.js';
import type { Experiment } from '../types.js';
import { BRACKETS } from './brackets.js';
import { DQA } from './dqa.js';
import { GPT } from './gpt.js';
import { RECALL } from './recall.js';
import { SHAKESPEARE } from './shakespeare.js';
import type { ExperimentModule, ExperimentReport } from './types.js';

/** Every experiment (`bench <name>` grid command), by name. */
export const EXPERIMENTS: Readonly<Record<Experiment, ExperimentModule>> = {
  shakespeare: SHAKESPEARE,
  brackets: BRACKETS,
  dqa: DQA,
  gpt: GPT,
  recall: RECALL,
};

/** The experiment names, in the order the CLI lists them (one list: types.ts). */
export { EXPERIMENT_NAMES } from '../types.js';

/**
 * The module of an experiment named by a run config or a results folder.
 *
 * @throws BENCH_INVALID_JOB when `name` is no experiment (a config from an untrusted source).
 */
export function experimentOf(name: Experiment): ExperimentModule {
  const module = Object.hasOwn(EXPERIMENTS, name) ? EXPERIMENTS[name] : undefined;
  if (!module) throw new BenchError('BENCH_INVALID_JOB', `no experiment ${JSON.stringify(name)}`);
  return module;
}

/**
 * What an experiment adds to its report, for writeReport: its own sections (loaded on demand:
 * plotting is heavy for a training worker) and whether its summary rows name the model axes.
 *
 * @example
 * await writeReport(dir, 'gpt', records, { sections: await experimentReport('gpt') });
 */
export async function experimentReport(name: Experiment): Promise<ExperimentReport> {
  const module = experimentOf(name);
  return { ...((await module.report?.()) ?? {}), modelAxesInRows: module.modelAxesInRows === true };
}
