// The model file: the JSON form of a model's configuration and weights, its checks (format,
// version, every weight against its shape and float32's range) and its reading and writing on
// Node. Backend-free: the tfjs model is built from it in tfjs/serialization.ts.
import {
  echo,
  nodeBuiltin,
  readRegularFile,
  writeFileAtomic,
} from '@boltzmann/ising-core/internal';
import type { RegularFileRefusal } from '@boltzmann/ising-core/internal';
import { AttentionError } from './errors.js';
import { FLOAT32_MAX, MAX_MODEL_FILE_BYTES, MODEL_LIMITS, fitsFloat32 } from './modelLimits.js';
import type { ParamSpec } from './paramSpecs.js';
import { RELATIVE_COUPLINGS, layerName, paramSpecs } from './paramSpecs.js';
import { resolveTransformerConfig } from './transformerConfig.js';
import type { ResolvedTransformerConfig } from './transformerConfigTypes.js';
import { usesSampler } from './variants.js';

/**
 * The JSON form of a model's weights: `{ config, weights }`, see `Transformer.toJSON`.
 *
 * @category Model files
 */
export interface TransformerJSON {
  readonly format: 'boltzmann-attention/transformer';
  readonly version: 1;
  readonly config: ResolvedTransformerConfig;
  readonly weights: Readonly<
    Record<string, { readonly shape: readonly number[]; readonly data: readonly number[] }>
  >;
}

function invalid(message: string, cause?: unknown): AttentionError {
  return new AttentionError(
    'ATTENTION_INVALID_CHECKPOINT',
    message,
    cause === undefined ? undefined : { cause },
  );
}

type WeightEntry = { readonly shape?: unknown; readonly data?: unknown } | null | undefined;

/**
 * One weight of a checkpoint as float32, after checking that it is an object of exactly the
 * spec's shape and size (so nothing is allocated for a size the file merely claims) whose
 * values are numbers float32 holds: `1e39` passes `Number.isFinite` but is Infinity in float32.
 */
function readWeight(spec: ParamSpec, w: WeightEntry): Float32Array {
  const name = JSON.stringify(spec.name);
  if (w === undefined) throw invalid(`checkpoint lacks weight ${name}`);
  if (w === null || typeof w !== 'object')
    throw invalid(`weight ${name} must be an object { shape, data }, got ${echo(w)}`);
  const { shape, data } = w;
  const shapeOk =
    Array.isArray(shape) &&
    shape.length === spec.shape.length &&
    shape.every((n, i) => n === spec.shape[i]);
  if (!shapeOk)
    throw invalid(
      `weight ${name} has shape ${echo(shape)}; the config needs [${spec.shape.join(', ')}]`,
    );
  const size = spec.shape.reduce((a, b) => a * b, 1);
  if (!Array.isArray(data) || data.length !== size) {
    throw invalid(
      `weight ${name} has ${Array.isArray(data) ? data.length : 'no'} values; shape [${spec.shape.join(', ')}] needs ${size}`,
    );
  }
  const bad = data.findIndex((v) => !fitsFloat32(v));
  if (bad >= 0)
    throw invalid(
      `weight ${name} value ${bad} is ${echo(data[bad])}; weights must be finite numbers of magnitude ≤ ${FLOAT32_MAX} (float32)`,
    );
  return Float32Array.from(data as number[]);
}

/**
 * The configuration of a model file, after checking its format and version.
 *
 * @throws {AttentionError} ATTENTION_INVALID_CHECKPOINT when the object is not a model checkpoint;
 *   ATTENTION_INVALID_CONFIG (a size over its `MODEL_LIMITS` entry, among others).
 */
export function modelFileConfig(json: TransformerJSON): ResolvedTransformerConfig {
  const j = json as Partial<TransformerJSON> | null;
  if (j === null || typeof j !== 'object' || j.format !== 'boltzmann-attention/transformer') {
    throw invalid(
      `not a Transformer checkpoint (format ${echo(j?.format)}; expected "boltzmann-attention/transformer")`,
    );
  }
  if (j.version !== 1)
    throw invalid(
      `unsupported checkpoint version ${echo(j.version)}; this release reads version 1`,
    );
  return resolveTransformerConfig(j.config as TransformerJSON['config']);
}

/**
 * Every weight of a model file as float32, by name, each checked against its spec before it is
 * allocated (so nothing is allocated for a size the file merely claims).
 *
 * @throws {AttentionError} ATTENTION_INVALID_CHECKPOINT when a weight is missing, misshapen, not a
 *   number or beyond float32, or one the config does not use is present.
 */
export function modelFileWeights(
  json: TransformerJSON,
  config: ResolvedTransformerConfig,
): Map<string, Float32Array> {
  const weights = (json as Partial<TransformerJSON>).weights;
  if (weights === null || typeof weights !== 'object')
    throw invalid('checkpoint has no weights object');
  const values = new Map<string, Float32Array>();
  for (const spec of paramSpecs(config))
    values.set(spec.name, readWeight(spec, (weights as Record<string, WeightEntry>)[spec.name]));
  const extra = Object.keys(weights).filter((name) => !values.has(name));
  if (extra.length > 0)
    throw invalid(
      `checkpoint has ${extra.length} weights the config does not use: ${echo(extra.join(', '))}`,
    );
  return values;
}

/**
 * The same model at a longer context: `maxLength` raised to `maxLength`, for a model with no
 * positional embedding (`positions: 'none'`) whose `J`, if any, is `relative`. Distances the
 * model never saw (`≥` its old `maxLength`) get `J = 0`: no coupling beyond what was learned.
 * Every other weight is shape-independent of `T` and unchanged.
 *
 * @summary The same model at a longer context.
 * @returns a new {@link TransformerJSON} (the input is not modified); load it with `loadTransformer`.
 * @throws {AttentionError} ATTENTION_INVALID_CONFIG when the model has learned positions, a `full`
 *   or `banded` J (one parameter per pair of positions: nothing to extend it with), or `maxLength`
 *   is not an integer ≥ the model's and ≤ `MODEL_LIMITS.maxLength`.
 * @throws {AttentionError} ATTENTION_INVALID_CHECKPOINT when a relative `J` to extend does not have the config's shape.
 * @example
 * import { createTransformer, initBackend, loadTransformer, withMaxLength } from '@boltzmann/attention';
 *
 * await initBackend();
 * // Trained at T = 4 with what carries over to longer inputs: no learned positions, J by distance.
 * const config = { vocabSize: 8, maxLength: 4, dModel: 8, heads: 1, positions: 'none', couplingForm: 'relative' } as const;
 * const model = createTransformer(config);
 * const long = loadTransformer(withMaxLength(model.toJSON(), 16)); // the same weights at T = 16
 * console.log(long.config.maxLength);
 * model.dispose();
 * long.dispose();
 * @category Model files
 */
export function withMaxLength(json: TransformerJSON, maxLength: number): TransformerJSON {
  const config = resolveTransformerConfig(json.config);
  const refuse = (why: string): AttentionError =>
    new AttentionError(
      'ATTENTION_INVALID_CONFIG',
      `cannot run this model at maxLength ${echo(maxLength)}: ${why}`,
    );
  if (
    !Number.isInteger(maxLength) ||
    maxLength < config.maxLength ||
    maxLength > MODEL_LIMITS.maxLength
  )
    throw refuse(
      `it must be an integer ≥ the model's ${config.maxLength} and ≤ MODEL_LIMITS.maxLength = ${MODEL_LIMITS.maxLength}`,
    );
  if (config.positions !== 'none')
    throw refuse(
      `its learned positional embedding has no rows past position ${config.maxLength - 1} (train with positions: 'none')`,
    );
  const hasJ = usesSampler(config.variant);
  if (hasJ && config.couplingForm !== 'relative')
    throw refuse(
      `its ${config.couplingForm} J has one parameter per pair of positions (train with couplingForm: 'relative')`,
    );
  const weights: Record<string, { shape: readonly number[]; data: readonly number[] }> = {
    ...json.weights,
  };
  const { heads, maxLength: old } = config;
  for (let layer = 0; layer < config.layers; layer++) {
    const name = layerName(layer, RELATIVE_COUPLINGS);
    const w = weights[name];
    if (w === undefined) continue;
    // The sizes come from the validated config, never from the file's own shape.
    const spec = { name, shape: [heads, old], init: 'zeros', decay: false } as const;
    readWeight(spec, w);
    const data = new Array<number>(heads * maxLength).fill(0);
    for (let h = 0; h < heads; h++)
      for (let d = 0; d < old; d++) data[h * maxLength + d] = w.data[h * old + d]!;
    weights[name] = { shape: [heads, maxLength], data };
  }
  return { ...json, config: { ...json.config, maxLength }, weights };
}

/**
 * Writes `value` as JSON to `path` atomically (ising-core's `writeFileAtomic`: a temporary file
 * in the same folder, then a rename), so a crash never leaves a half-written checkpoint. Missing
 * parent folders are created. Node.js only.
 *
 * @throws {IsingError} ISING_UNSUPPORTED outside Node; the file system's own error.
 * @example
 * await writeJsonFileAtomic('run/checkpoint.json', { model: model.toJSON(), trainer: trainer.state() });
 */
export async function writeJsonFileAtomic(path: string, value: unknown): Promise<void> {
  writeFileAtomic(path, JSON.stringify(value));
}

/** The coded error for each refusal of ising-core's `readRegularFile`, naming the path and the limit. */
function fileRefusal(path: string, r: RegularFileRefusal): AttentionError {
  const limit = `${MAX_MODEL_FILE_BYTES.toLocaleString('en-US')} bytes (MAX_MODEL_FILE_BYTES)`;
  if (r.reason === 'not-a-file')
    return new AttentionError(
      'ATTENTION_NOT_A_FILE',
      `${echo(path)} is ${r.kind}, not a regular file of at most ${limit}; nothing was read`,
      r.cause === undefined ? undefined : { cause: r.cause },
    );
  if (r.reason === 'too-large')
    return new AttentionError(
      'ATTENTION_FILE_TOO_LARGE',
      `${echo(path)} has ${r.size.toLocaleString('en-US')} bytes, more than the limit of ${limit}; nothing was read`,
    );
  return invalid(`${echo(path)} grew past its announced ${r.size} bytes while it was read`);
}

/**
 * The bytes of a file of at most {@link MAX_MODEL_FILE_BYTES} (ising-core's `readRegularFile`),
 * so a device, FIFO or huge file given as a model costs nothing. Node.js only.
 *
 * @throws {AttentionError} ATTENTION_NOT_A_FILE for a directory, FIFO, device or socket;
 *   ATTENTION_FILE_TOO_LARGE over the limit; ATTENTION_BACKEND_UNAVAILABLE outside Node.js; the
 *   file system's own error when it cannot be opened.
 */
export function readModelFileBytes(path: string): Uint8Array {
  // Through nodeBuiltin, not import('node:…'): a browser bundle must not try to resolve it.
  if (nodeBuiltin('node:fs') === undefined)
    throw new AttentionError(
      'ATTENTION_BACKEND_UNAVAILABLE',
      `reading ${path} needs Node.js (node:fs)`,
    );
  return readRegularFile(path, MAX_MODEL_FILE_BYTES, (r) => fileRefusal(path, r));
}

/**
 * Reads a JSON file written by {@link writeJsonFileAtomic}: a regular file of at most
 * {@link MAX_MODEL_FILE_BYTES} (see {@link readModelFileBytes}). Node.js only.
 *
 * @throws {AttentionError} ATTENTION_INVALID_CHECKPOINT when the file is not valid JSON (naming the path);
 *   ATTENTION_NOT_A_FILE for a directory, FIFO, device or socket; ATTENTION_FILE_TOO_LARGE over the
 *   limit; ATTENTION_BACKEND_UNAVAILABLE outside Node.js; the file system's own error when it cannot be opened.
 * @example
 * const { model, trainer } = (await readJsonFile('run/checkpoint.json')) as { model: TransformerJSON; trainer: TrainerState };
 */
export async function readJsonFile(path: string): Promise<unknown> {
  const text = new TextDecoder().decode(readModelFileBytes(path));
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw invalid(
      `${path} is not valid JSON (${error instanceof Error ? error.message : String(error)})`,
      error,
    );
  }
}
