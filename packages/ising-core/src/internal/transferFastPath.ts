// Which problems of a transfer-matrix batch the batched linear-domain kernel can take, and the
// coupling tables it shares across them.
import { bandTables } from './kernels/transferLinear.js';
import type { BandTables } from './kernels/transferLinear.js';
import { LINEAR_RANGE, MESSAGE_BUDGET } from './kernels/transferKernel.js';
import { maxSpinsOf } from './vjpInput.js';
import type { IsingBatch } from '../types.js';

/**
 * The batched linear-domain kernel (`transferLinear.ts`) for the problems it can take: one window
 * `W = min(bandwidth, longest − 1)` and one set of coupling tables for the whole batch; problem `q`
 * runs there when its dynamic-range bound (at that window, as `runChain` computes it but with the
 * couplings of the longest problem) rules out underflow. `undefined` when no
 * problem qualifies, when `W = 0`, or when the stored messages would exceed the message budget
 * (those runs keep `runChain`, which checkpoints).
 */
export function fastPath(
  batch: IsingBatch,
  bandwidth: number,
): { tables: BandTables; linear: Uint8Array } | undefined {
  const used = maxSpinsOf(batch);
  const W = Math.min(bandwidth, used - 1);
  if (W < 1 || used * 2 ** W > MESSAGE_BUDGET) return undefined;
  const { stride, couplings, beta, size } = batch;
  const band = new Float64Array(used * W);
  for (let t = 0; t < used; t++) {
    for (let b = Math.max(0, W - t); b < W; b++)
      band[t * W + b] = couplings[(t - W + b) * stride + t]!;
  }
  // The dynamic-range bound of runChain for every problem in O(n) each: the coupling part of each
  // spin's row, Σ |J| over its band at the longest length, is shared (at a shorter length it can only
  // be smaller, so the bound stays an upper bound and the linear domain stays exact).
  const couplingRow = new Float64Array(used);
  for (let t = 0; t < used; t++) {
    for (let b = Math.max(0, W - t); b < W; b++) {
      const v = Math.abs(band[t * W + b]!);
      couplingRow[t]! += v;
      couplingRow[t - W + b]! += v;
    }
  }
  const linear = new Uint8Array(size);
  let any = false;
  for (let q = 0; q < size; q++) {
    const n = batch.spins[q]!;
    const at = q * stride;
    let sum = 0;
    let largest = 0;
    for (let t = 0; t < n; t++) {
      sum += Math.abs(batch.fields[at + t]!) + couplingRow[t]!;
      if (t > W) sum -= Math.abs(batch.fields[at + t - W - 1]!) + couplingRow[t - W - 1]!;
      if (sum > largest) largest = sum;
    }
    if (2 * beta * largest <= LINEAR_RANGE) {
      linear[q] = 1;
      any = true;
    }
  }
  return any ? { tables: bandTables(band, used, W, beta), linear } : undefined;
}
