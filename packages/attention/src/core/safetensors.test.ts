// The safetensors reader against hand-built byte fixtures: the format's own examples
// (huggingface/safetensors@24b0b2857fef safetensors/src/tensor.rs tests: test_deserialization,
// test_metadata_incomplete_buffer, test_header_too_large, test_header_too_small,
// test_invalid_header_length, test_invalid_header_non_utf8, test_json_attack), and each refusal.
import { describe, expect, it } from 'vitest';
import { decodeSafetensors, looksLikeSafetensors } from './safetensorsReader.js';
import { encodeSafetensors } from './safetensorsWriter.js';

const ascii = (s: string): number[] => Array.from(s, (c) => c.charCodeAt(0));

/** An 8-byte little-endian length, the header text, then the buffer bytes. */
function file(header: string, buffer: number[] = [], length?: number): Uint8Array {
  const text = ascii(header);
  const n = length ?? text.length;
  const prefix = Array.from({ length: 8 }, (_, i) => (i < 4 ? (n >>> (8 * i)) & 0xff : 0));
  return Uint8Array.from([...prefix, ...text, ...buffer]);
}

const entry = (dtype: string, shape: number[], begin: number, end: number) =>
  `{"dtype":"${dtype}","shape":${JSON.stringify(shape)},"data_offsets":[${begin},${end}]}`;

/** 1, 2, −0.5 and 4 as little-endian float32 bytes. */
const FOUR_FLOATS = [
  [0x00, 0x00, 0x80, 0x3f],
  [0x00, 0x00, 0x00, 0x40],
  [0x00, 0x00, 0x00, 0xbf],
  [0x00, 0x00, 0x80, 0x40],
].flat();

const refusal = (bytes: Uint8Array) => {
  try {
    decodeSafetensors(bytes);
  } catch (error) {
    return error as { code: string; message: string };
  }
  throw new Error('decoded a file that should have been refused');
};

describe('decodeSafetensors: the format specification examples', () => {
  it("reads the spec's 2×2 tensor (its I32 made F32) whose header length is '<' = 60", () => {
    const bytes = file(`{"test":${entry('F32', [2, 2], 0, 16)}}`, FOUR_FLOATS);
    expect(bytes[0]).toBe(0x3c);
    const { tensors, metadata } = decodeSafetensors(bytes);
    expect([...tensors.keys()]).toEqual(['test']);
    expect(tensors.get('test')).toMatchObject({ dtype: 'F32', shape: [2, 2] });
    expect(Array.from(tensors.get('test')!.data)).toEqual([1, 2, -0.5, 4]);
    expect(metadata).toEqual({});
  });

  it("refuses the spec's own I32 example clearly: a valid dtype this reader does not read", () => {
    const e = refusal(file(`{"test":${entry('I32', [2, 2], 0, 16)}}`, Array(16).fill(0)));
    expect(e.code).toBe('ATTENTION_SAFETENSORS_DTYPE');
    expect(e.message).toMatch(/I32, a safetensors dtype this reader does not read/);
  });

  it('test_metadata_incomplete_buffer: trailing bytes after the tensors, and 2 bytes missing', () => {
    const header = `{"test":${entry('F32', [2, 2], 0, 16)}}`;
    const extra = refusal(file(header, [...FOUR_FLOATS, ...ascii('extra_bogus_data')]));
    expect(extra).toMatchObject({ code: 'ATTENTION_SAFETENSORS_OFFSETS' });
    expect(extra.message).toMatch(/cover 16 of the byte buffer's 32 bytes/);
    const short = refusal(file(header, FOUR_FLOATS.slice(0, 14)));
    expect(short).toMatchObject({ code: 'ATTENTION_SAFETENSORS_OFFSETS' });
    expect(short.message).toMatch(/runs past the byte buffer's 14 bytes/);
  });

  it('test_header_too_large, test_header_too_small, test_invalid_header_length', () => {
    const huge = file(`{"test":${entry('F32', [2, 2], 0, 16)}}`, FOUR_FLOATS);
    huge.set([0xff, 0xff, 0xff], 5);
    expect(refusal(huge).message).toMatch(/over the limit of 100000000 bytes/);
    expect(refusal(new Uint8Array(0))).toMatchObject({ code: 'ATTENTION_SAFETENSORS_HEADER' });
    const lengthOnly = refusal(file('', [], 60));
    expect(lengthOnly.code).toBe('ATTENTION_SAFETENSORS_HEADER');
    expect(lengthOnly.message).toMatch(/does not fit a file of 8 bytes/);
  });

  it('test_invalid_header_non_utf8 (byte 0xff), and UTF-8 that is broken after a valid "{"', () => {
    const e = refusal(Uint8Array.from([1, 0, 0, 0, 0, 0, 0, 0, 0xff]));
    expect(e).toMatchObject({ code: 'ATTENTION_SAFETENSORS_HEADER' });
    const broken = file('{"a\xff":1}');
    expect(refusal(broken).message).toMatch(/not valid UTF-8/);
  });

  it('test_json_attack: ten tensors claiming the same 16 bytes overlap', () => {
    const names = Array.from(
      { length: 10 },
      (_, i) => `"weight_${i}":${entry('F32', [2, 2], 0, 16)}`,
    );
    const e = refusal(file(`{${names.join(',')}}`, Array(16).fill(0)));
    expect(e.code).toBe('ATTENTION_SAFETENSORS_OFFSETS');
    expect(e.message).toMatch(/overlaps the tensor before it/);
  });
});

describe('decodeSafetensors: what the format allows', () => {
  it('a header padded with spaces, metadata strings, an empty tensor and a scalar', () => {
    const header = `{"__metadata__":{"k":"v"},"empty":${entry('F32', [0, 3], 0, 0)},"s":${entry('F64', [], 0, 8)}}    `;
    const one = [0, 0, 0, 0, 0, 0, 0xf0, 0x3f]; // 1.0 as a little-endian float64
    const { tensors, metadata } = decodeSafetensors(file(header, one));
    expect(metadata).toEqual({ k: 'v' });
    expect(tensors.get('empty')!.data).toHaveLength(0);
    expect(tensors.get('s')).toMatchObject({ dtype: 'F64', shape: [] });
    expect(Array.from(tensors.get('s')!.data)).toEqual([1]);
  });

  it('tensors listed out of buffer order come back in buffer order', () => {
    const header = `{"b":${entry('F32', [1], 4, 8)},"a":${entry('F32', [1], 0, 4)}}`;
    const { tensors } = decodeSafetensors(file(header, FOUR_FLOATS.slice(0, 8)));
    expect([...tensors.keys()]).toEqual(['a', 'b']);
    expect(Array.from(tensors.get('b')!.data)).toEqual([2]);
  });

  it('an unaligned tensor (the file at an odd byte offset) is copied, an aligned one is a view', () => {
    const bytes = encodeSafetensors({ w: { dtype: 'F32', shape: [3], data: [1.5, -2, 3] } });
    const odd = new Uint8Array(bytes.length + 1);
    odd.set(bytes, 1);
    const shifted = decodeSafetensors(odd.subarray(1)).tensors.get('w')!.data;
    expect(Array.from(shifted)).toEqual([1.5, -2, 3]);
    expect(shifted.buffer).not.toBe(odd.buffer);
    expect(decodeSafetensors(bytes).tensors.get('w')!.data.buffer).toBe(bytes.buffer);
  });

  it('looksLikeSafetensors tells a safetensors file from JSON text', () => {
    expect(looksLikeSafetensors(file(`{"a":${entry('F32', [1], 0, 4)}}`, [0, 0, 0, 0]))).toBe(true);
    expect(looksLikeSafetensors(new TextEncoder().encode('{"format":"x","weights":{}}'))).toBe(
      false,
    );
    expect(looksLikeSafetensors(new Uint8Array(3))).toBe(false);
  });
});

describe('decodeSafetensors: every refusal has its code', () => {
  const cases: [string, Uint8Array, string, RegExp][] = [
    ['non-JSON', file('{"a":'), 'HEADER', /not valid JSON/],
    ['a header not starting with {', file(' {}'), 'HEADER', /must begin with "\{"/],
    ['a JSON array header', file('[1]'), 'HEADER', /must begin with/],
    [
      'a name given twice',
      file(`{"a":${entry('F32', [1], 0, 4)},"a":${entry('F32', [1], 4, 8)}}`, Array(8).fill(0)),
      'HEADER',
      /names "a" twice/,
    ],
    ['a metadata number', file('{"__metadata__":{"step":3}}'), 'HEADER', /must be a string/],
    ['metadata as an array', file('{"__metadata__":["x"]}'), 'HEADER', /object of strings/],
    [
      'an entry without offsets',
      file('{"a":{"dtype":"F32","shape":[1]}}'),
      'HEADER',
      /data_offsets/,
    ],
    ['a negative dimension', file(`{"a":${entry('F32', [-1], 0, 4)}}`), 'HEADER', /shape/],
    [
      'an unknown dtype',
      file(`{"a":${entry('F31', [1], 0, 4)}}`, [0, 0, 0, 0]),
      'DTYPE',
      /not a safetensors dtype/,
    ],
    [
      'F16',
      file(`{"a":${entry('F16', [2], 0, 4)}}`, [0, 0, 0, 0]),
      'DTYPE',
      /F16, a safetensors dtype/,
    ],
    ['BF16', file(`{"a":${entry('BF16', [2], 0, 4)}}`, [0, 0, 0, 0]), 'DTYPE', /BF16/],
    [
      'size ≠ shape × 4',
      file(`{"a":${entry('F32', [3], 0, 8)}}`, Array(8).fill(0)),
      'SIZE',
      /shape \[3\] of F32 needs 12/,
    ],
    [
      'a gap between tensors',
      file(`{"a":${entry('F32', [1], 0, 4)},"b":${entry('F32', [1], 8, 12)}}`, Array(12).fill(0)),
      'OFFSETS',
      /leaves bytes 4–8 of the buffer unused/,
    ],
    [
      'an end before its begin',
      file(`{"a":${entry('F32', [0], 4, 0)}}`, Array(4).fill(0)),
      'OFFSETS',
      /ends before it begins/,
    ],
    [
      'offsets past the buffer',
      file(`{"a":${entry('F32', [2], 0, 8)}}`, Array(4).fill(0)),
      'OFFSETS',
      /runs past/,
    ],
  ];
  it.each(cases)('%s', (_, bytes, code, message) => {
    const e = refusal(bytes);
    expect(e.code).toBe(`ATTENTION_SAFETENSORS_${code}`);
    expect(e.message).toMatch(message);
  });
});
