// The safetensors format's types and limits (the reader is safetensorsReader.ts, the writer
// safetensorsWriter.ts). The format, as read from huggingface/safetensors@24b0b2857fef
// README.md ("Format") and safetensors/src/tensor.rs: 8 bytes, a little-endian u64 N; N bytes of
// UTF-8 JSON starting with `{` (optionally padded with spaces) mapping each tensor's name to
// `{ dtype, shape, data_offsets: [begin, end] }`, plus an optional `__metadata__` map of strings;
// then the byte buffer, which the tensors cover exactly (offsets relative to its start).

/**
 * The dtypes this package reads and writes: 32- and 64-bit IEEE floats, little-endian.
 *
 * @category Model files
 */
export type SafetensorsDtype = 'F32' | 'F64';

/**
 * One tensor: its dtype, its shape (row-major) and its values.
 *
 * @category Model files
 */
export interface SafetensorsTensor {
  readonly dtype: SafetensorsDtype;
  readonly shape: readonly number[];
  /** `product(shape)` values; a `Float32Array` for F32, a `Float64Array` for F64. */
  readonly data: Float32Array | Float64Array;
}

/**
 * A decoded safetensors file: its tensors by name (in buffer order) and its `__metadata__`.
 *
 * @category Model files
 */
export interface SafetensorsContents {
  readonly tensors: ReadonlyMap<string, SafetensorsTensor>;
  readonly metadata: Readonly<Record<string, string>>;
}

/** Bytes of one element of each dtype this package reads. */
export const DTYPE_BYTES: Readonly<Record<SafetensorsDtype, number>> = { F32: 4, F64: 8 };

/**
 * Every dtype the format defines (huggingface/safetensors@24b0b2857fef safetensors/src/tensor.rs,
 * `enum Dtype`), so that a valid file of another dtype is told apart from a corrupt one.
 */
export const SAFETENSORS_DTYPES: readonly string[] = [
  'BOOL',
  'F4',
  'F6_E2M3',
  'F6_E3M2',
  'U8',
  'I8',
  'F8_E5M2',
  'F8_E4M3',
  'F8_E8M0',
  'F8_E4M3FNUZ',
  'F8_E5M2FNUZ',
  'I16',
  'U16',
  'F16',
  'BF16',
  'I32',
  'U32',
  'F32',
  'C64',
  'F64',
  'I64',
  'U64',
];

/**
 * The largest header this reader accepts: the reference implementation's `MAX_HEADER_SIZE`
 * (100,000,000 bytes, huggingface/safetensors@24b0b2857fef safetensors/src/tensor.rs).
 * @category Model files
 */
export const MAX_SAFETENSORS_HEADER_BYTES = 100_000_000;

/** The key of the free-form string map in the header. */
export const METADATA_KEY = '__metadata__';
