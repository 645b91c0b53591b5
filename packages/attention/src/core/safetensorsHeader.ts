// The header of a safetensors file: its length prefix, its JSON and each entry's form, checked
// before anything is allocated for a tensor (the offsets and sizes: safetensorsReader.ts).
import { echo } from '@boltzmann/ising-core/internal';
import { AttentionError } from './errors.js';
import { MAX_SAFETENSORS_HEADER_BYTES, METADATA_KEY } from './safetensorsTypes.js';

/** One tensor entry of a header, its form checked (not yet its dtype, size or offsets). */
export interface HeaderEntry {
  readonly name: string;
  readonly dtype: string;
  readonly shape: readonly number[];
  readonly begin: number;
  readonly end: number;
}

/** A parsed header: where the byte buffer starts, the tensor entries and the metadata. */
export interface ParsedHeader {
  readonly bufferStart: number;
  readonly entries: readonly HeaderEntry[];
  readonly metadata: Readonly<Record<string, string>>;
}

const headerError = (message: string, cause?: unknown): AttentionError =>
  new AttentionError(
    'ATTENTION_SAFETENSORS_HEADER',
    message,
    cause === undefined ? undefined : { cause },
  );

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

/**
 * The first key that appears twice in one object of valid JSON `text`, or undefined. `JSON.parse`
 * keeps the last of duplicates silently; the format disallows them (huggingface/safetensors@24b0b2857fef
 * README.md, "Duplicate keys are disallowed").
 */
export function duplicateKey(text: string): string | undefined {
  const frames: { keys: Set<string> | null; expectKey: boolean }[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    const top = frames.at(-1);
    if (ch === '{') frames.push({ keys: new Set(), expectKey: true });
    else if (ch === '[') frames.push({ keys: null, expectKey: false });
    else if (ch === '}' || ch === ']') frames.pop();
    else if (ch === ',' && top?.keys) top.expectKey = true;
    else if (ch === ':' && top) top.expectKey = false;
    else if (ch === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (top?.keys && top.expectKey) {
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        if (top.keys.has(key)) return key;
        top.keys.add(key);
      }
      i = j;
    }
  }
  return undefined;
}

/** The header's length N from the first 8 bytes, checked against the file and the limit. */
function headerLength(bytes: Uint8Array): number {
  if (bytes.length < 8)
    throw headerError(
      `a safetensors file starts with an 8-byte header length; this one has ${bytes.length} bytes`,
    );
  const n = new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0, true);
  if (n > BigInt(MAX_SAFETENSORS_HEADER_BYTES))
    throw headerError(
      `header length ${n} is over the limit of ${MAX_SAFETENSORS_HEADER_BYTES} bytes (the reference reader's MAX_HEADER_SIZE)`,
    );
  if (n < 2n || 8n + n > BigInt(bytes.length))
    throw headerError(
      `header length ${n} does not fit a file of ${bytes.length} bytes (8 + ${n} bytes of header needed, at least 2)`,
    );
  return Number(n);
}

/** The header's JSON: UTF-8, starting with `{`, valid, an object, no key twice. */
function headerJson(bytes: Uint8Array, n: number): Record<string, unknown> {
  const raw = bytes.subarray(8, 8 + n);
  if (raw[0] !== 0x7b)
    throw headerError(`the header must begin with "{" (0x7b); it begins with byte ${raw[0]}`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch (error) {
    throw headerError('the header is not valid UTF-8', error);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw headerError(
      `the header is not valid JSON (${error instanceof Error ? error.message : String(error)})`,
      error,
    );
  }
  if (!isObject(value)) throw headerError(`the header must be a JSON object, got ${echo(value)}`);
  const twice = duplicateKey(text);
  if (twice !== undefined)
    throw headerError(`the header names ${echo(twice)} twice; duplicate keys are not allowed`);
  return value;
}

/** `__metadata__`: absent, or an object whose values are all strings. */
function metadataOf(value: unknown): Record<string, string> {
  if (value === undefined) return {};
  if (!isObject(value))
    throw headerError(`${METADATA_KEY} must be an object of strings, got ${echo(value)}`);
  for (const [key, v] of Object.entries(value))
    if (typeof v !== 'string')
      throw headerError(
        `${METADATA_KEY} value ${echo(key)} is ${echo(v)}; every metadata value must be a string`,
      );
  return value as Record<string, string>;
}

/** One tensor entry: `{ dtype: string, shape: counts, data_offsets: [begin, end] }`. */
function entryOf(name: string, value: unknown): HeaderEntry {
  const bad = (why: string) => headerError(`tensor ${echo(name)}: ${why}`);
  if (!isObject(value))
    throw bad(`its entry must be an object { dtype, shape, data_offsets }, got ${echo(value)}`);
  const { dtype, shape, data_offsets: offsets } = value;
  if (typeof dtype !== 'string') throw bad(`its dtype must be a string, got ${echo(dtype)}`);
  if (!Array.isArray(shape) || !shape.every(isCount))
    throw bad(`its shape must be an array of integers ≥ 0, got ${echo(shape)}`);
  if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every(isCount))
    throw bad(`its data_offsets must be [begin, end], integers ≥ 0, got ${echo(offsets)}`);
  return { name, dtype, shape, begin: offsets[0]!, end: offsets[1]! };
}

/**
 * Parses and checks the header of a safetensors file held in `bytes`.
 *
 * @throws {AttentionError} ATTENTION_SAFETENSORS_HEADER for a file shorter than 8 bytes, a
 *   header length past the file or over {@link MAX_SAFETENSORS_HEADER_BYTES}, a header that is
 *   not UTF-8 JSON object text starting with `{`, a key given twice, metadata that is not a map of
 *   strings, or a malformed tensor entry.
 */
export function parseHeader(bytes: Uint8Array): ParsedHeader {
  const n = headerLength(bytes);
  const json = headerJson(bytes, n);
  const metadata = metadataOf(json[METADATA_KEY]);
  const entries = Object.entries(json)
    .filter(([name]) => name !== METADATA_KEY)
    .map(([name, value]) => entryOf(name, value));
  return { bufferStart: 8 + n, entries, metadata };
}
