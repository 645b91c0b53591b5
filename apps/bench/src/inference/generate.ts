import {
  AttentionError,
  MAX_MODEL_FILE_BYTES,
  loadTransformer,
  looksLikeSafetensors,
} from '@boltzmann/attention';
import type { Transformer, TransformerJSON } from '@boltzmann/attention';
import type { CharVocab } from '@boltzmann/datasets';
import { createRng } from '@boltzmann/ising-core';
import type { Rng, SamplerRegistry } from '@boltzmann/ising-core';
import { readRegularFile } from '@boltzmann/ising-core/internal';
import type { RegularFileRefusal } from '@boltzmann/ising-core/internal';
import { BenchError } from '../benchError.js';
import { decodeSavedModel } from '../results/savedModelFile.js';
import { assertDataOnly } from '../trust/untrustedOptions.js';
import { chooseSampleSampler } from './sampleSampler.js';
import type { UserSamplerChoice } from './sampleSampler.js';

const FORMAT = 'boltzmann-attention/transformer';

/** How a sampled character is chosen. */
export interface DecodeOptions {
  /** Softmax temperature; 0 = argmax. */
  readonly temperature: number;
  /** Keep only the k largest logits; `undefined` = all. */
  readonly topK?: number | undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** BENCH_BAD_MODEL for each refusal of ising-core's `readRegularFile`, naming the path and the limit. */
function refusal(path: string, r: RegularFileRefusal): BenchError {
  const limit = `${MAX_MODEL_FILE_BYTES.toLocaleString('en-US')} bytes (MAX_MODEL_FILE_BYTES)`;
  const why =
    r.reason === 'not-a-file'
      ? `is ${r.kind}, not a regular file of at most ${limit}; nothing was read`
      : r.reason === 'too-large'
        ? `has ${r.size.toLocaleString('en-US')} bytes, more than the limit of ${limit}; nothing was read`
        : `grew past its announced ${r.size} bytes while it was read`;
  return new BenchError(
    'BENCH_BAD_MODEL',
    `--model ${path} ${why}`,
    r.reason === 'not-a-file' && r.cause !== undefined ? { cause: r.cause } : undefined,
  );
}

/** A saved model in safetensors (results/savedModelFile.ts), its faults as BENCH_BAD_MODEL. */
function safetensorsModel(path: string, bytes: Uint8Array): ReturnType<typeof readModelFile> {
  try {
    const { model, runConfig } = decodeSavedModel(bytes);
    const dataset =
      isObject(runConfig) && typeof runConfig.dataset === 'string' ? runConfig.dataset : undefined;
    return { json: model, dataset, ...(runConfig === undefined ? {} : { runConfig }) };
  } catch (error) {
    if (!(error instanceof AttentionError || error instanceof BenchError)) throw error;
    throw new BenchError('BENCH_BAD_MODEL', `--model ${path}: [${error.code}] ${error.message}`, {
      cause: error,
    });
  }
}

/**
 * Reads a model file: a `--save-models` file (`models/<id>.safetensors`, or the JSON
 * `{ id, config, model }` of earlier releases), a model saved by `saveTransformer` (safetensors)
 * or a bare `TransformerJSON`, told apart by their bytes; only as a regular file of at most `MAX_MODEL_FILE_BYTES` (a FIFO, a device such as `/dev/zero`
 * or a larger file is refused before anything is read).
 *
 * @param path the file.
 * @returns the model's JSON, for a `--save-models` file the dataset its run trained on, and the
 *   file's run `config` as read (unchecked; `undefined` for a bare model).
 * @throws BENCH_MODEL_NOT_FOUND (no such file), BENCH_BAD_MODEL (not a bounded regular file,
 *   unreadable, not JSON, not a model).
 */
export function readModelFile(path: string): {
  json: TransformerJSON;
  dataset: string | undefined;
  runConfig?: unknown;
} {
  let bytes: Uint8Array;
  try {
    bytes = readRegularFile(path, MAX_MODEL_FILE_BYTES, (r) => refusal(path, r));
  } catch (error) {
    if (error instanceof BenchError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      throw new BenchError('BENCH_MODEL_NOT_FOUND', `--model ${path}: no such file`, {
        cause: error,
      });
    throw new BenchError(
      'BENCH_BAD_MODEL',
      `--model ${path}: cannot be read (${code ?? (error as Error).message})`,
      { cause: error },
    );
  }
  if (looksLikeSafetensors(bytes)) return safetensorsModel(path, bytes);
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(bytes));
  } catch (error) {
    throw new BenchError(
      'BENCH_BAD_MODEL',
      `--model ${path} is not valid JSON (${(error as Error).message})`,
      { cause: error },
    );
  }
  if (isObject(value) && value.format === FORMAT)
    return { json: value as unknown as TransformerJSON, dataset: undefined };
  if (isObject(value) && isObject(value.model) && value.model.format === FORMAT) {
    const config = value.config;
    const dataset =
      isObject(config) && typeof config.dataset === 'string' ? config.dataset : undefined;
    return { json: value.model as unknown as TransformerJSON, dataset, runConfig: config };
  }
  throw new BenchError(
    'BENCH_BAD_MODEL',
    `--model ${path} is not a model: expected a safetensors model file, a --save-models JSON file { id, config, model } or a TransformerJSON (format "${FORMAT}")`,
  );
}

/**
 * Loads a saved model for text generation and checks it against the character vocabulary.
 *
 * @param path the model file (see {@link readModelFile}).
 * @param vocab the Tiny Shakespeare vocabulary.
 * @param registry resolves the recorded sampler (the bench registry).
 * @param file the file as {@link readModelFile} read it (read here when not given).
 * @param user the user's own `--sampler` and `--sampler-options`, which replace the file's; without
 *   them the file's options are used only if they are data (see {@link assertModelOptionsAreData}),
 *   and the file's sampler only if it is local (see {@link chooseSampleSampler}).
 * @param samplerTimeoutMs how long one sampler call may take (`--sampler-timeout`).
 * @param note receives the line saying the file's remote sampler was replaced by a local one.
 * @returns the model (the caller disposes it).
 * @throws BENCH_MODEL_NOT_FOUND, BENCH_BAD_MODEL, BENCH_MODEL_MISMATCH (another task's model),
 *   BENCH_FORBIDDEN_OPTION, ATTENTION_SAMPLER_NOT_FOUND.
 */
export function loadSampleModel(
  path: string,
  vocab: CharVocab,
  registry: SamplerRegistry,
  file: ReturnType<typeof readModelFile> = readModelFile(path),
  user: UserSamplerChoice = {},
  samplerTimeoutMs?: number,
  note: (line: string) => void = () => undefined,
): Transformer {
  const { json, dataset } = file;
  if (user.samplerOptions === undefined) assertModelOptionsAreData(path, json);
  if (dataset !== undefined && dataset !== 'shakespeare') {
    throw new BenchError(
      'BENCH_MODEL_MISMATCH',
      `--model ${path} was trained on ${dataset}; bench sample generates Tiny Shakespeare text`,
    );
  }
  const choice = chooseSampleSampler(path, json, registry, user);
  let model: Transformer;
  try {
    model = loadTransformer(json, {
      registry,
      ...choice.overrides,
      ...(samplerTimeoutMs === undefined ? {} : { samplerTimeoutMs }),
    });
  } catch (error) {
    if (
      error instanceof AttentionError &&
      (error.code === 'ATTENTION_INVALID_CHECKPOINT' || error.code === 'ATTENTION_INVALID_CONFIG')
    ) {
      throw new BenchError('BENCH_BAD_MODEL', `--model ${path}: [${error.code}] ${error.message}`, {
        cause: error,
      });
    }
    throw error;
  }
  if (choice.note !== undefined) note(choice.note);
  const { vocabSize, outputSize } = model.config;
  if (vocabSize !== vocab.size || outputSize !== vocab.size) {
    model.dispose();
    throw new BenchError(
      'BENCH_MODEL_MISMATCH',
      `--model ${path} has vocabSize ${vocabSize} and outputSize ${outputSize}; the Tiny Shakespeare vocabulary has ${vocab.size} characters (a model of another task?)`,
    );
  }
  return model;
}

/**
 * A model file is data: its recorded sampler options may set what the sampler computes
 * (`numReads`, `chains`, …), never where requests, files or credentials go.
 *
 * @throws BENCH_FORBIDDEN_OPTION naming each offending option.
 */
export function assertModelOptionsAreData(path: string, json: TransformerJSON): void {
  const config = (json as { config?: { samplerOptions?: unknown } }).config;
  assertDataOnly(
    config?.samplerOptions ?? {},
    `--model ${path}`,
    "give such options yourself with --sampler-options (they replace the file's)",
  );
}

/**
 * Encodes a prompt.
 *
 * @throws BENCH_BAD_PROMPT naming the first character outside the vocabulary.
 */
export function encodePrompt(prompt: string, vocab: CharVocab): number[] {
  const ids: number[] = [];
  let at = 0;
  for (const ch of prompt) {
    const id = vocab.idOf(ch);
    if (id < 0) {
      throw new BenchError(
        'BENCH_BAD_PROMPT',
        `--prompt character ${at} is ${JSON.stringify(ch)} (U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}), which is not in the Tiny Shakespeare vocabulary`,
      );
    }
    ids.push(id);
    at += 1;
  }
  return ids;
}

/**
 * Chooses the next token from one row of logits: argmax (first maximum) at temperature 0,
 * else a draw from softmax(logits / temperature) restricted to the top k.
 *
 * @param logits the last position's logits.
 * @param options temperature and top-k.
 * @param rng the sampling stream (one `next()` per draw; none when greedy).
 * @returns the token id.
 */
export function pickToken(logits: ArrayLike<number>, options: DecodeOptions, rng: Rng): number {
  const n = logits.length;
  let best = 0;
  for (let i = 1; i < n; i++) if (logits[i]! > logits[best]!) best = i;
  if (options.temperature === 0) return best;
  let order = Array.from({ length: n }, (_, i) => i);
  if (options.topK !== undefined && options.topK < n) {
    // A stable sort keeps the lower id first among equal logits, so top-k is deterministic.
    order = order.sort((a, b) => logits[b]! - logits[a]!).slice(0, options.topK);
  }
  const max = logits[best]!;
  const weights = order.map((i) => Math.exp((logits[i]! - max) / options.temperature));
  const total = weights.reduce((a, b) => a + b, 0);
  let u = rng.next() * total;
  for (let k = 0; k < order.length; k++) {
    u -= weights[k]!;
    if (u < 0) return order[k]!;
  }
  // Rounding left u ≥ 0 after the last weight: take the last candidate with weight > 0.
  for (let k = order.length - 1; k >= 0; k--) if (weights[k]! > 0) return order[k]!;
  return best;
}

/**
 * Generates characters autoregressively, writing each one as soon as it is chosen. The
 * context is the last `maxLength` tokens (left-truncated); shorter contexts run as shorter
 * sequences, which the model accepts for any length ≤ maxLength.
 *
 * @param model a character model of `vocab`.
 * @param vocab the vocabulary.
 * @param prompt the encoded prompt (non-empty).
 * @param options count, temperature, top-k and seed.
 * @param write receives each character.
 * @param signal stops the generation early.
 * @returns the generated text.
 */
export async function generate(
  model: Transformer,
  vocab: CharVocab,
  prompt: readonly number[],
  options: DecodeOptions & { readonly chars: number; readonly seed: number },
  write: (text: string) => void,
  signal?: AbortSignal,
): Promise<string> {
  const rng = createRng(options.seed);
  const { maxLength } = model.config;
  let context = prompt.slice(-maxLength);
  let text = '';
  for (let i = 0; i < options.chars && signal?.aborted !== true; i++) {
    const t = context.length;
    // forward() awaits the sampler, so asynchronous samplers (dqa, hardware) work too.
    const logits = await model.forward(Int32Array.from(context), 1);
    let row: Float32Array;
    try {
      row = logits.slice([0, t - 1, 0], [1, 1, model.config.outputSize]).dataSync() as Float32Array;
    } finally {
      logits.dispose();
    }
    const token = pickToken(row, options, rng);
    const ch = vocab.chars[token]!;
    write(ch);
    text += ch;
    context = context.length < maxLength ? [...context, token] : [...context.slice(1), token];
  }
  return text;
}
