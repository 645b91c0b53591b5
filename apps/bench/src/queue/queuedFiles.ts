// The files a job carries through Redis: its checkpoint (job.data) and its `--save-models` model
// (the result), each the base64 text of its safetensors file. BullMQ stores job data and results
// as JSON, where a Buffer would become an array of numbers; base64 costs 4/3 of the bytes.
// Jobs enqueued by earlier releases carry a checkpoint as a JSON object: still staged and resumed.
import { writeFileAtomic } from '@boltzmann/ising-core/internal';
import { rmSync } from 'node:fs';
import { writeJsonAtomic } from '../results/atomicWrite.js';
import { decodeCheckpoint, encodeCheckpoint } from '../results/checkpointFile.js';
import { checkpointProblem } from '../results/checkpointValidation.js';
import type { Checkpoint } from '../results/checkpointValidation.js';
import { checkpointPath, legacyCheckpointPath, modelPath } from '../results/runFiles.js';
import { decodeSavedModel } from '../results/savedModelFile.js';
import { BenchError } from '../benchError.js';
import type { RunConfig } from '../types.js';

const base64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');
const fromBase64 = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'base64'));

/** A checkpoint as job.data carries it: the base64 of its safetensors file. */
export const checkpointForRedis = (checkpoint: Checkpoint): string =>
  base64(encodeCheckpoint(checkpoint));

/**
 * Writes a job's checkpoint into the scratch folder `dir` when it fits run `id` (a base64
 * safetensors file, or the JSON object of an earlier release), else removes any there.
 *
 * @returns why the checkpoint cannot be used, or undefined (also when there is none).
 */
export function stageJobCheckpoint(
  carried: string | Checkpoint | undefined,
  id: string,
  config: RunConfig,
  dir: string,
): string | undefined {
  rmSync(checkpointPath(dir, id), { force: true });
  rmSync(legacyCheckpointPath(dir, id), { force: true });
  if (carried === undefined) return undefined;
  let bytes: Uint8Array | undefined;
  let value: Checkpoint;
  try {
    bytes = typeof carried === 'string' ? fromBase64(carried) : undefined;
    value = bytes === undefined ? (carried as Checkpoint) : decodeCheckpoint(bytes);
  } catch (error) {
    return `it is unreadable (${(error as Error).message})`;
  }
  const problem = checkpointProblem(value, id, config);
  if (problem !== undefined) return problem;
  if (bytes !== undefined) writeFileAtomic(checkpointPath(dir, id), bytes);
  else writeJsonAtomic(legacyCheckpointPath(dir, id), value, true);
  return undefined;
}

/** A job result's model: the base64 of `models/<id>.safetensors`. */
export const modelForRedis = (bytes: Uint8Array): string => base64(bytes);

/**
 * Writes a job result's model as `models/<id>.safetensors` after checking it is a saved model of
 * that run; a JSON model of an earlier release's worker goes, as it is, to `models/<id>.json`.
 *
 * @throws BENCH_INVALID_JOB when the model is not a saved model of run `id`.
 */
export function writeJobModel(resultsDir: string, id: string, model: unknown): void {
  const path = modelPath(resultsDir, id);
  if (typeof model !== 'string') {
    writeJsonAtomic(path.replace(/\.safetensors$/, '.json'), model);
    return;
  }
  const bytes = fromBase64(model);
  let named: string | undefined;
  try {
    named = decodeSavedModel(bytes).id;
  } catch (error) {
    throw new BenchError(
      'BENCH_INVALID_JOB',
      `the model of run ${id} in its job's result is not a saved model (${(error as Error).message})`,
      { cause: error },
    );
  }
  if (named !== id)
    throw new BenchError(
      'BENCH_INVALID_JOB',
      `the model in the job's result of run ${id} names run ${JSON.stringify(named)}`,
    );
  writeFileAtomic(path, bytes);
}
