// What each dataset asks of the experiments that train on it: the metric its runs report and the
// start-up check of its data. The experiment modules declare theirs from these (ExperimentModule's
// `metric` and `checkData`), so the bench reads them through the registry, never by a dataset's name.
import type { BenchCommand } from '../benchCommand.js';
import type { DatasetName, RunConfig } from '../types.js';
import type { RunMetric } from './types.js';

/** Tiny Shakespeare: perplexity, `exp` of the mean cross-entropy per character. */
export const PERPLEXITY: RunMetric = {
  name: 'perplexity',
  of: (e) => Math.exp(e.loss),
  better: 'lower',
};

/** Brackets and MQAR: the share of scored positions (closing brackets, queries) predicted right. */
export const ACCURACY: RunMetric = {
  name: 'accuracy',
  of: (e) => (e.count > 0 ? e.correct / e.count : Number.NaN),
  better: 'higher',
};

/** The metric of each dataset. */
export const DATASET_METRICS: Readonly<Record<DatasetName, RunMetric>> = {
  shakespeare: PERPLEXITY,
  brackets: ACCURACY,
  mqar: ACCURACY,
};

/** Tiny Shakespeare is there and intact (`--data`, else `$BOLTZMANN_DATA_DIR`, else the repo's copy). */
export async function checkCorpus(command: BenchCommand): Promise<void> {
  const { shakespeareCorpus } = await import('./taskData.js');
  await shakespeareCorpus(command.dataPath);
}

/** Every bracket task of the grid is possible (its length, mode and types). */
export async function checkBracketSpecs(configs: readonly RunConfig[]): Promise<void> {
  const { bracketTask } = await import('@boltzmann/datasets');
  const seen = new Set<string>();
  for (const c of configs) {
    const key = `${c.dataset}|${c.length}|${c.mode}|${c.types}`;
    if (c.dataset !== 'brackets' || seen.has(key)) continue;
    seen.add(key);
    bracketTask({ T: c.length, mode: c.mode, types: c.types as 1 | 2 | 3, seed: 0 });
  }
}
