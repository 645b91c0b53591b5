// A run's cap family: the runs of its config with another step cap. When the schedule does not
// depend on the cap (a constant rate: `--min-lr-fraction 1`), a run with a higher cap repeats a
// lower-capped one step by step, so raising a grid's cap never trains again what it trained:
// - a family run that early stopping ended below this cap is this run's result;
// - a family run's checkpoint at or below this cap, including the one a run keeps at its cap
//   (finishRun), is a state of this run, so it continues from there.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson } from '../results/canonicalJson.js';
import { parseCheckpoint } from '../results/checkpointFile.js';
import { checkpointProblem } from '../results/checkpointValidation.js';
import type { Checkpoint } from '../results/checkpointValidation.js';
import { readRecord } from '../results/runFiles.js';
import { runId } from './expandGrid.js';
import type { RunConfig } from '../types.js';
import type { RunRecord } from '../recordTypes.js';

/** Whether a run's trajectory is the same whatever its step cap: a constant rate after the warm-up. */
export const capIndependent = (config: RunConfig): boolean => config.minLrFraction === 1;

/** A config's text with its step cap left out: equal for one run at any cap. */
const capFreeKey = (config: RunConfig): string => canonicalJson({ ...config, steps: 0 });

/** Whether a and b are one run but for their step caps. */
export const sameButCap = (a: RunConfig, b: RunConfig): boolean => capFreeKey(a) === capFreeKey(b);

/** The family a record belongs to: its cap-free config when the run is cap-independent, else its own config. */
const familyKey = (config: RunConfig): string =>
  capIndependent(config) ? capFreeKey(config) : canonicalJson(config);

/**
 * The ids in `folder` (file names with `extension`) that can be config's family: the readable
 * part of the id is the same for every cap (only the hash tells them apart); config's own id left out.
 */
function familyIds(dir: string, folder: string, extension: string, config: RunConfig): string[] {
  const own = runId(config);
  const prefix = own.slice(0, own.lastIndexOf('-') + 1);
  const path = join(dir, folder);
  if (!existsSync(path)) return [];
  return readdirSync(path)
    .filter((f) => f.startsWith(prefix) && f.endsWith(extension))
    .map((f) => f.slice(0, -extension.length))
    .filter((id) => id !== own);
}

/**
 * The finished record of config's family that is config's own result: early stopping ended it
 * before config's cap (so config would have stopped there too), or null. Only for a cap-independent config.
 *
 * @throws BENCH_CORRUPT_CHECKPOINT for a corrupt record of the family (readRecord).
 */
export function stoppedFamilyRecord(dir: string, config: RunConfig): RunRecord | null {
  if (!capIndependent(config)) return null;
  for (const id of familyIds(dir, 'runs', '.json', config)) {
    const r = readRecord(dir, id);
    const at = r?.earlyStop?.stoppedAtStep;
    if (r && sameButCap(r.config, config) && typeof at === 'number' && at < config.steps) return r;
  }
  return null;
}

/**
 * The latest state of config's family that config can continue from: the checkpoint with the
 * highest step ≤ config's cap of a family run with a lower cap (one in training, or one kept at
 * its cap), or null. A file that cannot be read or does not check out is skipped with a warning.
 * Only for a cap-independent config.
 */
export function familyCheckpoint(
  dir: string,
  config: RunConfig,
  warn: (message: string) => void = () => undefined,
): Checkpoint | null {
  if (!capIndependent(config)) return null;
  let best: Checkpoint | null = null;
  for (const id of familyIds(dir, 'checkpoints', '.safetensors', config)) {
    const path = join(dir, 'checkpoints', `${id}.safetensors`);
    let c: Checkpoint;
    try {
      c = parseCheckpoint(readFileSync(path)) as Checkpoint;
    } catch (error) {
      warn(
        `checkpoint ${path} of this run's family is unreadable (${(error as Error).message}); not continued from`,
      );
      continue;
    }
    const problem = checkpointProblem(c, id, c.config);
    if (problem !== undefined) {
      warn(
        `checkpoint ${path} of this run's family cannot be used: ${problem}; not continued from`,
      );
      continue;
    }
    const fits =
      sameButCap(c.config, config) && c.config.steps < config.steps && c.step <= config.steps;
    if (fits && (best === null || c.step > best.step)) best = c;
  }
  return best;
}

/**
 * The records a report shows: of each cap family, the one with the highest cap (a run continued
 * to a higher cap replaces the one it continued). Runs whose schedule depends on the cap (a
 * cosine) are different runs at each cap, and all are shown.
 */
export function latestOfFamilies(records: readonly RunRecord[]): RunRecord[] {
  const latest = new Map<string, RunRecord>();
  for (const r of records) {
    const key = familyKey(r.config);
    const seen = latest.get(key);
    if (!seen || r.config.steps > seen.config.steps) latest.set(key, r);
  }
  return records.filter((r) => latest.get(familyKey(r.config)) === r);
}
