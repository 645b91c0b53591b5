import type { Rng } from '@boltzmann/ising-core';

const TWO_32 = 4294967296;

// `Rng.next()` is an exact 32-bit integer divided by 2^32, so this recovers that integer.
function nextU32(rng: Rng): number {
  return Math.floor(rng.next() * TWO_32);
}

/**
 * An exactly uniform integer in [0, n) for 1 ≤ n ≤ 2^32. `Rng.nextInt` uses floor(u·n),
 * whose bias (up to n/2^32 relative) would be visible for n near a million; rejection removes it.
 */
export function uniformInt(rng: Rng, n: number): number {
  if (n === 1) return 0;
  const limit = TWO_32 - (TWO_32 % n);
  for (;;) {
    const x = nextU32(rng);
    if (x < limit) return x % n;
  }
}

/** An exactly uniform bigint in [0, n) for n ≥ 1 (rejection over the smallest covering bit width). */
export function uniformBigInt(rng: Rng, n: bigint): bigint {
  if (n === 1n) return 0n;
  const bits = (n - 1n).toString(2).length;
  const words = Math.ceil(bits / 32);
  const mask = (1n << BigInt(bits)) - 1n;
  for (;;) {
    let x = 0n;
    for (let w = 0; w < words; w++) x = (x << 32n) | BigInt(nextU32(rng));
    x &= mask;
    if (x < n) return x;
  }
}
