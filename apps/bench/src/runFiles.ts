import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { BenchError } from './benchError.js';
import type { CurvePoint, RunConfig, RunRecord } from './types.js';

/** Path of a finished run's record. */
export const recordPath = (resultsDir: string, id: string): string => join(resultsDir, 'runs', `${id}.json`);
/** Path of an unfinished run's checkpoint. */
export const checkpointPath = (resultsDir: string, id: string): string => join(resultsDir, 'checkpoints', `${id}.json`);

/** Everything needed to continue a run exactly where it stopped. */
export interface Checkpoint {
  readonly version: 1;
  readonly id: string;
  readonly config: RunConfig;
  readonly step: number;
  readonly startedAt: string;
  readonly elapsedSeconds: number;
  readonly trainLoss: readonly CurvePoint[];
  readonly evalMetric: readonly CurvePoint[];
  readonly dataState: readonly number[];
  /** Model weights and optimizer state, as the engine saved them. */
  readonly engine: unknown;
}

/**
 * The finished record of a run, or null when there is none. A record whose id or config
 * does not match is treated as corrupt.
 *
 * @throws BENCH_CORRUPT_CHECKPOINT when the file exists but is not a record of this run.
 */
export function readRecord(resultsDir: string, id: string): RunRecord | null {
  const path = recordPath(resultsDir, id);
  if (!existsSync(path)) return null;
  let value: RunRecord;
  try {
    value = JSON.parse(readFileSync(path, 'utf8')) as RunRecord;
  } catch (error) {
    throw new BenchError('BENCH_CORRUPT_CHECKPOINT', `run record ${path} is not valid JSON; delete it to rerun that run`, { cause: error });
  }
  if (value?.id !== id || typeof value.finalMetric !== 'number') {
    throw new BenchError('BENCH_CORRUPT_CHECKPOINT', `run record ${path} does not belong to run ${id}; delete it to rerun that run`);
  }
  return value;
}

/**
 * The checkpoint of a run, or null. An unreadable checkpoint is reported and, when `discard`
 * (the default), deleted so the run restarts from step 0.
 */
export function readCheckpoint(resultsDir: string, id: string, warn: (msg: string) => void = () => undefined, discard = true): Checkpoint | null {
  const path = checkpointPath(resultsDir, id);
  if (!existsSync(path)) return null;
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as Checkpoint;
    if (value?.version !== 1 || value.id !== id || !Number.isInteger(value.step)) throw new Error('not a checkpoint of this run');
    return value;
  } catch (error) {
    warn(`checkpoint ${path} is unreadable (${(error as Error).message}); ${discard ? `restarting run ${id} from step 0` : 'a real run restarts it from step 0'}`);
    if (discard) rmSync(path, { force: true });
    return null;
  }
}

/** Removes a run's checkpoint (after its record is written). */
export function removeCheckpoint(resultsDir: string, id: string): void {
  rmSync(checkpointPath(resultsDir, id), { force: true });
}
