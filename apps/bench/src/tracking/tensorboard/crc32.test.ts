import { describe, expect, it } from 'vitest';
import { crc32, crc32c, maskedCrc32c } from './crc32.js';
import { tfRecord } from './tfrecord.js';

const ascii = (s: string) => new TextEncoder().encode(s);

describe('crc32', () => {
  it('CRC-32C and CRC-32 give the standard check values of "123456789"', () => {
    expect(crc32c(ascii('123456789'))).toBe(0xe3069283);
    expect(crc32(ascii('123456789'))).toBe(0xcbf43926);
    expect(crc32c(new Uint8Array(0))).toBe(0);
  });

  it('CRC-32C of 32 zero bytes is the RFC 3720 (iSCSI) test vector', () => {
    expect(crc32c(new Uint8Array(32))).toBe(0x8a9136aa);
  });

  it('masks as TensorFlow does: rotate right by 15, add 0xA282EAD8', () => {
    const crc = 0xe3069283;
    const rotated = ((crc >>> 15) | (crc << 17)) >>> 0;
    expect(maskedCrc32c(ascii('123456789'))).toBe((rotated + 0xa282ead8) % 2 ** 32);
  });
});

describe('tfRecord', () => {
  it('frames data as length, masked CRC of the length, data, masked CRC of the data', () => {
    const data = ascii('abc');
    const record = tfRecord(data);
    const view = new DataView(record.buffer);
    expect(record.length).toBe(8 + 4 + 3 + 4);
    expect(view.getBigUint64(0, true)).toBe(3n);
    expect(view.getUint32(8, true)).toBe(maskedCrc32c(record.subarray(0, 8)));
    expect(Array.from(record.subarray(12, 15))).toEqual(Array.from(data));
    expect(view.getUint32(15, true)).toBe(maskedCrc32c(data));
  });
});
