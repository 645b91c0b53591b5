import type { Rng } from '@boltzmann/ising-core';

/**
 * `n` distinct indices of `weights` drawn without replacement with probabilities proportional to
 * the weights, in the order of successive sampling (first draw first): every index gets the key
 * `log(u) / w` with u uniform in (0, 1), and the n largest keys, largest first, are the draws.
 * Efraimidis & Spirakis (2006) show this order has exactly the law of drawing one index at a time
 * from the weights left (numpy's `choice(replace=False, p=…)`), at O(m log m) instead of O(n·m).
 *
 * @param weights positive weights, one per index.
 * @param n draws, at most `weights.length`.
 * @param rng the stream (one word per index).
 * @returns the drawn indices in draw order.
 */
export function topKeysOrder(weights: Float64Array, n: number, rng: Rng): Int32Array {
  const m = weights.length;
  const keys = new Float64Array(m);
  for (let i = 0; i < m; i++) keys[i] = Math.log((rng.nextU32() + 0.5) / 4294967296) / weights[i]!;
  const order = Array.from({ length: m }, (_, i) => i);
  order.sort((a, b) => keys[b]! - keys[a]! || a - b);
  return Int32Array.from(order.slice(0, n));
}
