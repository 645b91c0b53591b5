// Model files in the playground: a trained model saved as safetensors, and a model file opened
// from disk in either form (safetensors, or the JSON of earlier releases and of `bench
// --save-models`), loaded with every weight checked against its config. Runs in the training
// worker, which has TensorFlow.js and the attention package already.
import {
  encodeModelFile,
  loadTransformer,
  looksLikeSafetensors,
  parseModelFile,
} from '@boltzmann/attention';
import type { Transformer, TransformerJSON } from '@boltzmann/attention';

const FORMAT = 'boltzmann-attention/transformer';

/** The bytes of a `.safetensors` model file of `model` (see `encodeModelFile`). */
export function modelFileOf(model: Transformer): Uint8Array {
  return encodeModelFile(model.toJSON());
}

/** The model inside what `parseModelFile` read: itself, or a `bench --save-models` JSON `{ id, config, model }`. */
function unwrap(value: TransformerJSON): TransformerJSON {
  const wrapped = (value as { model?: { format?: unknown } }).model;
  return (value as { format?: unknown }).format !== FORMAT && wrapped?.format === FORMAT
    ? (wrapped as TransformerJSON)
    : value;
}

/**
 * Loads a model file and says what it holds, e.g. `model.safetensors: safetensors, 1,234
 * parameters; boltzmann, T = 8, d_model 16, 1 head, 1 layer, sampler exact`. The model is built
 * (every weight checked against its shape and float32) on the exact sampler, then disposed: its
 * own sampler is named, not run.
 *
 * @throws {AttentionError} what `parseModelFile` and `loadTransformer` throw for a bad file.
 */
export function describeModelFile(name: string, bytes: Uint8Array): string {
  const form = looksLikeSafetensors(bytes) ? 'safetensors' : 'JSON';
  const json = unwrap(parseModelFile(bytes).model);
  const model = loadTransformer(json, { sampler: 'exact', samplerOptions: {} });
  try {
    const c = model.config;
    const parameters = model.parameters.reduce((n, p) => n + p.variable.size, 0);
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
    const sampler =
      c.variant === 'boltzmann' || c.variant === 'coupling' ? json.config.sampler : '';
    return [
      `${name}: ${form}, ${parameters.toLocaleString('en-US')} parameters; ${c.variant}`,
      `T = ${c.maxLength}, d_model ${c.dModel}, ${plural(c.heads, 'head')}, ${plural(c.layers, 'layer')}`,
      ...(sampler ? [`sampler ${sampler}`] : []),
    ].join(', ');
  } finally {
    model.dispose();
  }
}
