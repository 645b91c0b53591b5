import type { Rng } from '@boltzmann/ising-core';
import { createRng } from '@boltzmann/ising-core';
import { describe, expect, it } from 'vitest';
import { uniformBigInt } from './uniformBigInt.js';

// An Rng whose nextU32() replays given 32-bit words, to pin the rejection rule.
function scripted(words: number[]): Rng {
  const rng = createRng(0);
  return { ...rng, nextU32: () => words.shift()! };
}

describe('uniformBigInt', () => {
  it('should draw the covering bit width and reject values ≥ n', () => {
    // n = 5: 3 bits; 7 and 13 & 7 = 5 are rejected, 10 & 7 = 2 is kept.
    expect(uniformBigInt(scripted([7, 13, 10]), 5n)).toBe(2n);
    // n = 2^40 + 3: 41 bits in two words, the high word masked to 0x1ff. 2^41 − 1 and 2^40 + 7 are
    // rejected; 0x2ff masks to 0xff, kept.
    const words = [0xffffffff, 0xffffffff, 0x100, 7, 0x2ff, 9];
    expect(uniformBigInt(scripted(words), 2n ** 40n + 3n)).toBe((0xffn << 32n) | 9n);
    expect(uniformBigInt(createRng(3), 1n)).toBe(0n);
  });

  it('should be uniform on a small range (chi-square)', () => {
    const rng = createRng(2);
    const counts = new Array<number>(7).fill(0);
    for (let i = 0; i < 35_000; i++) counts[Number(uniformBigInt(rng, 7n))]!++;
    const chi2 = counts.reduce((a, c) => a + (c - 5000) ** 2 / 5000, 0);
    expect(chi2).toBeLessThan(35);
  });
});
