import { expect } from 'vitest';

/**
 * Test helper: asserts equal lengths and |actual − expected| ≤ abs + rel·|expected| at every entry,
 * throwing with the first entry that misses. Not part of the public API.
 */
export const close = (
  actual: ArrayLike<number>,
  expected: ArrayLike<number>,
  rel: number,
  abs = rel,
) => {
  expect(actual.length).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) {
    const tol = abs + rel * Math.abs(expected[i]!);
    if (!(Math.abs(actual[i]! - expected[i]!) <= tol))
      throw new Error(`entry ${i}: ${actual[i]} vs ${expected[i]} (tolerance ${tol})`);
  }
};
