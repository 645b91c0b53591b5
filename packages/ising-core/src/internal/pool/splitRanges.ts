// How a batch is cut for threads: the cost of its problems and cost-balanced contiguous ranges.
import type { ThreadedSamplerName } from './poolMessages.js';

/** Cost of problem `q`: `n²` per fixed-point iteration, `n` (times `2^w`, the same for all) for the transfer matrix. */
function costOf(sampler: ThreadedSamplerName, n: number): number {
  return sampler === 'transfer-matrix' ? n : n * n;
}

/** Total cost of a batch, the figure `'auto'` compares with its threshold. */
export function batchCost(sampler: ThreadedSamplerName, spins: Int32Array): number {
  let total = 0;
  for (let q = 0; q < spins.length; q++) total += costOf(sampler, spins[q]!);
  return total;
}

/**
 * Cuts `0..size` into at most `parts` contiguous ranges of nearly equal cost. With `keepSequences`
 * a cut only falls where a causal sequence starts (the next problem is not one spin longer), so
 * a warm start never crosses threads and each range equals its part of the one-thread run.
 */
export function splitRanges(
  sampler: ThreadedSamplerName,
  spins: Int32Array,
  parts: number,
  keepSequences: boolean,
): [number, number][] {
  const size = spins.length;
  const prefix = new Float64Array(size + 1);
  for (let q = 0; q < size; q++) prefix[q + 1] = prefix[q]! + costOf(sampler, spins[q]!);
  const total = prefix[size]!;
  const cuts = [0];
  for (let i = 1; i < parts; i++) {
    const target = (total * i) / parts;
    let best = -1;
    for (let q = cuts[cuts.length - 1]! + 1; q < size; q++) {
      if (keepSequences && spins[q] === spins[q - 1]! + 1) continue;
      if (best < 0 || Math.abs(prefix[q]! - target) < Math.abs(prefix[best]! - target)) best = q;
      if (prefix[q]! >= target) break;
    }
    if (best > 0) cuts.push(best);
  }
  cuts.push(size);
  const ranges: [number, number][] = [];
  for (let i = 0; i + 1 < cuts.length; i++)
    if (cuts[i + 1]! > cuts[i]!) ranges.push([cuts[i]!, cuts[i + 1]!]);
  return ranges;
}
