// The protocol buffers wire format, encoding only, for the few field kinds the TensorBoard
// messages use (protobuf.dev, "Encoding"): a field is a key (field number << 3 | wire type) then
// its value; varints are little-endian base-128 groups; fixed64 / fixed32 are little-endian
// doubles / floats; length-delimited fields (strings, bytes, embedded messages) are a varint
// length then the bytes. A message is the concatenation of its fields, in any order.
import { BenchError } from '../../benchError.js';
import { concatBytes } from './bytes.js';

/** The bytes of one encoded field, or of a message (its fields joined). */
export type Encoded = Uint8Array;

const VARINT = 0;
const FIXED64 = 1;
const LENGTH_DELIMITED = 2;
const FIXED32 = 5;

/**
 * A non-negative integer as a varint (up to 2^53 − 1: every step and size here).
 *
 * @throws BENCH_RUN_FAILED for a negative, fractional or unsafe value (nothing here writes one).
 */
export function varint(value: number): Encoded {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new BenchError(
      'BENCH_RUN_FAILED',
      `a protobuf varint must be a safe integer ≥ 0, got ${value}`,
    );
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
  return Uint8Array.from(bytes);
}

/** The fields (or messages) as one byte string. */
export function join(parts: readonly Encoded[]): Encoded {
  return concatBytes(parts);
}

const key = (field: number, wireType: number): Encoded => varint(field * 8 + wireType);

/** An int32 / int64 / enum / bool field of a value ≥ 0 (booleans as 0 / 1). */
export function uintField(field: number, value: number | boolean): Encoded {
  return join([key(field, VARINT), varint(typeof value === 'boolean' ? Number(value) : value)]);
}

/** A `double` field (IEEE 754 binary64, little-endian). */
export function doubleField(field: number, value: number): Encoded {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setFloat64(0, value, true);
  return join([key(field, FIXED64), bytes]);
}

/** A `float` field (IEEE 754 binary32, little-endian: the value rounded to float32). */
export function floatField(field: number, value: number): Encoded {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setFloat32(0, value, true);
  return join([key(field, FIXED32), bytes]);
}

/** A `bytes` field, or an embedded message given as its encoded fields. */
export function bytesField(field: number, value: Encoded): Encoded {
  return join([key(field, LENGTH_DELIMITED), varint(value.length), value]);
}

/** A `string` field (UTF-8). */
export function stringField(field: number, value: string): Encoded {
  return bytesField(field, new TextEncoder().encode(value));
}

/** An embedded message field from the message's fields. */
export function messageField(field: number, fields: readonly Encoded[]): Encoded {
  return bytesField(field, join(fields));
}
