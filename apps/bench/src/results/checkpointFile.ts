// A checkpoint as a safetensors file: the model's weights and the optimizer's moments as tensors,
// everything else (step, curves, data state, config, early stop, …) as JSON in `__metadata__`.
// Checkpoints written as JSON before still read (the bytes tell the two forms apart). Every
// number comes back bit for bit: a tensor is F32 only when all its values are float32 (the
// engine trainer's moments, every weight), else F64 (the tfjs trainer keeps float64 moments).
import { decodeSafetensors, encodeSafetensors, looksLikeSafetensors } from '@boltzmann/attention';
import type {
  SafetensorsDtype,
  SafetensorsTensorInput,
  TrainerState,
  TransformerJSON,
} from '@boltzmann/attention';
import { BenchError } from '../benchError.js';
import type { Checkpoint } from './checkpointValidation.js';

const FORMAT = 'boltzmann-bench/checkpoint';
const MODEL = 'model/';
const MOMENT = /^trainer\/(.+)\/(m|v)$/;

/** The model and optimizer state a checkpoint carries (`RunModelState` of training/runModel.ts). */
interface ModelState {
  readonly model: TransformerJSON;
  readonly trainer: TrainerState;
}

/** F32 when every value is a float32 (so nothing is rounded), else F64. */
function exactDtype(data: ArrayLike<number>): SafetensorsDtype {
  for (let i = 0; i < data.length; i++)
    if (!Object.is(Math.fround(data[i]!), data[i])) return 'F64';
  return 'F32';
}

const tensor = (shape: readonly number[], data: ArrayLike<number>): SafetensorsTensorInput => ({
  dtype: exactDtype(data),
  shape,
  data,
});

/**
 * A checkpoint as safetensors: `model/<weight>` and `trainer/<weight>/m`, `…/v` tensors; in
 * `__metadata__`, `format` (`"boltzmann-bench/checkpoint"`), `version` (`"1"`), `checkpoint` (the
 * checkpoint without its model state), `model` (format, version and config) and `trainer` (the
 * optimizer state without its moments), each as JSON.
 *
 * @example
 * writeFileAtomic(checkpointPath(dir, id), encodeCheckpoint(checkpoint));
 */
export function encodeCheckpoint(checkpoint: Checkpoint): Uint8Array {
  const { engine, ...rest } = checkpoint;
  const { model, trainer } = engine as ModelState;
  const { weights, ...modelHead } = model;
  const { moments, ...trainerHead } = trainer;
  const tensors: Record<string, SafetensorsTensorInput> = {};
  for (const [name, w] of Object.entries(weights)) tensors[MODEL + name] = tensor(w.shape, w.data);
  for (const [name, { m, v }] of Object.entries(moments)) {
    tensors[`trainer/${name}/m`] = tensor([m.length], m);
    tensors[`trainer/${name}/v`] = tensor([v.length], v);
  }
  return encodeSafetensors(tensors, {
    format: FORMAT,
    version: '1',
    checkpoint: JSON.stringify(rest),
    model: JSON.stringify(modelHead),
    trainer: JSON.stringify(trainerHead),
  });
}

const corrupt = (why: string, cause?: unknown) =>
  new BenchError(
    'BENCH_CORRUPT_CHECKPOINT',
    `not a bench checkpoint: ${why}`,
    cause === undefined ? undefined : { cause },
  );

/** A metadata value parsed as a JSON object. */
function jsonObject(metadata: Readonly<Record<string, string>>, key: string): object {
  let value: unknown;
  try {
    value = JSON.parse(metadata[key] ?? '');
  } catch (error) {
    throw corrupt(`its __metadata__ "${key}" is not JSON`, error);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw corrupt(`its __metadata__ "${key}" is not a JSON object`);
  return value;
}

/**
 * The checkpoint in a file written by {@link encodeCheckpoint}, as the same object a JSON
 * checkpoint parses to (the numbers as plain arrays), for `checkpointProblem` to check.
 *
 * @throws the ATTENTION_SAFETENSORS_* codes for a malformed file; BENCH_CORRUPT_CHECKPOINT when
 *   its metadata does not name this format and version 1, a part is not JSON, or a tensor's name
 *   is neither a weight's nor a moment's.
 */
export function decodeCheckpoint(bytes: Uint8Array): Checkpoint {
  const { tensors, metadata } = decodeSafetensors(bytes);
  if (metadata.format !== FORMAT || metadata.version !== '1')
    throw corrupt(
      `its __metadata__ names format ${JSON.stringify(metadata.format)} version ${JSON.stringify(metadata.version)}, not "${FORMAT}" version "1"`,
    );
  // Maps, then own properties (Object.fromEntries): a tensor named after `__proto__` in a file
  // from disk or Redis is a key like any other, never a prototype to write through.
  const weights = new Map<string, { shape: readonly number[]; data: number[] }>();
  const moments = new Map<string, { m?: number[]; v?: number[] }>();
  for (const [name, t] of tensors) {
    const moment = MOMENT.exec(name);
    if (name.startsWith(MODEL))
      weights.set(name.slice(MODEL.length), { shape: t.shape, data: Array.from(t.data) });
    else if (moment !== null) {
      const pair = moments.get(moment[1]!) ?? {};
      pair[moment[2] as 'm' | 'v'] = Array.from(t.data);
      moments.set(moment[1]!, pair);
    } else throw corrupt(`tensor ${JSON.stringify(name)} is neither model/… nor trainer/…/m|v`);
  }
  const model = { ...jsonObject(metadata, 'model'), weights: Object.fromEntries(weights) };
  const trainer = { ...jsonObject(metadata, 'trainer'), moments: Object.fromEntries(moments) };
  return { ...jsonObject(metadata, 'checkpoint'), engine: { model, trainer } } as Checkpoint;
}

/**
 * A checkpoint file's content in either form: safetensors ({@link decodeCheckpoint}) or the JSON
 * of earlier releases. Unchecked: `checkpointProblem` says whether it fits its run.
 *
 * @throws as {@link decodeCheckpoint}; a SyntaxError for text that is not JSON.
 */
export function parseCheckpoint(bytes: Uint8Array): unknown {
  if (looksLikeSafetensors(bytes)) return decodeCheckpoint(bytes);
  return JSON.parse(new TextDecoder().decode(bytes)) as unknown;
}
