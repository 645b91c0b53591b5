// The tfjs model from and to a model file (core/modelFile.ts checks the file).
import {
  modelFileConfig,
  modelFileWeights,
  readJsonFile,
  writeJsonFileAtomic,
} from '../core/modelFile.js';
import type { TransformerJSON } from '../core/modelFile.js';
import { samplerFor } from '../model/resolveSampler.js';
import type { SamplerOverrides } from '../model/resolveSampler.js';
import { buildTransformer } from './buildTransformer.js';
import type { Transformer } from './modelTypes.js';
import { checkSamplerTimeout } from '../model/samplerDeadline.js';

export type { SamplerOverrides };

/**
 * Rebuilds a model from {@link Transformer.toJSON} output. The sampler is recreated from the
 * recorded name and options unless `overrides` supplies one (needed for samplers other
 * than `'exact'`: pass `{ registry }` or `{ sampler }`). A model file is data: its sizes are
 * checked against `MODEL_LIMITS`, and every weight against its shape and float32's range,
 * before any tensor is allocated.
 *
 * @throws {AttentionError} ATTENTION_INVALID_CHECKPOINT when the object is not a model checkpoint or a weight
 *   is missing, misshapen, not a number or beyond float32; ATTENTION_INVALID_CONFIG (a size over its
 *   `MODEL_LIMITS` entry, among others); ATTENTION_SAMPLER_NOT_FOUND.
 * @example
 * const copy = loadTransformer(JSON.parse(JSON.stringify(model.toJSON())));
 */
export function loadTransformer(
  json: TransformerJSON,
  overrides: SamplerOverrides = {},
): Transformer {
  const config = modelFileConfig(json);
  const samplerTimeoutMs = checkSamplerTimeout(overrides.samplerTimeoutMs);
  const values = modelFileWeights(json, config);
  const sampler = samplerFor(config, overrides);
  return buildTransformer(config, sampler, (spec) => values.get(spec.name)!, {
    ownsSampler: typeof overrides.sampler !== 'object',
    samplerTimeoutMs,
  });
}

/**
 * Saves a model's weights and configuration to a JSON file atomically. Node.js only.
 *
 * @example
 * await saveTransformer(model, 'model.json'); const again = await readTransformer('model.json');
 */
export async function saveTransformer(model: Transformer, path: string): Promise<void> {
  await writeJsonFileAtomic(path, model.toJSON());
}

/**
 * Loads a model saved by {@link saveTransformer}. Node.js only.
 *
 * @throws {AttentionError} ATTENTION_INVALID_CHECKPOINT for a corrupt file or a non-checkpoint; ATTENTION_NOT_A_FILE,
 *   ATTENTION_FILE_TOO_LARGE for a path that is not a regular file of at most `MAX_MODEL_FILE_BYTES`; see {@link loadTransformer}.
 */
export async function readTransformer(
  path: string,
  overrides: SamplerOverrides = {},
): Promise<Transformer> {
  return loadTransformer((await readJsonFile(path)) as TransformerJSON, overrides);
}
