// Table-driven CRC-32 in its reflected form, for the two polynomials the TensorBoard files need:
// CRC-32C (Castagnoli, 0x82F63B78 reflected) frames TFRecords, and the PNG chunks of the J
// heatmap carry the ISO-HDLC CRC-32 (0xEDB88320 reflected, the one of zlib and PNG).
// Check values ("123456789"): CRC-32C 0xE3069283, CRC-32 0xCBF43926 (the catalogue of
// parametrised CRC algorithms; both pinned in crc32.test.ts).

/** A CRC-32 of bytes, as an unsigned 32-bit integer. */
export type Crc32 = (bytes: Uint8Array) => number;

/** The 256-entry table of a reflected CRC-32 polynomial. */
function tableOf(reflectedPoly: number): Uint32Array {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ reflectedPoly : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
}

/** A CRC-32 with initial value and final XOR 0xFFFFFFFF, input and output reflected. */
function crc32Of(reflectedPoly: number): Crc32 {
  const table = tableOf(reflectedPoly);
  return (bytes) => {
    let c = 0xffffffff;
    for (const b of bytes) c = table[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
}

/** CRC-32C (Castagnoli), the checksum of TFRecord framing. */
export const crc32c: Crc32 = crc32Of(0x82f63b78);

/** CRC-32 (ISO-HDLC), the checksum of PNG chunks. */
export const crc32: Crc32 = crc32Of(0xedb88320);

/**
 * The masked CRC-32C a TFRecord stores: the CRC rotated right by 15 bits plus the constant
 * 0xA282EAD8, modulo 2^32 (tensorflow/tensorboard@ff9ca80c12f2,
 * tensorboard/compat/tensorflow_stub/pywrap_tensorflow.py `masked_crc32c`).
 */
export function maskedCrc32c(bytes: Uint8Array): number {
  const crc = crc32c(bytes);
  return ((((crc >>> 15) | (crc << 17)) >>> 0) + 0xa282ead8) >>> 0;
}
