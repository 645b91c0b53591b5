// A PNG encoder for 8-bit RGB images (W3C "Portable Network Graphics (PNG) Specification",
// ISO/IEC 15948): the 8-byte signature, then chunks (length, type, data, CRC-32 of type and data,
// integers big-endian): IHDR (width, height, bit depth 8, colour type 2 = truecolour, compression
// 0, filter method 0, no interlace), one IDAT of the zlib-compressed scanlines, each led by its
// filter type (0, none), and IEND.
import { deflateSync } from 'node:zlib';
import { concatBytes } from './bytes.js';
import { crc32 } from './crc32.js';

/** An image of `width × height` pixels, RGB bytes row by row from the top. */
export interface RgbImage {
  readonly width: number;
  readonly height: number;
  readonly rgb: Uint8Array;
}

const SIGNATURE = Uint8Array.from([137, 80, 78, 71, 13, 10, 26, 10]);

/** One chunk: its data's length, type, data and CRC-32 over type and data. */
function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** The image as a PNG file's bytes. */
export function encodePng(image: RgbImage): Uint8Array {
  const { width, height, rgb } = image;
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 2, 0, 0, 0], 8);
  const row = width * 3;
  const scanlines = new Uint8Array(height * (row + 1));
  for (let y = 0; y < height; y++)
    scanlines.set(rgb.subarray(y * row, (y + 1) * row), y * (row + 1) + 1);
  const parts = [
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(scanlines)),
    chunk('IEND', new Uint8Array(0)),
  ];
  return concatBytes(parts);
}
