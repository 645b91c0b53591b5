// The `--save-models` file: the attention package's safetensors model file (weights as F32
// tensors; format, version and model config in `__metadata__`) whose metadata also names the run:
// `bench.id` and `bench.config` (its RunConfig as JSON). Earlier releases wrote the same parts as
// JSON `{ id, config, model }`; inference/generate.ts reads both.
import { decodeModelFile, encodeModelFile } from '@boltzmann/attention';
import type { TransformerJSON } from '@boltzmann/attention';
import { BenchError } from '../benchError.js';
import type { RunConfig } from '../types.js';

/** The `__metadata__` keys of a saved model that name its run. */
export const SAVED_MODEL_KEYS = { id: 'bench.id', config: 'bench.config' } as const;

/**
 * A finished run's model as the bytes of `models/<id>.safetensors`.
 *
 * @example
 * writeFileAtomic(modelPath(dir, id), encodeSavedModel(id, config, model.save().model));
 */
export function encodeSavedModel(
  id: string,
  config: RunConfig,
  model: TransformerJSON,
): Uint8Array {
  return encodeModelFile(model, {
    [SAVED_MODEL_KEYS.id]: id,
    [SAVED_MODEL_KEYS.config]: JSON.stringify(config),
  });
}

/**
 * The parts of a saved model file: the model, and its run's id and config when the file names
 * them (`undefined` for a bare model file). The config is as read (unchecked).
 *
 * @throws the attention package's codes for a file that is not a model (`decodeModelFile`);
 *   BENCH_BAD_MODEL when `bench.config` is not JSON.
 */
export function decodeSavedModel(bytes: Uint8Array): {
  model: TransformerJSON;
  id: string | undefined;
  runConfig: unknown;
} {
  const { model, metadata } = decodeModelFile(bytes);
  const text = metadata[SAVED_MODEL_KEYS.config];
  let runConfig: unknown;
  try {
    runConfig = text === undefined ? undefined : (JSON.parse(text) as unknown);
  } catch (error) {
    throw new BenchError(
      'BENCH_BAD_MODEL',
      `its __metadata__ "${SAVED_MODEL_KEYS.config}" is not JSON`,
      {
        cause: error,
      },
    );
  }
  return { model, id: metadata[SAVED_MODEL_KEYS.id], runConfig };
}
