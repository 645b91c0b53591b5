// The model file as safetensors: every weight an F32 tensor named as in `TransformerJSON`, the
// format, version and configuration (sampler and its options included) as JSON strings in
// `__metadata__`. Decoding gives back a `TransformerJSON`, so one set of checks (modelFile.ts)
// serves both forms. Browser-safe: bytes in, bytes out.
import { AttentionError } from './errors.js';
import type { TransformerJSON } from './modelFile.js';
import { decodeSafetensors, looksLikeSafetensors } from './safetensorsReader.js';
import { encodeSafetensors } from './safetensorsWriter.js';
import type { SafetensorsTensorInput } from './safetensorsWriter.js';

const FORMAT = 'boltzmann-attention/transformer';
/** The `__metadata__` keys a model file sets; other keys (a caller's own) pass through. */
const RESERVED = ['format', 'version', 'config'] as const;

const invalid = (message: string, cause?: unknown): AttentionError =>
  new AttentionError(
    'ATTENTION_INVALID_CHECKPOINT',
    message,
    cause === undefined ? undefined : { cause },
  );

/**
 * A model as a safetensors file: its weights as F32 tensors, and `__metadata__` holding
 * `format` (`"boltzmann-attention/transformer"`), `version` (`"1"`), `config` (the resolved
 * configuration as JSON, sampler and options included) and any `metadata` of the caller's.
 *
 * @summary A model as a safetensors file.
 * @throws {AttentionError} ATTENTION_INVALID_ARGUMENT when `metadata` sets a reserved key
 *   (`format`, `version`, `config`) or a weight's values do not fit its shape.
 * @example
 * import { createTransformer, encodeModelFile, initBackend } from '@boltzmann/attention';
 *
 * await initBackend();
 * const model = createTransformer({ vocabSize: 8, maxLength: 4, dModel: 8, heads: 1 });
 * const bytes = encodeModelFile(model.toJSON(), { run: 'shakespeare-0' });
 * console.log(bytes.length); // a safetensors file: float32 tensors and a JSON header
 * model.dispose();
 * @category Model files
 */
export function encodeModelFile(
  json: TransformerJSON,
  metadata: Readonly<Record<string, string>> = {},
): Uint8Array {
  const clash = RESERVED.find((key) => Object.hasOwn(metadata, key));
  if (clash !== undefined)
    throw new AttentionError(
      'ATTENTION_INVALID_ARGUMENT',
      `metadata key "${clash}" is the model file's own (format, version, config)`,
    );
  const tensors: Record<string, SafetensorsTensorInput> = {};
  for (const [name, w] of Object.entries(json.weights))
    tensors[name] = { dtype: 'F32', shape: w.shape, data: w.data };
  return encodeSafetensors(tensors, {
    ...metadata,
    format: json.format,
    version: String(json.version),
    config: JSON.stringify(json.config),
  });
}

/**
 * Reads a model file written by {@link encodeModelFile}: the `TransformerJSON` (not yet checked
 * against its config: `loadTransformer` does that) and the `__metadata__` keys of the caller's.
 *
 * @summary Reads a model file written by {@link encodeModelFile}.
 * @throws {AttentionError} the ATTENTION_SAFETENSORS_* codes of `decodeSafetensors`;
 *   ATTENTION_INVALID_CHECKPOINT when the metadata does not name this format and version 1, or its
 *   config is not JSON.
 * @category Model files
 */
export function decodeModelFile(bytes: Uint8Array): {
  model: TransformerJSON;
  metadata: Readonly<Record<string, string>>;
} {
  const { tensors, metadata } = decodeSafetensors(bytes);
  const { format, version, config, ...rest } = metadata;
  if (format !== FORMAT)
    throw invalid(
      `the safetensors file is not a model file: its __metadata__ format is ${JSON.stringify(format)}, not "${FORMAT}"`,
    );
  if (version !== '1')
    throw invalid(
      `unsupported model file version ${JSON.stringify(version)}; this release reads version 1`,
    );
  let parsed: unknown;
  try {
    parsed = JSON.parse(config ?? '');
  } catch (error) {
    throw invalid('the model file\'s __metadata__ "config" is not JSON', error);
  }
  // Own properties (Object.fromEntries): a tensor named `__proto__` is a key, never a prototype.
  const weights = Object.fromEntries(
    [...tensors].map(([name, t]) => [name, { shape: t.shape, data: Array.from(t.data) }]),
  );
  const model = { format: FORMAT, version: 1, config: parsed, weights } as TransformerJSON;
  return { model, metadata: rest };
}

/**
 * A model file's contents in either form, told apart by its bytes: safetensors (an 8-byte
 * header length, then `{`), or JSON text (`TransformerJSON` as `saveTransformer` wrote it before
 * safetensors). Not yet checked against its config (`loadTransformer` does that).
 *
 * @summary A model file's contents in either form, told apart by its bytes.
 * @throws {AttentionError} as {@link decodeModelFile}; ATTENTION_INVALID_CHECKPOINT for text
 *   that is not JSON.
 * @example
 * import { createTransformer, encodeModelFile, initBackend, loadTransformer, parseModelFile } from '@boltzmann/attention';
 *
 * await initBackend();
 * const bytes = encodeModelFile(createTransformer({ vocabSize: 8, maxLength: 4, dModel: 8, heads: 1 }).toJSON());
 * // In a browser: new Uint8Array(await file.arrayBuffer()) of a file input's File.
 * const model = loadTransformer(parseModelFile(bytes).model);
 * console.log(model.config.vocabSize);
 * @category Model files
 */
export function parseModelFile(bytes: Uint8Array): {
  model: TransformerJSON;
  metadata: Readonly<Record<string, string>>;
} {
  if (looksLikeSafetensors(bytes)) return decodeModelFile(bytes);
  try {
    return { model: JSON.parse(new TextDecoder().decode(bytes)) as TransformerJSON, metadata: {} };
  } catch (error) {
    throw invalid(
      `the model file is neither safetensors nor JSON (${error instanceof Error ? error.message : String(error)})`,
      error,
    );
  }
}
