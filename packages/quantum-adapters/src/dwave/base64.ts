import { echo } from '@boltzmann/ising-core/internal';
import { malformed } from '../shared/errors.js';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Standard base64 with padding, one line (what SAPI expects). */
export function encodeBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/**
 * Strict base64 decode: Node's decoder silently skips bad characters, which would turn a corrupt
 * answer into plausible-looking numbers, so the alphabet and padding are checked first.
 * MIME line breaks are tolerated because old SAPI examples contain them.
 */
export function decodeBase64(text: unknown, what: string): Uint8Array {
  if (typeof text !== 'string')
    throw malformed(`${what} must be a base64 string, got ${typeof text}`);
  const clean = text.replace(/[\r\n]/g, '');
  if (clean.length % 4 !== 0 || !BASE64.test(clean)) {
    throw malformed(`${what} is not valid base64 (${echo(clean, 24)}, length ${clean.length})`);
  }
  return new Uint8Array(Buffer.from(clean, 'base64'));
}

/** Little-endian float64 array → base64. */
export function encodeFloat64LE(values: readonly number[]): string {
  const view = new DataView(new ArrayBuffer(8 * values.length));
  values.forEach((v, i) => view.setFloat64(8 * i, v, true));
  return encodeBase64(new Uint8Array(view.buffer));
}

function view(bytes: Uint8Array, width: number, what: string): DataView {
  if (bytes.byteLength % width !== 0) {
    throw malformed(`${what} has ${bytes.byteLength} bytes, not a multiple of ${width}`);
  }
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** base64 → little-endian float64 values. */
export function decodeFloat64LE(text: unknown, what: string): Float64Array {
  const v = view(decodeBase64(text, what), 8, what);
  const out = new Float64Array(v.byteLength / 8);
  for (let i = 0; i < out.length; i++) out[i] = v.getFloat64(8 * i, true);
  return out;
}

/** base64 → little-endian int32 values. */
export function decodeInt32LE(text: unknown, what: string): Int32Array {
  const v = view(decodeBase64(text, what), 4, what);
  const out = new Int32Array(v.byteLength / 4);
  for (let i = 0; i < out.length; i++) out[i] = v.getInt32(4 * i, true);
  return out;
}

/** Little-endian int32 values → base64 (used by the test servers to build answers). */
export function encodeInt32LE(values: readonly number[]): string {
  const v = new DataView(new ArrayBuffer(4 * values.length));
  values.forEach((x, i) => v.setInt32(4 * i, x, true));
  return encodeBase64(new Uint8Array(v.buffer));
}
