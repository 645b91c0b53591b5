// The exact kernel's per-thread scratch tables: kept up to 2^20 states per table, inside the wasm
// kernels' memory when those run.
import { wasmArena, wasmArenaInUse } from './wasmKernels.js';

/** Low bits of the split tables (see splitKernels.ts): 2^10 doubles stay in L1. */
export const LOW_BITS = 10;

/** The tables an enumeration pass works in (see {@link scratchFor}). */
export interface Scratch {
  readonly capacity: number;
  /** Views over the wasm kernels' memory (see wasmKernels.ts) rather than plain arrays. */
  readonly inArena: boolean;
  /** `C_n(s)`, then the per-state tables of the log-domain path. */
  readonly table: Float64Array;
  readonly expCoupling: Float64Array;
  readonly field: Float64Array;
  readonly work: Float64Array;
  acc?: Float64Array;
  /** Small tables, `2^max(LOW_BITS, n − LOW_BITS)` entries each. */
  readonly low: Float64Array;
  readonly high: Float64Array;
  readonly lowB: Float64Array;
  readonly highB: Float64Array;
  readonly col: Float64Array;
  readonly row: Float64Array;
}

// Reused across calls on this thread up to 2^20 states per table (8 MiB each); larger runs allocate and release.
const KEEP_LIMIT = 20;
let kept: Scratch | undefined;

export function scratchFor(maxN: number, backward: boolean): Scratch {
  const need = Math.max(maxN, 1);
  const arena = wasmArenaInUse();
  let s = kept !== undefined && kept.capacity >= need && kept.inArena === arena ? kept : undefined;
  if (s === undefined) {
    const size = 1 << need;
    const small = 1 << Math.max(LOW_BITS, need - LOW_BITS);
    // Kept scratch lives in the wasm kernels' memory (which never shrinks, hence only up to
    // KEEP_LIMIT); the JavaScript kernels take over when it is plain arrays.
    const lengths = [size, size, size, size, size, small, small, small, small, small, small];
    const views = arena && need <= KEEP_LIMIT ? wasmArena(lengths) : undefined;
    const [table, expCoupling, field, work, acc, low, high, lowB, highB, col, row] =
      views ?? lengths.map((n, i) => new Float64Array(i === 4 && !backward ? 0 : n));
    s = {
      capacity: need,
      inArena: views !== undefined,
      table: table!,
      expCoupling: expCoupling!,
      field: field!,
      work: work!,
      acc: acc!.length > 0 ? acc : undefined,
      low: low!,
      high: high!,
      lowB: lowB!,
      highB: highB!,
      col: col!,
      row: row!,
    };
    if (need <= KEEP_LIMIT) kept = s;
  }
  if (backward && s.acc === undefined) s.acc = new Float64Array(1 << s.capacity);
  return s;
}
