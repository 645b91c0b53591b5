import { echo } from '@boltzmann/ising-core/internal';
import { existsSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { parseCheckpoint } from './checkpointFile.js';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { BenchError } from '../benchError.js';
import { checkpointProblem } from './checkpointValidation.js';
import { earlyStopRecordProblem } from './earlyStopChecks.js';
import { environmentProblem } from './environment.js';
import type { Checkpoint } from './checkpointValidation.js';
import type { RunConfig } from '../types.js';
import type { RunRecord } from '../recordTypes.js';

export type { Checkpoint } from './checkpointValidation.js';

/** A run id as {@link runId} makes it: a file name, never a path. */
const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/** The extensions of run files: JSON documents, JSON Lines (`metrics/<id>.jsonl`), safetensors (models, checkpoints). */
type RunFileExtension = '.json' | '.jsonl' | '.safetensors';

/**
 * `<resultsDir>/<folder>/<id><extension>` (default `.json`), checked twice: the id must be a
 * plain file name (no path separator, `..`, NUL), and the joined path must resolve inside
 * `resultsDir`. Every run file the bench writes or reads goes through here.
 *
 * @throws BENCH_UNSAFE_PATH naming the id.
 */
function runFilePath(
  resultsDir: string,
  folder: string,
  id: string,
  extension: RunFileExtension = '.json',
): string {
  const root = resolve(resultsDir);
  const path = resolve(root, folder, `${id}${extension}`);
  const rel = relative(root, path);
  if (!RUN_ID.test(id) || id.includes('..') || rel.startsWith('..') || isAbsolute(rel)) {
    throw new BenchError(
      'BENCH_UNSAFE_PATH',
      `run id ${echo(id, 80)} is not a plain file name inside the results folder ${echo(root, 200)}`,
    );
  }
  return path;
}

/** Path of a finished run's record. */
export const recordPath = (resultsDir: string, id: string): string =>
  runFilePath(resultsDir, 'runs', id);
/** Path of a finished run's trained model (`--save-models`), a safetensors file (results/savedModelFile.ts). */
export const modelPath = (resultsDir: string, id: string): string =>
  runFilePath(resultsDir, 'models', id, '.safetensors');
/** Path of a run's metrics, one JSON object a line, written as it trains (tracking/metricsFile.ts). */
export const metricsPath = (resultsDir: string, id: string): string =>
  runFilePath(resultsDir, 'metrics', id, '.jsonl');
/** Path of an unfinished run's checkpoint, a safetensors file (results/checkpointFile.ts). */
export const checkpointPath = (resultsDir: string, id: string): string =>
  runFilePath(resultsDir, 'checkpoints', id, '.safetensors');
/** Path of a checkpoint as earlier releases wrote it (JSON): still read, and resumed. */
export const legacyCheckpointPath = (resultsDir: string, id: string): string =>
  runFilePath(resultsDir, 'checkpoints', id);

/** The run's checkpoint file: the safetensors one, else a JSON one of an earlier release, else undefined. */
function existingCheckpoint(resultsDir: string, id: string): string | undefined {
  return [checkpointPath(resultsDir, id), legacyCheckpointPath(resultsDir, id)].find((p) =>
    existsSync(p),
  );
}

/**
 * Sets a checkpoint that cannot be used aside (`<id>.safetensors.rejected`, or `<id>.json.rejected`
 * for a JSON one; replacing an older one) so the run restarts from step 0 while the file stays
 * there to inspect.
 *
 * @returns the path it was moved to.
 */
export function rejectCheckpoint(resultsDir: string, id: string): string {
  const path = existingCheckpoint(resultsDir, id) ?? checkpointPath(resultsDir, id);
  const aside = `${path}.rejected`;
  try {
    renameSync(path, aside);
  } catch {
    rmSync(path, { force: true });
  }
  return aside;
}

/**
 * The finished record of a run, or null when there is none. A record whose id or config
 * does not match is treated as corrupt.
 *
 * @throws BENCH_CORRUPT_CHECKPOINT when the file exists but is not a record of this run, or its
 *   `earlyStop` does not fit it (see `earlyStopRecordProblem`), or its `environment` is not one
 *   (`environmentProblem`).
 */
export function readRecord(resultsDir: string, id: string): RunRecord | null {
  const path = recordPath(resultsDir, id);
  if (!existsSync(path)) return null;
  let value: RunRecord;
  try {
    value = JSON.parse(readFileSync(path, 'utf8')) as RunRecord;
  } catch (error) {
    throw new BenchError(
      'BENCH_CORRUPT_CHECKPOINT',
      `run record ${path} is not valid JSON; delete it to rerun that run`,
      { cause: error },
    );
  }
  if (value?.id !== id || typeof value.finalMetric !== 'number') {
    throw new BenchError(
      'BENCH_CORRUPT_CHECKPOINT',
      `run record ${path} does not belong to run ${id}; delete it to rerun that run`,
    );
  }
  const problem = earlyStopRecordProblem(value) ?? environmentProblem(value);
  if (problem !== undefined)
    throw new BenchError(
      'BENCH_CORRUPT_CHECKPOINT',
      `run record ${path}: ${problem}; delete it to rerun that run`,
    );
  return value;
}

/** Every finished run record under `dir/runs` (validated; a corrupt one is an error naming it). */
export function readRecords(dir: string): RunRecord[] {
  if (!existsSync(dir))
    throw new BenchError('BENCH_NO_RESULTS', `results folder ${dir} does not exist`);
  // A folder whose runs have not finished yet has no runs/ folder: it adds nothing.
  const runs = join(dir, 'runs');
  const files = existsSync(runs) ? readdirSync(runs).filter((f) => f.endsWith('.json')) : [];
  return files.map((f) => readRecord(dir, f.slice(0, -'.json'.length))!);
}

/**
 * The checkpoint of a run, or null. A checkpoint that is unreadable or does not fit the run
 * (see {@link checkpointProblem}) is never trusted: it is reported by path and, when `discard`
 * (the default), set aside so the run restarts from step 0.
 *
 * @param config the run's config; when given, the checkpoint must match it and its step range.
 */
export function readCheckpoint(
  resultsDir: string,
  id: string,
  warn: (msg: string) => void = () => undefined,
  discard = true,
  config?: RunConfig,
): Checkpoint | null {
  const path = existingCheckpoint(resultsDir, id);
  if (path === undefined) return null;
  let problem: string | undefined;
  let value: Checkpoint | undefined;
  try {
    value = parseCheckpoint(readFileSync(path)) as Checkpoint;
    problem = checkpointProblem(value, id, config);
  } catch (error) {
    problem = `it is unreadable (${(error as Error).message})`;
  }
  if (problem === undefined) return value!;
  const fate = discard
    ? `set aside as ${rejectCheckpoint(resultsDir, id)}; run ${id} restarts from step 0`
    : 'a real run restarts it from step 0';
  warn(`checkpoint ${path} cannot be used: ${problem}; ${fate}`);
  return null;
}

/** Removes a run's checkpoint, in either form (after its record is written). */
export function removeCheckpoint(resultsDir: string, id: string): void {
  rmSync(checkpointPath(resultsDir, id), { force: true });
  rmSync(legacyCheckpointPath(resultsDir, id), { force: true });
}
