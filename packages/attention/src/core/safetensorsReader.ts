// Reads a safetensors file from its bytes (browser-safe: Uint8Array and DataView only). The
// header's form is checked in safetensorsHeader.ts; here each tensor's dtype, its size against
// its shape, and the offsets: in the buffer, contiguous, without overlap or gap, covering it all
// (huggingface/safetensors@24b0b2857fef README.md "Format" and safetensors/src/tensor.rs
// `Metadata::validate`, which this follows: sorted by offset, each begins where the last ended).
import { echo } from '@boltzmann/ising-core/internal';
import { AttentionError } from './errors.js';
import { parseHeader } from './safetensorsHeader.js';
import type { HeaderEntry } from './safetensorsHeader.js';
import { DTYPE_BYTES, SAFETENSORS_DTYPES } from './safetensorsTypes.js';
import type {
  SafetensorsContents,
  SafetensorsDtype,
  SafetensorsTensor,
} from './safetensorsTypes.js';

/** True on a little-endian host, where typed arrays can view the file's bytes directly. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * True when `bytes` starts like a safetensors file: a header length whose header begins with
 * `{`. A JSON model file begins with `{` itself (or whitespace), never with such a length.
 *
 * @example
 * import { encodeSafetensors, looksLikeSafetensors } from '@boltzmann/attention';
 *
 * const bytes = encodeSafetensors({ w: { dtype: 'F32', shape: [1], data: [1] } });
 * console.log(looksLikeSafetensors(bytes), looksLikeSafetensors(new TextEncoder().encode('{"config":{}}'))); // true false
 * @category Model files
 */
export function looksLikeSafetensors(bytes: Uint8Array): boolean {
  if (bytes.length < 10) return false;
  const n = new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0, true);
  return n >= 2n && 8n + n <= BigInt(bytes.length) && bytes[8] === 0x7b;
}

/** The entry's dtype if this reader reads it, else a clear refusal (unknown, or valid but unread). */
function dtypeOf(entry: HeaderEntry): SafetensorsDtype {
  if (entry.dtype === 'F32' || entry.dtype === 'F64') return entry.dtype;
  const known = SAFETENSORS_DTYPES.includes(entry.dtype);
  throw new AttentionError(
    'ATTENTION_SAFETENSORS_DTYPE',
    known
      ? `tensor ${echo(entry.name)} has dtype ${entry.dtype}, a safetensors dtype this reader does not read (it reads F32 and F64)`
      : `tensor ${echo(entry.name)} has dtype ${echo(entry.dtype)}, which is not a safetensors dtype`,
  );
}

/** Checks that the entry's byte span is `product(shape) × dtype bytes`; returns the element count. */
function checkedSize(entry: HeaderEntry, dtype: SafetensorsDtype): number {
  let count = 1n;
  for (const d of entry.shape) count *= BigInt(d);
  const bytes = count * BigInt(DTYPE_BYTES[dtype]);
  const span = BigInt(entry.end) - BigInt(entry.begin);
  if (bytes !== span)
    throw new AttentionError(
      'ATTENTION_SAFETENSORS_SIZE',
      `tensor ${echo(entry.name)} spans ${span} bytes (data_offsets [${entry.begin}, ${entry.end}]); shape [${entry.shape.join(', ')}] of ${dtype} needs ${bytes}`,
    );
  return Number(count);
}

/** Sorts the entries by offset and checks they tile `[0, bufferLength)` exactly. */
function checkOffsets(entries: readonly HeaderEntry[], bufferLength: number): HeaderEntry[] {
  const bad = (message: string) => new AttentionError('ATTENTION_SAFETENSORS_OFFSETS', message);
  const sorted = [...entries].sort((a, b) => a.begin - b.begin || a.end - b.end);
  let at = 0;
  for (const e of sorted) {
    const where = `tensor ${echo(e.name)} (data_offsets [${e.begin}, ${e.end}])`;
    if (e.end < e.begin) throw bad(`${where} ends before it begins`);
    if (e.end > bufferLength)
      throw bad(`${where} runs past the byte buffer's ${bufferLength} bytes`);
    if (e.begin < at) throw bad(`${where} overlaps the tensor before it, which ends at ${at}`);
    if (e.begin > at)
      throw bad(`${where} leaves bytes ${at}–${e.begin} of the buffer unused (a gap)`);
    at = e.end;
  }
  if (at !== bufferLength)
    throw bad(
      `the tensors cover ${at} of the byte buffer's ${bufferLength} bytes; the rest is not indexed`,
    );
  return sorted;
}

/** The tensor's values: a view of `bytes` when aligned on a little-endian host, else a copy. */
function valuesOf(
  bytes: Uint8Array,
  at: number,
  count: number,
  dtype: SafetensorsDtype,
): Float32Array | Float64Array {
  const size = DTYPE_BYTES[dtype];
  const offset = bytes.byteOffset + at;
  if (LITTLE_ENDIAN && offset % size === 0)
    return dtype === 'F32'
      ? new Float32Array(bytes.buffer, offset, count)
      : new Float64Array(bytes.buffer, offset, count);
  const out = dtype === 'F32' ? new Float32Array(count) : new Float64Array(count);
  if (LITTLE_ENDIAN) {
    new Uint8Array(out.buffer).set(bytes.subarray(at, at + count * size));
    return out;
  }
  const view = new DataView(bytes.buffer, offset, count * size);
  for (let i = 0; i < count; i++)
    out[i] = dtype === 'F32' ? view.getFloat32(i * 4, true) : view.getFloat64(i * 8, true);
  return out;
}

/**
 * Decodes a safetensors file.
 *
 * Everything is checked before a value is read: the header (see `parseHeader`), each dtype, the
 * offsets, and each size against its shape. An aligned tensor is a view of `bytes` (no copy; it
 * changes if `bytes` does), an unaligned one a copy.
 *
 * @throws {AttentionError} ATTENTION_SAFETENSORS_HEADER (length, JSON, duplicate key, metadata,
 *   entry form); ATTENTION_SAFETENSORS_DTYPE (unknown, or not F32/F64); ATTENTION_SAFETENSORS_SIZE
 *   (span ≠ product(shape) × dtype bytes); ATTENTION_SAFETENSORS_OFFSETS (out of the buffer,
 *   overlapping, leaving a gap or an unindexed tail).
 * @example
 * import { decodeSafetensors, encodeSafetensors } from '@boltzmann/attention';
 *
 * const bytes = encodeSafetensors({ w: { dtype: 'F32', shape: [2], data: [1, 2] } }, { note: 'hi' });
 * const { tensors, metadata } = decodeSafetensors(bytes);
 * console.log(tensors.get('w'), metadata); // { dtype: 'F32', shape: [2], data: Float32Array [1, 2] } { note: 'hi' }
 * @category Model files
 */
export function decodeSafetensors(bytes: Uint8Array): SafetensorsContents {
  const { bufferStart, entries, metadata } = parseHeader(bytes);
  const dtypes = entries.map(dtypeOf);
  const dtypeByName = new Map(entries.map((e, i) => [e.name, dtypes[i]!]));
  const sorted = checkOffsets(entries, bytes.length - bufferStart);
  const counts = sorted.map((e) => checkedSize(e, dtypeByName.get(e.name)!));
  const tensors = new Map<string, SafetensorsTensor>();
  sorted.forEach((e, i) => {
    const dtype = dtypeByName.get(e.name)!;
    const data = valuesOf(bytes, bufferStart + e.begin, counts[i]!, dtype);
    tensors.set(e.name, { dtype, shape: [...e.shape], data });
  });
  return { tensors, metadata };
}
