import type { Rng } from '@boltzmann/ising-core';

/**
 * Test-server helper: exact Boltzmann draws by enumeration. `energy(bits)` gets the state as an
 * integer (bit k set ⇔ variable k is +1); returns `reads` state indices drawn from exp(-beta·E).
 */
export function drawBoltzmann(
  n: number,
  energy: (bits: number) => number,
  beta: number,
  reads: number,
  rng: Rng,
): number[] {
  if (n > 22) throw new Error(`fake sampler refuses ${n} variables (enumeration limit 22)`);
  const size = 2 ** n;
  const e = new Float64Array(size);
  let min = Infinity;
  for (let s = 0; s < size; s++) {
    e[s] = energy(s);
    if (e[s]! < min) min = e[s]!;
  }
  const cdf = new Float64Array(size);
  let total = 0;
  for (let s = 0; s < size; s++) {
    total += Math.exp(-beta * (e[s]! - min));
    cdf[s] = total;
  }
  return drawFromCdf(cdf, reads, rng);
}

/** `reads` indices drawn from an unnormalized cumulative distribution by binary search. */
export function drawFromCdf(cdf: Float64Array, reads: number, rng: Rng): number[] {
  const total = cdf[cdf.length - 1]!;
  const out: number[] = [];
  for (let r = 0; r < reads; r++) {
    const u = rng.next() * total;
    let lo = 0;
    let hi = cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! > u) hi = mid;
      else lo = mid + 1;
    }
    out.push(lo);
  }
  return out;
}
