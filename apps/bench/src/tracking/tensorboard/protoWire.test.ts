import { describe, expect, it } from 'vitest';
import {
  bytesField,
  doubleField,
  floatField,
  messageField,
  stringField,
  uintField,
  varint,
} from './protoWire.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('protobuf wire encoding', () => {
  it('writes varints as little-endian base-128 groups (protobuf.dev examples: 1, 150, 300)', () => {
    expect(hex(varint(0))).toBe('00');
    expect(hex(varint(1))).toBe('01');
    expect(hex(varint(150))).toBe('9601');
    expect(hex(varint(300))).toBe('ac02');
    expect(hex(varint(2 ** 32))).toBe('8080808010');
    expect(hex(varint(Number.MAX_SAFE_INTEGER))).toBe('ffffffffffffff0f');
  });

  it('refuses what is not a safe integer ≥ 0', () => {
    expect(() => varint(-1)).toThrow(/BENCH_RUN_FAILED|safe integer/);
    expect(() => varint(1.5)).toThrow(/safe integer/);
  });

  it('keys each field with its number and wire type', () => {
    // protobuf.dev's "test1 { a: 150 }" is 08 96 01.
    expect(hex(uintField(1, 150))).toBe('089601');
    expect(hex(uintField(4, true))).toBe('2001');
    // wall_time = 1 (double, wire type 1): key 0x09, then 1.0 little-endian.
    expect(hex(doubleField(1, 1))).toBe('09000000000000f03f');
    expect(hex(doubleField(1, -2.5))).toBe('0900000000000004c0');
    // simple_value = 2 (float, wire type 5): key 0x15.
    expect(hex(floatField(2, 1))).toBe('150000803f');
    // protobuf.dev's "test2 { b: \"testing\" }" is 12 07 74 65 73 74 69 6e 67.
    expect(hex(stringField(2, 'testing'))).toBe('120774657374696e67');
    expect(hex(bytesField(4, Uint8Array.from([1, 2])))).toBe('22020102');
    // An embedded message: test3 { c { a: 150 } } is 1a 03 08 96 01.
    expect(hex(messageField(3, [uintField(1, 150)]))).toBe('1a03089601');
  });
});
