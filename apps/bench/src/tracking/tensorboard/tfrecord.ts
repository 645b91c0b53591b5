// TFRecord framing, the container of a TensorBoard events file: each record is
//   uint64 length (little-endian) | uint32 masked CRC-32C of those 8 bytes | data | uint32 masked
//   CRC-32C of data
// (tensorflow/tensorboard@ff9ca80c12f2, tensorboard/summary/writer/record_writer.py).
import { maskedCrc32c } from './crc32.js';

/** One record framed: header, its checksum, the data, and the data's checksum. */
export function tfRecord(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(8 + 4 + data.length + 4);
  const view = new DataView(out.buffer);
  view.setBigUint64(0, BigInt(data.length), true);
  view.setUint32(8, maskedCrc32c(out.subarray(0, 8)), true);
  out.set(data, 12);
  view.setUint32(12 + data.length, maskedCrc32c(data), true);
  return out;
}
