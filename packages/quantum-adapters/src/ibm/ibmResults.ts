// Sampler V2 results (`GET jobs/{id}/results`) decoded into ising-core sample sets: each shot a hex
// integer whose bit k is classical bit c[k], mapped to its logical spin, identical states merged.
import type { SampleSet } from '@boltzmann/ising-core';
import { echo } from '@boltzmann/ising-core/internal';
import { invalidArgument, malformed } from '../shared/errors.js';

/**
 * How to read one pub's answer: its register, its width, and which logical spin each bit holds.
 *
 * @category IBM Quantum
 */
export interface SamplerPubLayout {
  /** The classical register's name (the `data` key), e.g. `c` or `meas`. */
  readonly register: string;
  /** The register's width (`num_bits`). */
  readonly numBits: number;
  /** Classical bit k holds logical spin `logicalOfBit[k]`: a permutation of 0 … numBits − 1. */
  readonly logicalOfBit: readonly number[];
  /** The shots the pub asked for; when given, an answer with any other count is refused. */
  readonly shots?: number;
}

/** Bytes a results answer may hold beyond its shots: metadata, per pub and once. */
const RESULT_BYTES_PER_PUB = 64 * 1024;
const RESULT_BYTES_BASE = 1024 * 1024;

/**
 * The most bytes a results answer for `pubs` may take: each shot a quoted hex string of its width
 * (with room for padding and whitespace), plus metadata. A longer answer holds more shots than
 * were asked, so it is refused before it is read whole, let alone decoded (issue 38: 3,000,000
 * shots answered for 64 asked cost 99 MiB).
 */
export function resultsByteLimit(pubs: readonly SamplerPubLayout[]): number {
  let bytes = RESULT_BYTES_BASE;
  for (const { numBits, shots } of pubs)
    bytes += RESULT_BYTES_PER_PUB + (shots ?? 0) * (Math.ceil(numBits / 4) + 5 + 32);
  return bytes;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

const HEX = /^(?:0[xX])?([0-9a-fA-F]+)$/;

/** Rejects a layout that is not a register name, a positive width and a permutation of that width. */
function checkLayout(layout: SamplerPubLayout, i: number): void {
  const { register, numBits, logicalOfBit } = layout;
  if (typeof register !== 'string' || register === '')
    throw invalidArgument(`pub ${i}: register must be a non-empty string, got ${echo(register)}`);
  if (!Number.isInteger(numBits) || numBits < 1)
    throw invalidArgument(`pub ${i}: numBits must be a positive integer, got ${echo(numBits)}`);
  if (layout.shots !== undefined && (!Number.isInteger(layout.shots) || layout.shots < 1))
    throw invalidArgument(`pub ${i}: shots must be a positive integer, got ${echo(layout.shots)}`);
  const seen = new Uint8Array(numBits);
  const ok =
    Array.isArray(logicalOfBit) &&
    logicalOfBit.length === numBits &&
    logicalOfBit.every((q) => {
      if (!Number.isInteger(q) || q < 0 || q >= numBits || seen[q] === 1) return false;
      seen[q] = 1;
      return true;
    });
  if (!ok)
    throw invalidArgument(
      `pub ${i}: logicalOfBit must be a permutation of 0…${numBits - 1}, got ${echo(logicalOfBit)}`,
    );
}

/**
 * A shot as lowercase hex digits without prefix or leading zeros (`"0"` for zero), so equal states
 * have equal keys.
 * @throws {AdapterError} ADAPTER_MALFORMED when it is not a hex string or has a bit at or above `numBits`.
 */
function shotKey(sample: unknown, numBits: number, where: string): string {
  const m = typeof sample === 'string' ? HEX.exec(sample) : null;
  if (m === null)
    throw malformed(`${where} is not a hex string such as "0x1f": ${echo(sample, 80)}`);
  const digits = m[1]!.toLowerCase().replace(/^0+/, '') || '0';
  const top = Number.parseInt(digits[0]!, 16);
  const bitLength = top === 0 ? 0 : (digits.length - 1) * 4 + (32 - Math.clz32(top));
  if (bitLength > numBits)
    throw malformed(
      `${where} has ${bitLength} bits, more than num_bits ${numBits}: ${echo(sample, 80)}`,
    );
  return digits;
}

/** Writes the spins of one shot (bit 0 → +1, bit 1 → −1) at logical positions, from `offset`. */
function writeSpins(
  key: string,
  logicalOfBit: readonly number[],
  states: Int8Array,
  offset: number,
): void {
  for (let k = 0; k < logicalOfBit.length; k++) {
    const d = key.length - 1 - (k >> 2);
    const nibble = d >= 0 ? Number.parseInt(key[d]!, 16) : 0;
    states[offset + logicalOfBit[k]!] = (nibble >> (k & 3)) & 1 ? -1 : 1;
  }
}

/** One pub's `data[register]`: its shots checked, merged, and mapped to logical spins. */
function decodePub(entry: unknown, layout: SamplerPubLayout, i: number): SampleSet {
  const where = `result ${i}`;
  const data = isObject(entry) ? entry.data : undefined;
  if (!isObject(data)) throw malformed(`${where} has no data object: ${echo(entry, 200)}`);
  const reg = data[layout.register];
  if (!isObject(reg))
    throw malformed(
      `${where} has no register "${layout.register}" (it has ${echo(Object.keys(data), 100)})`,
    );
  const { samples, num_bits: numBits } = reg;
  if (numBits !== layout.numBits)
    throw malformed(
      `${where}: register "${layout.register}" has num_bits ${echo(numBits)}, the circuit measures ${layout.numBits}`,
    );
  if (!Array.isArray(samples) || samples.length === 0)
    throw malformed(`${where}: register "${layout.register}" has no samples`);
  // Checked before any shot is decoded or stored: the count is the server's claim to memory.
  if (layout.shots !== undefined && samples.length !== layout.shots)
    throw malformed(
      `${where}: register "${layout.register}" holds ${samples.length} shots, ${layout.shots} asked; a retry would not help (the job's stored results stay the same)`,
    );
  const index = new Map<string, number>();
  const counts: number[] = [];
  samples.forEach((sample: unknown, s) => {
    const key = shotKey(sample, layout.numBits, `${where} sample ${s}`);
    const k = index.get(key);
    if (k === undefined) {
      index.set(key, counts.length);
      counts.push(1);
    } else counts[k]!++;
  });
  const n = layout.numBits;
  const states = new Int8Array(counts.length * n);
  let k = 0;
  for (const key of index.keys()) writeSpins(key, layout.logicalOfBit, states, n * k++);
  return { spins: n, states, weights: Float64Array.from(counts) };
}

/**
 * Decodes a Sampler V2 answer,
 * `{"results":[{"data":{"<register>":{"samples":["0x3",…],"num_bits":n}}, "metadata":{…}}, …]}`,
 * into one {@link SampleSet} per pub.
 *
 * Bit k of each shot (a hex integer, with or without `0x`) is classical bit c[k]; the spin of
 * logical `logicalOfBit[k]` is `1 − 2·bit` (bit 0 → +1). Identical states are merged, their counts
 * as weights, in order of first appearance. Widths beyond 53 bits are exact (shots are read digit
 * by digit, never as numbers).
 *
 * @param json the parsed answer of `GET jobs/{id}/results`.
 * @param pubs how to read each pub, in submission order.
 * @returns the sample sets, one per pub.
 * @throws {AdapterError} ADAPTER_MALFORMED for a wrong number of results, a missing register, a
 * num_bits mismatch, no samples, another shot count than a layout's `shots`, a shot that is not hex
 * or is wider than num_bits;
 * ADAPTER_INVALID_ARGUMENT for a layout that is not a permutation.
 * @example
 * import { decodeSamplerResults } from '@boltzmann/quantum-adapters';
 *
 * // A Sampler V2 job's results: one pub, register `c` of 2 bits, 3 shots as hex bit strings.
 * const json = { results: [{ data: { c: { samples: ['0x1', '0x1', '0x3'], num_bits: 2 } } }] };
 * const [set] = decodeSamplerResults(json, [{ register: 'c', numBits: 2, logicalOfBit: [1, 0] }]);
 * console.log(set?.states, set?.weights);
 * @category IBM Quantum
 */
export function decodeSamplerResults(
  json: unknown,
  pubs: readonly SamplerPubLayout[],
): SampleSet[] {
  pubs.forEach(checkLayout);
  const results = isObject(json) ? json.results : undefined;
  if (!Array.isArray(results))
    throw malformed(`Sampler results have no results list: ${echo(json, 200)}`);
  if (results.length !== pubs.length)
    throw malformed(`Sampler results hold ${results.length} pub results for ${pubs.length} pubs`);
  return pubs.map((layout, i) => decodePub(results[i], layout, i));
}
