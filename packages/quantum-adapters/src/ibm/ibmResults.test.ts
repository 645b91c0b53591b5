import { describe, expect, it } from 'vitest';
import { decodeSamplerResults } from './ibmResults.js';

const answer = (samples: unknown, numBits: unknown = 2, register = 'c') => ({
  results: [{ data: { [register]: { samples, num_bits: numBits } }, metadata: {} }],
  metadata: { version: 2 },
});
const identity = (n: number) => Array.from({ length: n }, (_, k) => k);
const rows = (states: Int8Array, n: number) =>
  Array.from({ length: states.length / n }, (_, r) => [...states.subarray(r * n, (r + 1) * n)]);

describe('decodeSamplerResults', () => {
  it('should merge identical shots into weighted states, bit k = c[k], bit 0 → +1', () => {
    const [set] = decodeSamplerResults(answer(['0x1', '0x3', '0x1', '0x0', '0x1']), [
      { register: 'c', numBits: 2, logicalOfBit: [0, 1] },
    ]);
    expect(set!.spins).toBe(2);
    expect(rows(set!.states, 2)).toEqual([
      [-1, 1],
      [-1, -1],
      [1, 1],
    ]);
    expect([...set!.weights]).toEqual([3, 1, 1]);
  });

  it('should place each bit at its logical spin (logicalOfBit)', () => {
    // c = 0b0011 (c[0] = c[1] = 1): logical spins 2 and 0 are −1.
    const [set] = decodeSamplerResults(answer(['0x3'], 4), [
      { register: 'c', numBits: 4, logicalOfBit: [2, 0, 3, 1] },
    ]);
    expect(rows(set!.states, 4)).toEqual([[-1, 1, -1, 1]]);
  });

  it('should accept hex with or without 0x, any case and leading zeros, as the same state', () => {
    const [set] = decodeSamplerResults(answer(['0xA', 'a', '0X00a', '000A'], 4), [
      { register: 'c', numBits: 4, logicalOfBit: identity(4) },
    ]);
    expect(set!.weights).toEqual(Float64Array.of(4));
    expect(rows(set!.states, 4)).toEqual([[1, -1, 1, -1]]);
  });

  it('should decode 156-bit shots exactly (more than 53 bits)', () => {
    const top = `0x8${'0'.repeat(37)}1`; // bits 155 and 0
    const mid = `0x${(1n << 100n).toString(16)}`;
    const [set] = decodeSamplerResults(answer([top, mid, top], 156), [
      { register: 'c', numBits: 156, logicalOfBit: identity(156) },
    ]);
    expect([...set!.weights]).toEqual([2, 1]);
    const [a, b] = rows(set!.states, 156);
    expect(a!.flatMap((s, k) => (s === -1 ? [k] : []))).toEqual([0, 155]);
    expect(b!.flatMap((s, k) => (s === -1 ? [k] : []))).toEqual([100]);
  });

  it('should decode several pubs with their own registers and widths', () => {
    const json = {
      results: [
        { data: { c: { samples: ['0x1'], num_bits: 1 } } },
        { data: { meas: { samples: ['0x5', '0x2'], num_bits: 3 } } },
      ],
    };
    const sets = decodeSamplerResults(json, [
      { register: 'c', numBits: 1, logicalOfBit: [0] },
      { register: 'meas', numBits: 3, logicalOfBit: [2, 1, 0] },
    ]);
    expect(rows(sets[0]!.states, 1)).toEqual([[-1]]);
    expect(rows(sets[1]!.states, 3)).toEqual([
      [-1, 1, -1],
      [1, -1, 1],
    ]);
  });

  it('should refuse malformed answers with clear ADAPTER_MALFORMED messages', () => {
    const layout = [{ register: 'c', numBits: 2, logicalOfBit: [0, 1] }];
    const cases: [unknown, string][] = [
      [null, 'no results list'],
      [{ results: {} }, 'no results list'],
      [{ results: [] }, 'hold 0 pub results for 1 pubs'],
      [{ results: [{}] }, 'has no data object'],
      [answer(['0x1'], 2, 'meas'), 'has no register "c" (it has ["meas"])'],
      [answer(['0x1'], 3), 'has num_bits 3, the circuit measures 2'],
      [answer(['0x1'], '2'), 'has num_bits "2"'],
      [answer([]), 'has no samples'],
      [answer('0x1'), 'has no samples'],
      [answer(['0x1', '0xg']), 'sample 1 is not a hex string'],
      [answer(['0x']), 'sample 0 is not a hex string'],
      [answer([3]), 'sample 0 is not a hex string'],
      [answer(['-0x1']), 'sample 0 is not a hex string'],
      [answer(['0x4']), 'sample 0 has 3 bits, more than num_bits 2'],
      [answer([`0x1${'0'.repeat(40)}`]), 'more than num_bits 2'],
    ];
    for (const [json, fragment] of cases)
      expect(() => decodeSamplerResults(json, layout), fragment).toThrow(
        expect.objectContaining({
          code: 'ADAPTER_MALFORMED',
          retryable: false,
          message: expect.stringContaining(fragment),
        }),
      );
  });

  it('should refuse layouts that are not permutations', () => {
    for (const logicalOfBit of [[0], [0, 0], [0, 2], [0, 1.5]])
      expect(() =>
        decodeSamplerResults(answer(['0x1']), [{ register: 'c', numBits: 2, logicalOfBit }]),
      ).toThrow(expect.objectContaining({ code: 'ADAPTER_INVALID_ARGUMENT' }));
  });
});
