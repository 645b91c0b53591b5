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

/**
 * Test helper: the largest |a − b| over the largest |b| (at least `floor`): an error relative to
 * the scale of the whole output, not entry by entry. Not part of the public API.
 */
export function relativeError(a: ArrayLike<number>, b: ArrayLike<number>, floor = 0): number {
  let err = 0;
  let scale = floor;
  for (let i = 0; i < b.length; i++) {
    err = Math.max(err, Math.abs(a[i]! - b[i]!));
    scale = Math.max(scale, Math.abs(b[i]!));
  }
  return err / scale;
}
