// The tfjs model from and to a model file (core/modelFile.ts checks the file).
import { writeFileAtomic } from '@boltzmann/ising-core/internal';
import { modelFileConfig, modelFileWeights, readModelFileBytes } from '../core/modelFile.js';
import type { TransformerJSON } from '../core/modelFile.js';
import { encodeModelFile, parseModelFile } from '../core/modelSafetensors.js';
import { samplerFor } from '../model/resolveSampler.js';
import type { SamplerOverrides } from '../model/resolveSampler.js';
import { AttentionError } from '../core/errors.js';
import { buildTransformer } from './buildTransformer.js';
import type { Transformer } from './modelTypes.js';
import { checkSamplerTimeout } from '../model/samplerDeadline.js';

export type { SamplerOverrides };

/**
 * Rebuilds a model from {@link Transformer.toJSON} output.
 *
 * The sampler is recreated from the recorded name and options unless `overrides` supplies one
 * (needed for samplers other than `'exact'`: pass `{ registry }` or `{ sampler }`). A model file
 * is data: its sizes are checked against `MODEL_LIMITS`, and every weight against its shape and
 * float32's range, before any tensor is allocated.
 *
 * @throws {AttentionError} ATTENTION_INVALID_CHECKPOINT when the object is not a model checkpoint or a weight
 *   is missing, misshapen, not a number or beyond float32; ATTENTION_INVALID_CONFIG (a size over its
 *   `MODEL_LIMITS` entry, among others); ATTENTION_SAMPLER_NOT_FOUND.
 * @example
 * import { createTransformer, initBackend, loadTransformer } from '@boltzmann/attention';
 *
 * await initBackend();
 * const model = createTransformer({ vocabSize: 8, maxLength: 4, dModel: 8, heads: 1 });
 * const copy = loadTransformer(JSON.parse(JSON.stringify(model.toJSON())));
 * console.log(copy.config);
 * model.dispose();
 * copy.dispose();
 * @category Model files
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
 * Options of {@link saveTransformer}.
 *
 * @category Model files
 */
export interface SaveTransformerOptions {
  /**
   * `'safetensors'`: weights as float32 tensors, the config in `__metadata__`, 4 bytes a parameter
   * plus the header. `'json'`: the `TransformerJSON` text of earlier releases. Default: `'json'`
   * for a path ending in `.json`, else `'safetensors'`.
   */
  readonly format?: 'safetensors' | 'json';
}

/**
 * Saves a model's weights and configuration to a file atomically (a temporary file, then a
 * rename): safetensors (see `encodeModelFile`) unless the path ends in `.json` or
 * `options.format` is `'json'`. Node.js only.
 *
 * @summary Saves a model's weights and configuration to a file atomically (a temporary file, then a rename).
 * @throws {AttentionError} ATTENTION_INVALID_ARGUMENT for an unknown `format`.
 * @example
 * import { mkdtempSync } from 'node:fs';
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 * import { createTransformer, initBackend, readTransformer, saveTransformer } from '@boltzmann/attention';
 *
 * await initBackend();
 * const model = createTransformer({ vocabSize: 8, maxLength: 4, dModel: 8, heads: 1 });
 * const path = join(mkdtempSync(join(tmpdir(), 'model-')), 'model.safetensors');
 * await saveTransformer(model, path);
 * const again = await readTransformer(path);
 * console.log(again.config.variant);
 * model.dispose();
 * again.dispose();
 * @category Model files
 */
export async function saveTransformer(
  model: Transformer,
  path: string,
  options: SaveTransformerOptions = {},
): Promise<void> {
  const format = options.format ?? (path.toLowerCase().endsWith('.json') ? 'json' : 'safetensors');
  if (format !== 'safetensors' && format !== 'json')
    throw new AttentionError(
      'ATTENTION_INVALID_ARGUMENT',
      `format must be 'safetensors' or 'json', got ${JSON.stringify(format)}`,
    );
  const json = model.toJSON();
  writeFileAtomic(path, format === 'json' ? JSON.stringify(json) : encodeModelFile(json));
}

/**
 * Loads a model saved by {@link saveTransformer}, in either form: the bytes tell safetensors
 * from JSON, so files saved as JSON by earlier releases still load. Node.js only.
 *
 * @throws {AttentionError} ATTENTION_INVALID_CHECKPOINT for a corrupt file or a non-checkpoint;
 *   the ATTENTION_SAFETENSORS_* codes for a malformed safetensors file; ATTENTION_NOT_A_FILE,
 *   ATTENTION_FILE_TOO_LARGE for a path that is not a regular file of at most
 *   `MAX_MODEL_FILE_BYTES`; see {@link loadTransformer}.
 * @category Model files
 */
export async function readTransformer(
  path: string,
  overrides: SamplerOverrides = {},
): Promise<Transformer> {
  let model: TransformerJSON;
  try {
    model = parseModelFile(readModelFileBytes(path)).model;
  } catch (error) {
    if (error instanceof AttentionError && error.code === 'ATTENTION_INVALID_CHECKPOINT')
      throw new AttentionError('ATTENTION_INVALID_CHECKPOINT', `${path}: ${error.message}`, {
        cause: error,
      });
    throw error;
  }
  return loadTransformer(model, overrides);
}
