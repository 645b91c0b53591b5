// Byte strings the event-file writer builds from parts (protobuf fields, PNG chunks, records).

/** The parts, one after another, as one byte string. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
