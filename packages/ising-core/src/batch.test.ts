import { describe, expect, it } from 'vitest';
import { createIsingBatch } from './index.js';
import { codeOf } from './testing/thrownErrors.js';

const input = (spins: ArrayLike<number>) => ({
  fields: new Float64Array(spins.length * 2),
  couplings: new Float64Array(4),
  spins,
  stride: 2,
});

describe('createIsingBatch spin counts', () => {
  it('checks the spin counts as given, before the Int32 conversion (2^32 + 1 is not 1 spin)', () => {
    expect(codeOf(() => createIsingBatch(input([2 ** 32 + 1])))).toBe('ISING_SHAPE_MISMATCH');
    expect(codeOf(() => createIsingBatch(input([2 ** 32 + 2])))).toBe('ISING_SHAPE_MISMATCH');
    expect(codeOf(() => createIsingBatch(input([-(2 ** 32) + 1])))).toBe('ISING_SHAPE_MISMATCH');
    expect(codeOf(() => createIsingBatch(input(['1' as unknown as number])))).toBe(
      'ISING_SHAPE_MISMATCH',
    );
    expect(() => createIsingBatch(input([2 ** 32 + 1]))).toThrow(
      /spins\[0\] is 4294967297; it must be an integer in \[1, 2\]/,
    );
    expect(Array.from(createIsingBatch(input([1, 2])).spins)).toEqual([1, 2]);
    expect(Array.from(createIsingBatch(input(Float64Array.of(2, 1))).spins)).toEqual([2, 1]);
  });
});
