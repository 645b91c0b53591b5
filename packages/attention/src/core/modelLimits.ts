import { echo } from '@boltzmann/ising-core/internal';
import { AttentionError } from './errors.js';
import { paramSpecs } from './paramSpecs.js';
import type { ParamSpecConfig } from './paramSpecs.js';

/**
 * The largest model `createTransformer` builds and `loadTransformer` reads: each size field at
 * most its entry, and all parameters together at most `parameters` (1e9 float32 values, 4 GB;
 * the trainer adds 16 bytes of moments per parameter). Generous for real use (GPT-2 small is
 * 12 layers, 12 heads, d_model 768, T 1024, vocabulary 50,257), and checked before anything is
 * allocated, so a model file cannot ask for more memory than the machine has.
 *
 * @summary The largest model `createTransformer` builds and `loadTransformer` reads.
 * @example
 * import { MODEL_LIMITS } from '@boltzmann/attention';
 *
 * const config = { vocabSize: 65, maxLength: 12, layers: 100 };
 * if (config.layers > MODEL_LIMITS.layers) console.error(`too deep: at most ${MODEL_LIMITS.layers} layers`);
 * @category Model files
 */
export const MODEL_LIMITS = Object.freeze({
  layers: 64,
  /** Attention heads; `dModel` must also be divisible by `heads`. */
  heads: 64,
  dModel: 4096,
  /** The context length `T`. */
  maxLength: 8192,
  vocabSize: 1_048_576,
  outputSize: 1_048_576,
  ffnHidden: 16_384,
  /** All parameters of the model, embeddings and every `J` included. */
  parameters: 1e9,
} as const);

/**
 * The largest model or checkpoint file `readTransformer` reads, in bytes: 2^29 − 24, the longest
 * string V8 holds, so a larger JSON file could not be parsed anyway. A path that is not a regular
 * file (a folder, FIFO, device) or is larger is refused before anything is read.
 *
 * @summary The largest model or checkpoint file `readTransformer` reads, in bytes.
 * @example
 * import { statSync, writeFileSync } from 'node:fs';
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 * import { MAX_MODEL_FILE_BYTES } from '@boltzmann/attention';
 *
 * const path = join(tmpdir(), 'model.json');
 * writeFileSync(path, '{}');
 * if (statSync(path).size > MAX_MODEL_FILE_BYTES) console.error('too large to load');
 * @category Model files
 */
export const MAX_MODEL_FILE_BYTES = 2 ** 29 - 24;

/** The size fields bounded by {@link MODEL_LIMITS}. */
export type LimitedField = Exclude<keyof typeof MODEL_LIMITS, 'parameters'>;

/**
 * The largest finite float32, `(2 − 2⁻²³)·2¹²⁷`: a larger magnitude does not fit in a weight.
 *
 * @category Model files
 */
export const FLOAT32_MAX = 3.4028234663852886e38;

/**
 * `value` as a size field of a configuration: an integer in `[1, MODEL_LIMITS[name]]`.
 *
 * @throws {AttentionError} ATTENTION_INVALID_CONFIG naming the field, its limit and (bounded) the value.
 */
export function limitedSize(value: unknown, name: LimitedField): number {
  const max = MODEL_LIMITS[name];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) {
    throw new AttentionError(
      'ATTENTION_INVALID_CONFIG',
      `${name} must be a positive integer ≤ ${max} (MODEL_LIMITS.${name}), got ${echo(value)}`,
    );
  }
  return value;
}

/**
 * Whether `value` is a finite number that float32 holds without overflow (`|value| ≤ FLOAT32_MAX`).
 * `1e39` is finite in float64 but Infinity in float32.
 */
export function fitsFloat32(value: unknown): value is number {
  return typeof value === 'number' && Math.abs(value) <= FLOAT32_MAX;
}

/** How many parameters a (validated) configuration has. */
export function parameterCount(config: ParamSpecConfig): number {
  let count = 0;
  for (const spec of paramSpecs(config)) count += spec.shape.reduce((a, b) => a * b, 1);
  return count;
}

/**
 * Refuses a configuration whose parameters together exceed {@link MODEL_LIMITS}`.parameters`.
 * Counting is cheap (one entry per parameter tensor, at most a few thousand once each field is
 * within its limit); nothing is allocated.
 *
 * @throws {AttentionError} ATTENTION_INVALID_CONFIG with the count and the limit.
 */
export function assertParameterCount(config: ParamSpecConfig): void {
  const count = parameterCount(config);
  if (count > MODEL_LIMITS.parameters) {
    throw new AttentionError(
      'ATTENTION_INVALID_CONFIG',
      `this configuration has ${count.toLocaleString('en-US')} parameters, more than MODEL_LIMITS.parameters = ${MODEL_LIMITS.parameters.toLocaleString('en-US')} ` +
        `(layers ${config.layers ?? 1}, dModel ${config.dModel}, heads ${config.heads}, maxLength ${config.maxLength}, ` +
        `vocabSize ${config.vocabSize}, outputSize ${config.outputSize}, ffnHidden ${config.ffnHidden}, couplingForm ${echo(config.couplingForm)})`,
    );
  }
}
