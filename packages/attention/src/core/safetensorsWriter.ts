// Writes a safetensors file (browser-safe: Uint8Array and DataView only). As the reference
// writer does (huggingface/safetensors@24b0b2857fef safetensors/src/tensor.rs, `prepare`): the
// tensors go by descending dtype size, then by name, so each one's data is aligned to its dtype;
// the header is padded with spaces to a multiple of 8 bytes, so the buffer starts 8-aligned.
import { echo } from '@boltzmann/ising-core/internal';
import { AttentionError } from './errors.js';
import { DTYPE_BYTES, METADATA_KEY } from './safetensorsTypes.js';
import type { SafetensorsDtype } from './safetensorsTypes.js';

/**
 * A tensor to write: its values may be any numbers (F32 rounds them to float32).
 *
 * @category Model files
 */
export interface SafetensorsTensorInput {
  readonly dtype: SafetensorsDtype;
  readonly shape: readonly number[];
  readonly data: ArrayLike<number>;
}

const invalid = (message: string): AttentionError =>
  new AttentionError('ATTENTION_INVALID_ARGUMENT', message);

/** Checks one tensor to write: a known dtype, a shape of counts, as many values as it needs. */
function checkTensor(name: string, t: SafetensorsTensorInput): void {
  if (name === METADATA_KEY) throw invalid(`a tensor may not be named ${METADATA_KEY}`);
  if (t.dtype !== 'F32' && t.dtype !== 'F64')
    throw invalid(`tensor ${echo(name)}: dtype ${echo(t.dtype)}; this writer writes F32 and F64`);
  if (!t.shape.every((d) => Number.isSafeInteger(d) && d >= 0))
    throw invalid(`tensor ${echo(name)}: shape ${echo(t.shape)} must hold integers ≥ 0`);
  const size = t.shape.reduce((a, b) => a * b, 1);
  if (t.data.length !== size)
    throw invalid(
      `tensor ${echo(name)} has ${t.data.length} values; shape [${t.shape.join(', ')}] needs ${size}`,
    );
}

/** The header's bytes: `__metadata__` first, then each tensor's entry; padded to a multiple of 8. */
function headerBytes(
  order: readonly [string, SafetensorsTensorInput][],
  metadata: Readonly<Record<string, string>>,
): { header: Uint8Array; offsets: number[] } {
  // No prototype: a tensor named `__proto__` is an entry like any other, not a prototype.
  const json: Record<string, unknown> = Object.create(null);
  if (Object.keys(metadata).length > 0) json[METADATA_KEY] = metadata;
  const offsets: number[] = [];
  let at = 0;
  for (const [name, t] of order) {
    offsets.push(at);
    const end = at + t.data.length * DTYPE_BYTES[t.dtype];
    json[name] = { dtype: t.dtype, shape: [...t.shape], data_offsets: [at, end] };
    at = end;
  }
  const text = new TextEncoder().encode(JSON.stringify(json));
  const header = new Uint8Array(Math.ceil(text.length / 8) * 8).fill(0x20);
  header.set(text);
  return { header, offsets };
}

/**
 * Encodes tensors and string metadata as a safetensors file. F32 values are rounded to float32
 * (`Math.fround`); F64 keeps every number as it is.
 *
 * @throws {AttentionError} ATTENTION_INVALID_ARGUMENT for a tensor named `__metadata__`, a dtype
 *   other than F32/F64, a shape not of integers ≥ 0, a value count ≠ product(shape), or a
 *   metadata value that is not a string.
 * @example
 * import { encodeSafetensors } from '@boltzmann/attention';
 *
 * const bytes = encodeSafetensors({ w: { dtype: 'F32', shape: [2], data: [1, 2] } }, { note: 'hi' });
 * console.log(bytes.length); // 8-byte header length, the JSON header, then 8 bytes of data
 * @category Model files
 */
export function encodeSafetensors(
  tensors: Readonly<Record<string, SafetensorsTensorInput>>,
  metadata: Readonly<Record<string, string>> = {},
): Uint8Array {
  for (const [key, value] of Object.entries(metadata))
    if (typeof value !== 'string')
      throw invalid(`metadata ${echo(key)} is ${echo(value)}; metadata values must be strings`);
  const order = Object.entries(tensors);
  for (const [name, t] of order) checkTensor(name, t);
  order.sort(
    ([a, x], [b, y]) => DTYPE_BYTES[y.dtype] - DTYPE_BYTES[x.dtype] || (a < b ? -1 : a > b ? 1 : 0),
  );
  const { header, offsets } = headerBytes(order, metadata);
  const dataBytes = order.reduce((sum, [, t]) => sum + t.data.length * DTYPE_BYTES[t.dtype], 0);
  const out = new Uint8Array(8 + header.length + dataBytes);
  const view = new DataView(out.buffer);
  view.setBigUint64(0, BigInt(header.length), true);
  out.set(header, 8);
  const start = 8 + header.length;
  order.forEach(([, t], i) => {
    const at = start + offsets[i]!;
    const f32 = t.dtype === 'F32';
    for (let k = 0; k < t.data.length; k++)
      if (f32) view.setFloat32(at + k * 4, t.data[k]!, true);
      else view.setFloat64(at + k * 8, t.data[k]!, true);
  });
  return out;
}
