// What the row benchmarks of the native transfer kernels share (scripts/benchStrongFields.ts,
// scripts/benchTrainedCouplings.ts): their common flags (--window, --rows, --scales, --rounds)
// read into numbers, and the native addon with the ISA its kernels run on.
import { loadNativeAddon } from '../../src/engine/native/nativeAddon.js';
import type { NativeAddon } from '../../src/engine/native/nativeAddon.js';
import type { TransferCase } from '../../src/testing/transferKernels.js';
import { scriptArg } from '../scriptArgs.js';

/** The common flags: window W, sequences of `length` making up `--rows` rows, field scales, rounds. */
export function rowBenchArgs(length: number, defaults: { rows: string; scales: string }) {
  return {
    window: Number(scriptArg('window', '8')),
    batch: Math.max(1, Math.round(Number(scriptArg('rows', defaults.rows)) / length)),
    scales: scriptArg('scales', defaults.scales).split(',').map(Number),
    rounds: Number(scriptArg('rounds', '3')),
  };
}

/** The native addon and its first (widest) ISA; throws with the reason when it is not built. */
export function nativeKernels(): { addon: NativeAddon; isa: string } {
  const { addon, reason } = loadNativeAddon();
  if (addon === undefined) throw new Error(`the native addon is not built: ${reason}`);
  return { addon, isa: addon.isas()[0]! };
}

/**
 * One head of `batch` sequences of `length`, window W, β = 1: fields uniform in ±`fieldScale`,
 * band couplings uniform in ±`couplingScale` unless `prepare` writes them.
 */
export function rowCase(
  rows: { batch: number; length: number; window: number },
  fieldScale: number,
  couplingScale: number,
  prepare?: TransferCase['prepare'],
): TransferCase {
  return { ...rows, heads: 1, beta: 1, fieldScale, couplingScale, prepare };
}
