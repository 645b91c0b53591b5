// Which problems of a transfer-matrix batch the batched linear-domain kernel can take, and the
// coupling tables it shares across them.
import { linearVjp } from './kernels/linearVjp.js';
import { FLOAT32_STEP_RANGE, LINEAR_RANGE, MESSAGE_BUDGET } from './kernels/transferKernel.js';
import { bandTables, linearForward, linearScratch } from './kernels/transferLinear.js';
import type { BandTables } from './kernels/transferLinear.js';
import { wasmTransferForward, wasmTransferVjp } from './kernels/transferWasm.js';
import type { TransferPrecision } from './kernels/transferWasm.js';
import { maxSpinsOf } from './vjpInput.js';
import type { IsingBatch } from '../types.js';

/** The problems of a batch that the batched linear-domain kernels take, and their shared tables. */
export interface FastPath {
  readonly tables: BandTables;
  /** Per problem: 0 (`runChain`), 1 (linear, float64) or 2 (linear, float32). */
  readonly linear: Uint8Array;
}

/**
 * The batched linear-domain kernel (`transferLinear.ts`) for the problems it can take: one window
 * `W = min(bandwidth, longest − 1)` and one set of coupling tables for the whole batch; problem `q`
 * runs there when its dynamic-range bound (at that window, as `runChain` computes it but with the
 * couplings of the longest problem) rules out underflow. With `precision: 'float32'`, problems
 * whose every step factor is also within `e^{±FLOAT32_STEP_RANGE}` run in the float32 kernel
 * (code 2; the others stay float64). `undefined` when no
 * problem qualifies, when `W = 0`, or when the stored messages would exceed the message budget
 * (those runs keep `runChain`, which checkpoints).
 */
export function fastPath(
  batch: IsingBatch,
  bandwidth: number,
  precision: TransferPrecision = 'float64',
): FastPath | undefined {
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
  // float32 needs the step bound too (FLOAT32_STEP_RANGE) and a window of at least 3.
  const single = precision === 'float32' && W >= 3;
  let any = false;
  for (let q = 0; q < size; q++) {
    const n = batch.spins[q]!;
    const at = q * stride;
    let sum = 0;
    let largest = 0;
    let step = 0;
    for (let t = 0; t < n; t++) {
      const own = Math.abs(batch.fields[at + t]!) + couplingRow[t]!;
      sum += own;
      if (t > W) sum -= Math.abs(batch.fields[at + t - W - 1]!) + couplingRow[t - W - 1]!;
      if (sum > largest) largest = sum;
      if (own > step) step = own;
    }
    if (2 * beta * largest <= LINEAR_RANGE) {
      linear[q] = single && beta * step <= FLOAT32_STEP_RANGE ? 2 : 1;
      any = true;
    }
  }
  return any ? { tables: bandTables(band, used, W, beta), linear } : undefined;
}

/** The fast path's problems by kernel precision (codes 1 and 2), empty groups left out. */
function precisionGroups(fast: FastPath): { precision: TransferPrecision; problems: number[] }[] {
  const groups = [
    { precision: 'float64' as const, problems: [] as number[] },
    { precision: 'float32' as const, problems: [] as number[] },
  ];
  fast.linear.forEach((code, q) => {
    if (code !== 0) groups[code - 1]!.problems.push(q);
  });
  return groups.filter((g) => g.problems.length > 0);
}

/**
 * Magnetizations, `P(s = +1)` and `log Z` of the fast path's problems, in the wasm kernel of each
 * problem's precision when this engine has it, else in the JavaScript (float64) kernel.
 */
export function fastForward(
  fast: FastPath,
  batch: IsingBatch,
  magnetization: Float64Array,
  probabilityUp: Float64Array,
  logPartition: Float64Array,
): void {
  const { tables } = fast;
  const { stride, fields, spins } = batch;
  for (const { precision, problems } of precisionGroups(fast)) {
    const wasm = wasmTransferForward(tables, precision) ?? wasmTransferForward(tables);
    const scratch = wasm === undefined ? linearScratch(tables, false) : undefined;
    for (const q of problems) {
      const at = q * stride;
      logPartition[q] =
        wasm !== undefined
          ? wasm(fields, at, spins[q]!, magnetization, at, probabilityUp)
          : linearForward(
              tables,
              fields,
              at,
              spins[q]!,
              scratch!,
              magnetization,
              at,
              probabilityUp,
            );
    }
  }
}

/**
 * The VJP of the fast path's problems, in the direction centered on the forward's `P(s = +1)`
 * (`center`, the batch's layout): `∂L/∂h` into `fieldGrad`, and the band-gradient sums into
 * `acc` / `acc0` (the layout of `linearVjp`, folded by `foldBandGrad`).
 */
export function fastVjp(
  fast: FastPath,
  batch: IsingBatch,
  grad: Float64Array,
  center: Float64Array,
  fieldGrad: Float64Array,
  acc: Float64Array,
  acc0: Float64Array,
): void {
  const { tables } = fast;
  const { stride, fields, spins } = batch;
  for (const { precision, problems } of precisionGroups(fast)) {
    const wasm = wasmTransferVjp(tables, precision) ?? wasmTransferVjp(tables);
    if (wasm !== undefined) {
      for (const q of problems)
        wasm.run(fields, q * stride, grad, q * stride, spins[q]!, fieldGrad, q * stride, center);
      wasm.collect(acc, acc0);
      continue;
    }
    const scratch = linearScratch(tables, true);
    for (const q of problems) {
      const at = q * stride;
      linearVjp(tables, fields, at, grad, at, spins[q]!, scratch, fieldGrad, at, acc, acc0, center);
    }
  }
}
