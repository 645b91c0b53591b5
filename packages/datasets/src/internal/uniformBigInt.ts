import type { Rng } from '@boltzmann/ising-core';

/**
 * An exactly uniform bigint in [0, n) for n ≥ 1: rejection over the smallest covering bit width,
 * built from `Rng.nextU32` words (high word first). `Rng.nextInt` is the number counterpart.
 */
export function uniformBigInt(rng: Rng, n: bigint): bigint {
  if (n === 1n) return 0n;
  const bits = (n - 1n).toString(2).length;
  const words = Math.ceil(bits / 32);
  const mask = (1n << BigInt(bits)) - 1n;
  for (;;) {
    let x = 0n;
    for (let w = 0; w < words; w++) x = (x << 32n) | BigInt(rng.nextU32());
    x &= mask;
    if (x < n) return x;
  }
}
