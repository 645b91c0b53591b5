import { createRng } from '@boltzmann/ising-core';
import { hash } from './init.js';

/** Where a dropout mask is drawn: block `layer` (0 for the embedding), at `site`, in training step `step`. */
export interface DropoutSite {
  readonly seed: number;
  readonly step: number;
  readonly layer: number;
  /** `embedding`, `attention`, `attention/residual` or `ffn/residual`. */
  readonly site: string;
}

/**
 * Fills `out` with the inverted-dropout mask of `site` at `rate`: 0 with probability `rate`,
 * else `1/(1 − rate)`. The mask is a pure function of (seed, step, layer, site), so the tfjs
 * model and the engine drop the same entries; `skip` starts `skip` entries into it (a thread's
 * part of the batch).
 */
export function fillDropoutMask(
  out: Float32Array,
  rate: number,
  where: DropoutSite,
  skip = 0,
): Float32Array {
  const { seed, step, layer, site } = where;
  const rng = createRng(hash(`${seed}/dropout/${step}/${layer}/${site}`) + seed * 2 ** 32);
  for (let i = 0; i < skip; i++) rng.next();
  const keep = 1 / (1 - rate);
  for (let i = 0; i < out.length; i++) out[i] = rng.next() < rate ? 0 : keep;
  return out;
}
